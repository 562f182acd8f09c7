// Model text's rendered HTML made safe, and finished for Fawn: DOMPurify with Fawn's allow-lists, then links that
// name where they lead, images that never fetch by themselves (a web image waits for a click, see remote-images.ts;
// a thread file is marked for the view, see thread-file-references.ts) and code blocks wrapped for their toolbar.
// What it returns runs nothing and fetches nothing, carries no style and reaches into nothing of the app.
import DOMPurify from "dompurify";
import { wrapCodeBlock } from "./code-tools.ts";
import { REMOTE_IMAGE_ALT_ATTRIBUTE, REMOTE_IMAGE_ATTRIBUTE } from "./remote-images.ts";
import { isLocalReference, THREAD_FILE_ATTRIBUTE } from "./thread-file-references.ts";

/**
 * What model text may hold. Nothing it renders may run script or fetch anything without a click: tags that load
 * media, frames, forms and controls are removed (their text stays), so are attributes that fetch (`srcset`,
 * `poster`, `background`), style (CSS can fetch `url()`s and lay a link over the whole app), and ones that reach
 * into the app (popover and command targets, ARIA names and roles, `data-*`, which Fawn's own markers use). `id` and
 * `name` get a prefix, so they cannot clobber globals (`window.gateway`, `document.cookie`). An <img> keeps its
 * `src` only as a `data:image/…` picture: see `decorate`, which runs on the sanitized result.
 */
export const PURIFY_OPTIONS = {
  // MathML for KaTeX; DOMPurify still removes scripts, handlers and namespace tricks inside it. No SVG.
  USE_PROFILES: { html: true, mathMl: true },
  FORBID_TAGS: [
    "style",
    "form",
    "input",
    "button",
    "select",
    "option",
    "optgroup",
    "datalist",
    "textarea",
    "fieldset",
    "dialog",
    "template",
    "slot",
    "audio",
    "video",
    "source",
    "track",
    "picture",
    "map",
    "area",
  ],
  FORBID_ATTR: [
    "style",
    "srcset",
    "sizes",
    "poster",
    "background",
    "action",
    "usemap",
    "popover",
    "popovertarget",
    "popovertargetaction",
    "command",
    "commandfor",
    "nonce",
    "role",
  ],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  SANITIZE_NAMED_PROPS: true,
  // KaTeX wraps its MathML in <semantics> with the TeX source in an <annotation>, both of which DOMPurify refuses:
  // the <semantics> wrapper is unwrapped, and the annotation dropped with its text so the TeX does not show.
  ADD_FORBID_CONTENTS: ["annotation"],
};

/**
 * The classes model text may use: those of highlighted code, KaTeX and cited sources. Any other class could borrow
 * the app's own layout (a fixed, full-window backdrop) to cover the app.
 */
