// An HTML artifact's preview runs in a sandboxed iframe without same-origin, from `srcdoc`: it can fetch nothing from
// the thread, so its relative files (`css/style.css`, `app.js`, `img/logo.png`) would resolve against Fawn's own
// address and fail. Before the page is shown they are read from the thread's files and put inline: stylesheets as
// <style>, scripts as inline <script>, images and media as data: URLs (also inside CSS `url(...)`). Web addresses
// stay as they are; paths that leave /mnt/user-data, missing files and files over the limits are dropped rather than
// requested from Fawn's server.
import { fileName } from "../shared/artifact-kinds.ts";
import { resolveThreadPath } from "../markdown/thread-file-references.ts";
import { toBase64 } from "../../shared/base64.ts";

export interface ThreadFileReader {
  (path: string): Promise<{ bytes: Uint8Array; mime_type: string } | undefined>;
}

/** One file is inlined up to this size… */
export const INLINE_MAX_FILE_BYTES = 5 * 1024 * 1024;
/** …and all of a page's files together up to this much. */
export const INLINE_MAX_TOTAL_BYTES = 20 * 1024 * 1024;
/** At most this many files per page. */
export const INLINE_MAX_FILES = 300;

const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  css: "text/css",
  js: "text/javascript",
  mjs: "text/javascript",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  ico: "image/x-icon",
  avif: "image/avif",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  mp4: "video/mp4",
  webm: "video/webm",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  json: "application/json",
};

function mimeOf(path: string, stored: string): string {
  const extension = fileName(path).split(".").pop()?.toLowerCase() ?? "";
  return MIME_BY_EXTENSION[extension] ?? (stored || "application/octet-stream");
}

/** Reads thread files for one page, within the limits, each at most once. */
class Inliner {
  private total = 0;
  private count = 0;
  private readonly cache = new Map<string, Promise<{ bytes: Uint8Array; mime: string } | undefined>>();

  constructor(private readonly read: ThreadFileReader) {}

  file(path: string): Promise<{ bytes: Uint8Array; mime: string } | undefined> {
    let found = this.cache.get(path);
    if (!found) {
      found = this.load(path);
      this.cache.set(path, found);
    }
    return found;
  }

  private async load(path: string): Promise<{ bytes: Uint8Array; mime: string } | undefined> {
    if (this.count >= INLINE_MAX_FILES) return undefined;
    this.count++;
    const file = await this.read(path).catch(() => undefined);
    if (!file || file.bytes.byteLength > INLINE_MAX_FILE_BYTES) return undefined;
    if (this.total + file.bytes.byteLength > INLINE_MAX_TOTAL_BYTES) return undefined;
    this.total += file.bytes.byteLength;
    return { bytes: file.bytes, mime: mimeOf(path, file.mime_type) };
  }

  async text(path: string): Promise<string | undefined> {
    const file = await this.file(path);
    return file && new TextDecoder().decode(file.bytes);
  }

  async dataUrl(path: string): Promise<string | undefined> {
    const file = await this.file(path);
    return file && `data:${file.mime};base64,${toBase64(file.bytes)}`;
  }

