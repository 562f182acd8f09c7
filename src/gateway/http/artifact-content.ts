// How an artifact (a file the agent wrote, or an upload) is answered over HTTP without ever running as active content
// on the app's origin: HTML, XHTML and SVG (and anything not known to be inert) are attachments; what is shown inline
// is a known inert type, with `nosniff` and a CSP of `sandbox` so a browser opening it directly runs nothing.

/** Types a browser would run as a document with script: always sent as attachments (DeerFlow's ACTIVE_CONTENT_MIME_TYPES). */
const ACTIVE_TYPES = new Set(["text/html", "application/xhtml+xml", "image/svg+xml", "text/xml", "application/xml"]);

/** Extensions shown inline, by the type they are sent as. Anything else is text (when it looks like text) or a file. */
const INLINE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  bmp: "image/bmp",
  ico: "image/x-icon",
  pdf: "application/pdf",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  m4a: "audio/mp4",
  mp4: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  md: "text/markdown; charset=utf-8",
  markdown: "text/markdown; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  json: "application/json; charset=utf-8",
};

/** Extensions that are active content whatever type they were stored with. */
const ACTIVE_EXTENSIONS = new Set(["html", "htm", "xhtml", "xht", "svg", "svgz", "xml", "xsl", "xslt", "mht", "mhtml"]);

/** Headers on every artifact answer: the browser sniffs nothing, and a document opened from it runs nothing. */
export const ARTIFACT_SAFETY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "sandbox",
  "cross-origin-resource-policy": "same-origin",
};

export interface ArtifactPresentation {
  /** The Content-Type it is sent as. */
  contentType: string;
  /** Sent as a download (`attachment`) rather than shown (`inline`). */
  attachment: boolean;
}

function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot <= 0 ? "" : base.slice(dot + 1).toLowerCase();
}

/** True when the first 8 KiB hold no NUL byte and decode as UTF-8 (DeerFlow's is_text_file_by_content, stricter). */
function looksLikeText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 8192);
  if (sample.includes(0)) return false;
  try {
    // `stream`: a sample cut inside a multi-byte character is still text; only a bad sequence is not.
    new TextDecoder("utf-8", { fatal: true }).decode(sample, { stream: sample.byteLength < bytes.byteLength });
    return true;
  } catch {
    return false;
  }
}

/**
 * How the file `name` (with the type it was stored as, and its bytes) is sent. Active content and `download` are
 * attachments; known inert media and text are inline; anything else is an `application/octet-stream` attachment.
 * Text of any other kind (code, CSS, scripts) is sent as `text/plain`, so no page can load it as a script or style.
 */
export function presentArtifact(
  name: string,
  storedType: string,
  bytes: Uint8Array,
  download: boolean,
): ArtifactPresentation {
  const extension = extensionOf(name);
  const stored = storedType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (ACTIVE_EXTENSIONS.has(extension) || ACTIVE_TYPES.has(stored)) {
    return { contentType: ACTIVE_TYPES.has(stored) ? stored : "application/octet-stream", attachment: true };
  }
  const inline = INLINE_TYPES[extension];
  if (inline !== undefined) return { contentType: inline, attachment: download };
  if (looksLikeText(bytes)) return { contentType: "text/plain; charset=utf-8", attachment: download };
  return { contentType: "application/octet-stream", attachment: true };
}

/** RFC 6266 / 5987: the name for any client, encoded so quotes, newlines and non-ASCII cannot break the header. */
export function contentDisposition(kind: "inline" | "attachment", filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** The one byte range `header` asks of `size` bytes; undefined for no (or an ignored) header, "unsatisfiable" else. */
export function byteRange(
  header: string | null,
  size: number,
): { start: number; end: number } | "unsatisfiable" | undefined {
  if (header === null) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return "unsatisfiable";
  const [, first = "", last = ""] = match;
  let start: number;
  let end: number;
  if (first === "") {
    const suffix = Number(last);
    if (suffix <= 0) return "unsatisfiable";
    start = Math.max(size - suffix, 0);
    end = size - 1;
  } else {
    start = Number(first);
    end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  }
  if (size === 0 || start >= size || end < start) return "unsatisfiable";
  return { start, end };
}