const ALLOWED_CLASS = /^(?:hljs(?:-[\w-]+)?|language-[\w+#.-]+|katex(?:-[\w-]+)?|citation|mermaid-source)$/;

let purifier: ReturnType<typeof DOMPurify> | undefined;

/** Fawn's own DOMPurify, configured once: per-call options would rebuild its allow-lists for every block. */
function createPurifier(): ReturnType<typeof DOMPurify> {
  const purify = DOMPurify(window);
  // In place, in Fawn's inert document (see `sanitize`): DOMPurify would otherwise parse each block into a new
  // document of its own, the larger part of a streamed update's script.
  purify.setConfig({ ...PURIFY_OPTIONS, IN_PLACE: true });
  purify.addHook("uponSanitizeAttribute", (_node, data) => {
    if (data.attrName !== "class") return;
    data.attrValue = data.attrValue
      .split(/\s+/)
      .filter((name) => ALLOWED_CLASS.test(name))
      .join(" ");
    if (data.attrValue === "") data.keepAttr = false;
  });
  return purify;
}

/** A picture in the page itself: no request, no script (an SVG shown by <img> runs none and loads nothing). */
const DATA_IMAGE = /^data:image\/(?:png|gif|jpe?g|webp|avif|bmp|x-icon|svg\+xml)[;,]/i;

/** The page's address, which relative references resolve against; undefined where there is none (tests). */
function pageUrl(): URL | undefined {
  try {
    return new URL(window.location.href);
  } catch {
    return undefined;
  }
}

/**
 * Where `reference` (a link's href, an image's src) leads: "local" when it may name a thread file or a place in the
 * page (resolved against Fawn's own origin, so never fetched from the network by the view), the URL when it leads
 * elsewhere, undefined when it is not an address at all. `\\host/x` or `ht<TAB>tp://host` lead elsewhere, as the
 * browser would read them.
 */
function destination(reference: string): "local" | URL | undefined {
  const trimmed = reference.trim();
  if (trimmed === "") return undefined;
  if (trimmed.startsWith("#")) return "local";
  const page = pageUrl();
  let url: URL;
  try {
    url = new URL(trimmed, page);
  } catch {
    return isLocalReference(trimmed) ? "local" : undefined;
  }
  return isLocalReference(trimmed) && (!page || url.origin === page.origin) ? "local" : url;
}

/** How a link's destination is named next to it: its host for a web address, else the address (shortened). */
function destinationLabel(url: URL): string {
  if (url.protocol === "http:" || url.protocol === "https:") return url.host;
  const address = url.href;
  return address.length > 60 ? `${address.slice(0, 59)}…` : address;
}

/** Whether a link's visible `text` names `url`'s real host, so showing the host again would add nothing. */
function textNamesHost(text: string, url: URL): boolean {
  const shown = text.trim().toLowerCase();
  // Only printable ASCII vouches: a space, an invisible or a right-to-left character, or a look-alike letter does not.
  if (shown === "" || /[^\x21-\x7e]/.test(shown)) return false;
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return shown === url.href.toLowerCase() || shown === decodeURIComponent(url.pathname).toLowerCase();
  }
  const bare = shown.replace(/^https?:\/\//, "").replace(/^www\./, "");
  const end = bare.search(/[/?#]/);
  return (end < 0 ? bare : bare.slice(0, end)) === url.host.replace(/^www\./, "");
}

/** Opens outside the app, unable to reach back into it; shows where it leads when its text does not. */
function decorateLink(link: HTMLAnchorElement): void {
  const href = link.getAttribute("href");
  if (href === null) return;
  link.setAttribute("target", "_blank");
  link.setAttribute("rel", "noopener noreferrer nofollow");
  const target = destination(href);
  if (target === undefined) {
    link.removeAttribute("href");
    return;
  }
  // A link that may name a thread file is marked for the view, which opens the file's preview instead.
  if (target === "local") {
    if (isLocalReference(href)) link.setAttribute(THREAD_FILE_ATTRIBUTE, href);
    return;
  }
  const label = destinationLabel(target);
  // A cited source's name: its title and the site it really is on.
  if (link.classList.contains("citation")) {
    const title = link.getAttribute("title");
    link.setAttribute("aria-label", title ? `${title} (${target.hostname.replace(/^www\./, "")})` : label);
  }
  if (textNamesHost(link.textContent ?? "", target)) return;
  const title = link.getAttribute("title");
  link.setAttribute("title", title ? `${title} (${label})` : label);
  const host = link.ownerDocument.createElement("span");
  host.className = "link-host";
  host.textContent = `(${label})`;
  link.after(host);
}

/** The last segment of an address's path, which names an image the model gave no alternative text. */
function fileNameOf(reference: string): string {
  const name = (reference.split(/[?#]/)[0] ?? "").split(/[/\\]/).pop() ?? "";
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * An image never fetches on its own. A data: picture keeps its `src`; one that may be a thread file gets its
 * reference in `data-fawn-file` for the view to read from the thread; a web image becomes an empty placeholder
 * holding its address in `data-fawn-remote`, where the view offers "Load image"; anything else loses its `src`.
 */
function decorateImage(image: HTMLImageElement): void {
  const src = (image.getAttribute("src") ?? "").trim();
  // Every picture shown has a text alternative: one the model gave none is named by its file (or is decorative).
  const named = !image.hasAttribute("alt");
  if (named) image.setAttribute("alt", DATA_IMAGE.test(src) ? "" : fileNameOf(src));
  if (DATA_IMAGE.test(src)) return;
  image.removeAttribute("src");
  const target = destination(src);
  if (target === "local") image.setAttribute(THREAD_FILE_ATTRIBUTE, src);
  if (!(target instanceof URL) || (target.protocol !== "http:" && target.protocol !== "https:")) return;
  const placeholder = image.ownerDocument.createElement("span");
  placeholder.className = "remote-image";
  placeholder.setAttribute(REMOTE_IMAGE_ATTRIBUTE, target.href);
  const alt = image.getAttribute("alt");
  if (alt && !named) placeholder.setAttribute(REMOTE_IMAGE_ALT_ATTRIBUTE, alt);
  image.replaceWith(placeholder);
}

const HTML_NAMESPACE = "http://www.w3.org/1999/xhtml";

/** Every element under `root`, in document order (a plain walk: jsdom's selector engine is slow per document). */
function elementsOf(root: ParentNode): Element[] {
  const found: Element[] = [];
  const visit = (parent: ParentNode) => {
    for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
      found.push(child);
      visit(child);
    }
  };
  visit(root);
  return found;
}

/**
 * Fawn's finishing of sanitized markup: links and images as above, each code block wrapped with its toolbar
 * placeholder (code-tools.ts), and no address left on anything else (MathML's `href`, a stray `xlink:href`), which
 * nothing in a reply needs.
 */
function decorate(root: ParentNode): void {
  for (const element of elementsOf(root)) {
    const html = element.namespaceURI === HTML_NAMESPACE;
    if (html && element.localName === "a") decorateLink(element as HTMLAnchorElement);
    else if (html && element.localName === "img") decorateImage(element as HTMLImageElement);
    else if (html && element.localName === "pre") wrapCodeBlock(element);
    else {
      for (const attribute of [...element.attributes]) {
        if (attribute.localName === "href") element.removeAttributeNode(attribute);
      }
    }
  }
}

/**
 * Sanitized, finished nodes for `html` (marked's) in a document of their own: the page shows copies of them, so the
 * markup is parsed once and never serialized and parsed again on its way to the page. The document has no window,
 * so nothing in it loads (images, frames) or runs (handlers, scripts), like the one DOMPurify would parse into by
 * itself; a new one each time (creating it takes microseconds) keeps one document from collecting the node
 * iterators of every sanitized block, which each later removal of a node would walk.
 */
export function sanitize(html: string): DocumentFragment {
  purifier ??= createPurifier();
  const inertDocument = document.implementation.createHTMLDocument("");
  const holder = inertDocument.createElement("div");
  holder.innerHTML = html;
  purifier.sanitize(holder);
  decorate(holder);
  const fragment = inertDocument.createDocumentFragment();
  fragment.append(...holder.childNodes);
  return fragment;
}