  /** CSS with its relative `url(...)`s (fonts, images) as data: URLs; ones it cannot read become `url()`. */
  async css(text: string, from: string): Promise<string> {
    const pattern = /url\(\s*(['"]?)([^'")]+)\1\s*\)/g;
    const replacements = await Promise.all(
      [...text.matchAll(pattern)].map(async (match) => {
        const reference = match[2] ?? "";
        const path = resolveThreadPath(reference, from);
        if (!path) return /^(data|https?|blob):/i.test(reference.trim()) ? match[0] : "url()";
        const url = await this.dataUrl(path);
        return url ? `url("${url}")` : "url()";
      }),
    );
    let index = 0;
    return text.replace(pattern, () => replacements[index++] ?? "url()");
  }
}

/**
 * Runs first in the page: a sandboxed frame without same-origin throws on `localStorage`, `sessionStorage` and
 * `document.cookie`, which many generated pages touch (a theme switch, a saved tab). They get in-memory stand-ins, so
 * the page works for as long as the preview is open and keeps nothing.
 */
const STORAGE_STAND_IN = `(() => {
  const memory = () => {
    let items = new Map();
    return {
      getItem: (key) => (items.has(String(key)) ? items.get(String(key)) : null),
      setItem: (key, value) => void items.set(String(key), String(value)),
      removeItem: (key) => void items.delete(String(key)),
      clear: () => void (items = new Map()),
      key: (index) => [...items.keys()][index] ?? null,
      get length() { return items.size; },
    };
  };
  for (const name of ["localStorage", "sessionStorage"]) {
    try { void window[name]; } catch { Object.defineProperty(window, name, { value: memory(), configurable: true }); }
  }
  try { void document.cookie; } catch {
    let cookies = "";
    Object.defineProperty(document, "cookie", { get: () => cookies, set: (value) => void (cookies = String(value).split(";")[0]), configurable: true });
  }
})();`;

/** What the page's link script posts to Fawn when a link to another of the thread's files is clicked. */
export const OPEN_THREAD_FILE = "fawn:open-thread-file";

/**
 * Runs first in the page, for links (including ones its scripts add later). A sandboxed frame would navigate itself
 * to a web address (many sites refuse to be framed, leaving a broken preview with no way back), and a relative link
 * would ask Fawn's own server for the file. Web and mail links open in a new tab instead (the frame may open
 * windows, which escape the sandbox as ordinary pages); a link to another thread file asks Fawn to preview that file.
 * In-page links (#section) and links the page handles itself (preventDefault) are left to the page.
 */
const LINK_HANDLER = `(() => {
  window.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0) return;
    const link = event.target instanceof Element ? event.target.closest("a[href], area[href]") : null;
    if (!link) return;
    const href = (link.getAttribute("href") || "").trim();
    if (!href || href.startsWith("#") || /^javascript:/i.test(href)) return;
    event.preventDefault();
    if (/^(https?|mailto):/i.test(href) || href.startsWith("//")) {
      window.open(href.startsWith("//") ? "https:" + href : href, "_blank", "noopener,noreferrer");
    } else if (!/^[a-z][a-z0-9+.-]*:/i.test(href)) {
      parent.postMessage({ type: "${OPEN_THREAD_FILE}", href }, "*");
    }
  });
})();`;

/**
 * The thread file a message from a preview's link script asks to open, resolved against the page's own path, or
 * undefined for anything else (other messages, paths outside the thread's files).
 */
export function linkedThreadFile(message: unknown, from: string): string | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const { type, href } = message as { type?: unknown; href?: unknown };
  if (type !== OPEN_THREAD_FILE || typeof href !== "string" || href.length > 4096) return undefined;
  return resolveThreadPath(href, from);
}

/** Takes away a relative reference that cannot be inlined, so the frame never asks Fawn's server for it. */
function dropReference(element: Element, attribute: string, reference: string): void {
  if (/^[a-z][a-z0-9+.-]*:/i.test(reference.trim()) || reference.trim().startsWith("//")) return;
  element.removeAttribute(attribute);
}

/**
 * The page `html` (the thread file at `path`) with its relative stylesheets, scripts, images and media put inline,
 * ready for a sandboxed iframe's `srcdoc`. `parser` parses it into an inert document (the preview frame passes its
 * own, whose policy allows the page's inline handlers).
 */
export async function inlineHtmlArtifact(
  html: string,
  path: string,
  read: ThreadFileReader,
  parser: DOMParser = new DOMParser(),
): Promise<string> {
  const document = parser.parseFromString(html, "text/html");
  const inliner = new Inliner(read);
  const jobs: Promise<void>[] = [];

  for (const link of document.querySelectorAll("link[href]")) {
    const rel = (link.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
    const href = link.getAttribute("href") ?? "";
    const target = resolveThreadPath(href, path);
    if (!target) {
      dropReference(link, "href", href);
      continue;
    }
    if (rel.includes("stylesheet")) {
      jobs.push(
        inliner.text(target).then(async (css) => {
          if (css === undefined) return void link.remove();
          const style = document.createElement("style");
          for (const name of ["media", "title"]) {
            const value = link.getAttribute(name);
            if (value) style.setAttribute(name, value);
          }
          style.textContent = await inliner.css(css, target);
          link.replaceWith(style);
        }),
      );
    } else if (rel.includes("icon")) {
      jobs.push(inliner.dataUrl(target).then((url) => (url ? link.setAttribute("href", url) : link.remove())));
    } else link.remove();
  }

  for (const script of document.querySelectorAll("script[src]")) {
    const src = script.getAttribute("src") ?? "";
    const target = resolveThreadPath(src, path);
    if (!target) {
      dropReference(script, "src", src);
      continue;
    }
    jobs.push(
      inliner.text(target).then((code) => {
        script.removeAttribute("src");
        // `</script` inside the code would end the inline element early.
        script.textContent = code === undefined ? "" : code.replace(/<\/(script)/gi, "<\\/$1");
      }),
    );
  }

  const media = "img[src], source[src], video[src], audio[src], track[src], input[type=image][src], video[poster]";
  for (const element of document.querySelectorAll(media)) {
    for (const attribute of ["src", "poster"]) {
      const reference = element.getAttribute(attribute);
      if (reference === null) continue;
      const target = resolveThreadPath(reference, path);
      if (!target) {
        dropReference(element, attribute, reference);
        continue;
      }
      jobs.push(
        inliner.dataUrl(target).then((url) => {
          if (url) element.setAttribute(attribute, url);
          else element.removeAttribute(attribute);
        }),
      );
    }
    // A srcset would be fetched from Fawn's address; the src above is enough for a preview.
    element.removeAttribute("srcset");
  }

  for (const style of document.querySelectorAll("style")) {
    jobs.push(
      inliner.css(style.textContent ?? "", path).then((css) => {
        style.textContent = css;
      }),
    );
  }

  await Promise.all(jobs);
  const firstScripts = document.querySelector("script") ? [STORAGE_STAND_IN, LINK_HANDLER] : [LINK_HANDLER];
  document.head.prepend(
    ...firstScripts.map((code) => {
      const script = document.createElement("script");
      script.textContent = code;
      return script;
    }),
  );
  const doctype = html.trimStart().toLowerCase().startsWith("<!doctype") ? "<!DOCTYPE html>\n" : "";
  return doctype + document.documentElement.outerHTML;
}
