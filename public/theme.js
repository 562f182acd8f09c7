/* global document, localStorage */
// The theme before the app paints, so a chosen theme never flashes the other one (src/ui/shared/theme.ts). A file, not an
// inline script, because the page's Content-Security-Policy allows no inline script; deferred (index.html), it runs
// once the document is parsed, before the app's module script.
try {
  document.documentElement.dataset.theme = localStorage.getItem("fawn.theme") || "system";
} catch {
  // No storage (private windows): the stylesheet follows the system.
}
