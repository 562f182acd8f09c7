// An HTML preview's frame script (frames/preview.html and frames/preview-network.html). The frame is Fawn's own
// same-origin document, so the service worker serves it offline; it never runs what the model wrote. It shows the page
// the embedding Fawn page sends in a child iframe sandboxed without allow-same-origin (an opaque origin: no Fawn
// storage, cookies or DOM), from `srcdoc`, so the child inherits this document's Content-Security-Policy: the page's
// inline scripts run, and it reaches the network only in the preview-network variant. It passes on what the child
// posts (a click on a link to another thread file) to the embedding page, which checks it.
import { PREVIEW_SANDBOX, type PreviewFrameReport, type PreviewFrameShow } from "./preview-frame-protocol.ts";

let child: HTMLIFrameElement | undefined;

function report(message: PreviewFrameReport): void {
  window.parent.postMessage(message, window.location.origin);
}

/** A fresh child for each page: nothing of the previous page (its timers, its globals) lives on. */
function show(message: PreviewFrameShow): void {
  child?.remove();
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", PREVIEW_SANDBOX);
  frame.referrerPolicy = "no-referrer";
  frame.title = message.title;
  frame.srcdoc = message.html;
  document.body.append(frame);
  child = frame;
}

window.addEventListener("message", (event: MessageEvent) => {
  // Only the Fawn page that embeds this frame may say what to show.
  if (event.source === window.parent && event.origin === window.location.origin) {
    const message = event.data as Partial<PreviewFrameShow> | null;
    if (message?.type === "fawn-preview-show" && typeof message.html === "string") {
      show({ type: message.type, html: message.html, title: String(message.title ?? "") });
    }
    return;
  }
  // Only the child this frame made may pass a message on; its origin is opaque ("null"), so the source decides.
  if (child && event.source === child.contentWindow) report({ type: "fawn-preview-relay", data: event.data });
});

report({ type: "fawn-preview-ready" });
