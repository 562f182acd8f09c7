// What an HTML preview's frame (frames/preview.html, preview-frame.ts) and the page that embeds it say to each
// other. Plain data; both sides send only to Fawn's own origin and take messages only from each other.

/** The frame → the page: listening, send the page to show. Sent again each time the frame document loads. */
export interface PreviewFrameReady {
  type: "fawn-preview-ready";
}

/** The page → the frame: show `html` (a whole document) in a fresh sandboxed child, replacing any shown before. */
export interface PreviewFrameShow {
  type: "fawn-preview-show";
  html: string;
  /** The child frame's accessible name. */
  title: string;
}

/**
 * The frame → the page: a message the shown page posted to its parent, passed on as it came. It is the page's own
 * word (a link to another thread file): the page checks it as untrusted data (html-artifact.ts linkedThreadFile).
 */
export interface PreviewFrameRelay {
  type: "fawn-preview-relay";
  data: unknown;
}

export type PreviewFrameReport = PreviewFrameReady | PreviewFrameRelay;

/** The sandbox of the child that shows the page: scripts and popups (links open as ordinary tabs), no same-origin. */
export const PREVIEW_SANDBOX = "allow-scripts allow-popups allow-popups-to-escape-sandbox";

/** The frame document's path under the app's base URL, with the network off or on. */
export function previewFramePath(network: boolean): string {
  return network ? "frames/preview-network.html" : "frames/preview.html";
}
