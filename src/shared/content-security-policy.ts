// The Content-Security-Policies of Fawn's documents: the app page (index.html), the Python frame that starts Pyodide
// in a worker of its own, and the two HTML preview frames (network off, and on after "Allow network"). One place,
// so the page's <meta>, the preview server's and the service worker's headers, and the tests all say the same thing.
// Each frame document is a same-origin file the service worker serves offline; what the model wrote runs only inside
// what those frames start (an opaque-origin worker or iframe), which inherits the frame's policy.
import { FIRST_SCREEN_SCRIPT_HASH } from "./first-screen.ts";

/** Joins directives into one policy string. */
function policy(directives: Record<string, string>): string {
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join("; ");
}

/**
 * WebContainer's boot page and its runtime frames (stackblitz.com, then *.webcontainer-api.io and *.staticblitz.com);
 * the only frames from elsewhere the page may show.
 */
const WEBCONTAINER_FRAMES =
  "https://stackblitz.com https://*.stackblitz.com https://*.webcontainer-api.io https://*.staticblitz.com";

/**
 * The app page: no inline script but index.html's first one (first-screen.ts, allowed by its hash), no plugins, no <base>, no form posts, frames only from Fawn itself (the preview and
 * Python frames) and WebContainer. `connect-src` stays open to any http(s) host because the user's own endpoints (a
 * model on localhost, a LAN server, any provider) are chosen at run time. Images come only from Fawn itself, `data:`
 * and `blob:`: a web image the user allowed ("Load image", or "Always" for its host) is fetched by the page and shown
 * from a `blob:` (src/ui/markdown/remote-image-fetch.ts), so nothing a reply or a diagram names loads by itself even
 * if it slipped past the sanitizers.
 */
export const APP_CSP = policy({
  "default-src": "'self'",
  "script-src": `'self' ${FIRST_SCREEN_SCRIPT_HASH}`,
  // Components set inline styles (virtual lists, xterm, KaTeX); model text never keeps a style attribute.
  "style-src": "'self' 'unsafe-inline'",
  "img-src": "'self' data: blob:",
  "media-src": "'self' data: blob:",
  "font-src": "'self' data:",
  "connect-src": "'self' https: http: ws: wss:",
  "worker-src": "'self' blob:",
  "frame-src": `'self' blob: ${WEBCONTAINER_FRAMES}`,
  "manifest-src": "'self'",
  "object-src": "'none'",
  "base-uri": "'none'",
  "form-action": "'none'",
});

/**
 * The Python frame (frames/python.html) and, by inheritance, the `data:` worker it starts, where Pyodide runs
 * with an opaque origin: its own script, Pyodide's modules as blobs the worker makes, WebAssembly, and no network
 * but Pyodide's package host for this version (numpy, pandas… when online).
 */
export function pythonFrameCsp(packageBaseUrl: string): string {
  return policy({
    "default-src": "'none'",
    "script-src": "'self' blob: 'wasm-unsafe-eval'",
    "worker-src": "data:",
    "connect-src": packageBaseUrl,
    "base-uri": "'none'",
    "form-action": "'none'",
  });
}

/**
 * An HTML preview's frame (frames/preview.html, or frames/preview-network.html once the user turns on "Allow network")
 * and, by inheritance, the opaque-origin `srcdoc` page it shows. The page may run its own inline scripts, styles and
 * what it carries as data: or blob: URLs, and with `network` also load from any web address; without it nothing
 * leaves the browser: no fetch, image, font, script or frame from the web, no form post. `frame-src` also governs
 * where the page's frame may navigate itself. `'self'` is only there for the frame's own script.
 */
function previewCsp(network: boolean): string {
  const web = network ? " http: https:" : "";
  return policy({
    "default-src": "'none'",
    "script-src": `'self' 'unsafe-inline' 'unsafe-eval' data: blob:${web}`,
    "style-src": `'unsafe-inline' data: blob:${web}`,
    "img-src": `data: blob:${web}`,
    "font-src": `data: blob:${web}`,
    "media-src": `data: blob:${web}`,
    "connect-src": `data: blob:${network ? " http: https: ws: wss:" : ""}`,
    "worker-src": "data: blob:",
    "frame-src": `data: blob:${web}`,
    "form-action": "'none'",
    "base-uri": "'none'",
  });
}

/** An HTML preview with the network off (the default): see previewCsp. */
export const PREVIEW_CSP = previewCsp(false);

/** An HTML preview after "Allow network": its page may load from and connect to any web address. */
export const PREVIEW_NETWORK_CSP = previewCsp(true);
