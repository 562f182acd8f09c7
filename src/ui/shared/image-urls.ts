// The URLs Fawn shows a thread's images and saves its files through. An image of the thread is never a document of
// Fawn's origin, however the user opens it (in the page, "Open image in new tab", a download opened again): an SVG
// can carry script, so it is sanitized (DOMPurify's SVG profile) and shown from a `data:` URL, whose document has an
// opaque origin (and to which Chromium refuses page-initiated top-level navigation); other images come from object
// URLs of their image type, which browsers show as pictures only. A download is an untyped blob, saved, never rendered.
import DOMPurify from "dompurify";
import { toBase64 } from "../../shared/base64.ts";

const SVG_TYPE = "image/svg+xml";
const SVG_NAMESPACE = "http://www.w3.org/2000/svg";

let purifier: ReturnType<typeof DOMPurify> | undefined;

/** Fawn's SVG purifier: an instance of its own, so the Markdown renderer's configuration and hooks never apply here. */
function createPurifier(): ReturnType<typeof DOMPurify> {
  const purify = DOMPurify(window);
  // <use> (which DOMPurify leaves out) draws most generated SVGs' markers and glyphs (matplotlib's); it is kept for
  // references inside the picture only, never to another document.
  purify.addHook("afterSanitizeAttributes", (node) => {
    if (node.localName !== "use") return;
    for (const name of ["href", "xlink:href"]) {
      if (!(node.getAttribute(name) ?? "#").startsWith("#")) node.removeAttribute(name);
    }
  });
  return purify;
}

/**
 * `text` as a standalone SVG document with only DOMPurify's SVG and SVG-filter elements and attributes (and <use>
 * within the picture): no script, no event handler, no foreignObject, no javascript: link. Undefined when it holds no
 * <svg> picture.
 */
export function sanitizeSvg(text: string): string | undefined {
  purifier ??= createPurifier();
  // RETURN_DOM gives the <body> of DOMPurify's own inert document, holding what was kept.
  const body = purifier.sanitize(text, {
    USE_PROFILES: { svg: true, svgFilters: true },
    ADD_TAGS: ["use"],
    RETURN_DOM: true,
  }) as Element;
  const svg = body.querySelector("svg");
  if (!svg || svg.namespaceURI !== SVG_NAMESPACE) return undefined;
  // XML, not HTML, serialization: an image is parsed as XML, where HTML's entities (&nbsp;) are errors.
  return new XMLSerializer().serializeToString(svg);
}

/** The SVG `bytes` sanitized, as a `data:image/svg+xml;base64,…` URL; undefined when they hold no SVG picture. */
export function svgDataUrl(bytes: Uint8Array): string | undefined {
  const svg = sanitizeSvg(new TextDecoder().decode(bytes));
  return svg === undefined ? undefined : `data:${SVG_TYPE};base64,${toBase64(new TextEncoder().encode(svg))}`;
}

/**
 * A URL showing the image `bytes` of `mimeType` (artifact-kinds.ts's type for its extension): an SVG as a sanitized
 * data: URL, any other image as an object URL of that type. Undefined when an SVG holds no picture. Pass the URL to
 * releaseImageUrl when it is no longer shown.
 */
export function imageUrl(bytes: Uint8Array, mimeType: string): string | undefined {
  if (mimeType.toLowerCase() === SVG_TYPE) return svgDataUrl(bytes);
  return URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mimeType }));
}

// Kept in download.ts (no DOMPurify there: saving a file or freeing a picture needs no sanitizer chunk).
export { downloadBlob, releaseImageUrl } from "./download.ts";
