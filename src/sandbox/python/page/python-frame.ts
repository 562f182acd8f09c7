// The Python frame's script (frames/python.html): takes one start message from the page that made it, and starts the
// python worker from a `data:` URL. That worker has an opaque origin (no IndexedDB, caches or cookies of Fawn's) and
// inherits this document's Content-Security-Policy (no network but Pyodide's package host, no eval). The frame itself
// is Fawn's own same-origin code, so the service worker serves it offline; it never runs or reads what the model
// wrote, and it ignores every message the worker sends.
import { toBase64 } from "../../../shared/base64.ts";
import type { PythonFrameReport, PythonFrameStart } from "../python-frame-protocol.ts";

function report(message: PythonFrameReport): void {
  window.parent.postMessage(message, window.location.origin);
}

/** The `data:` URL of a JavaScript module source (UTF-8, base64). */
function moduleDataUrl(source: string): string {
  return `data:text/javascript;base64,${toBase64(new TextEncoder().encode(source))}`;
}

window.addEventListener("message", function start(event: MessageEvent<PythonFrameStart>) {
  // Only the page that made this frame may start it, once.
  if (event.source !== window.parent || event.origin !== window.location.origin) return;
  if (event.data?.type !== "fawn-python-start" || event.ports.length !== 1) return;
  window.removeEventListener("message", start);
  const port = event.ports[0]!;
  try {
    const worker = new Worker(moduleDataUrl(event.data.workerSource), { type: "module", name: "python" });
    worker.addEventListener("error", (error) => {
      error.preventDefault();
      report({ type: "fawn-python-failed", reason: error.message || "the python worker failed to load" });
    });
    const { files, indexURL, packageBaseUrl, snapshot } = event.data;
    const message: PythonFrameStart = {
      type: "fawn-python-start",
      workerSource: "",
      files,
      indexURL,
      packageBaseUrl,
      ...(snapshot ? { snapshot } : {}),
    };
    worker.postMessage(message, [port, ...Object.values(files), ...(snapshot ? [snapshot] : [])]);
  } catch (error) {
    report({ type: "fawn-python-failed", reason: error instanceof Error ? error.message : String(error) });
  }
});

report({ type: "fawn-python-ready" });
