// A diagram's SVG sanitized before it enters the page (mermaid-diagram.ts draws it): DOMPurify with SVG only, every
// attribute judged by one rule (kept, cleaned, dropped, or an image's web address held until "Load image"), and
// every CSS in it read by css-tree (diagram-css.ts) so that nothing in it runs or fetches. The same rule guards the
// drawing frame's DOM while mermaid draws.
import DOMPurify from "dompurify";
import type * as DiagramCssModule from "./diagram-css.ts";
import { remoteImageUrl } from "./remote-images.ts";

/** The CSS reader, loaded with mermaid. */
export type DiagramCss = typeof DiagramCssModule;

/**
 * What a diagram's SVG may hold: SVG shapes, text, markers, images (held, see below) and mermaid's own `<style>`
 * (scoped to the diagram's id), nothing that runs (scripts, `on*` handlers, foreignObject's HTML) or fetches (an
 * address that is not `#` inside the diagram, CSS that loads anything).
 */
export const DIAGRAM_PURIFY_OPTIONS = {
  USE_PROFILES: { svg: true, svgFilters: true },
  FORBID_TAGS: ["script", "foreignObject", "feImage", "iframe", "embed", "object"],
  ALLOW_DATA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};

/** A picture carried in the diagram itself (C4's person icon): no request, no script. */
const DATA_IMAGE = /^data:image\/(?:png|gif|jpe?g|webp|avif|bmp|svg\+xml)[;,]/i;

/** Attributes that hold an address. */
const ADDRESS_ATTRIBUTES = new Set(["href", "src", "srcset", "poster", "background", "action", "formaction", "data"]);

/** Presentation attributes whose CSS value may hold a `url()`. */
const CSS_VALUE_ATTRIBUTES = new Set([
  "fill",
  "stroke",
  "filter",
  "mask",
  "clip-path",
  "marker",
  "marker-start",
  "marker-mid",
  "marker-end",
  "cursor",
]);

/** Where the guarded drawing frame keeps an image's address, in place of `href`: nothing reads it to load. */
export const HELD_ATTRIBUTE = "data-fawn-remote";

/** What becomes of an attribute: kept (its value perhaps cleaned), held (an image's web address), or dropped. */
export type Verdict = { keep: string } | { hold: URL } | "drop";

/** The one rule for every attribute, in the drawing frame and in the final sanitizing alike. */
export function attributeVerdict(element: string, attribute: string, value: string, css: DiagramCss): Verdict {
  const name = attribute.toLowerCase();
  const local = name.slice(name.indexOf(":") + 1);
  const image = element.toLowerCase() === "image" || element.toLowerCase() === "img";
  if (ADDRESS_ATTRIBUTES.has(local) || name === HELD_ATTRIBUTE) {
    const address = value.trim();
    if (name !== HELD_ATTRIBUTE && local !== "srcset" && address.startsWith("#")) return { keep: address };
    if (image && DATA_IMAGE.test(address) && name !== HELD_ATTRIBUTE) return { keep: address };
    const named = local === "href" || local === "src" || name === HELD_ATTRIBUTE;
    const url = image && named ? remoteImageUrl(address) : undefined;
    return url ? { hold: url } : "drop";
  }
  if (name === "style") {
    const clean = css.cleanDeclarations(value);
    return clean ? { keep: clean } : "drop";
  }
  if (CSS_VALUE_ATTRIBUTES.has(name) && /[(\\]/.test(value))
    return css.valueLoadsNothing(value) ? { keep: value } : "drop";
  return { keep: value };
}

/** A web image the diagram names, held until the user allows it: its `<image>` (no address) and the address. */
export interface HeldImage {
  element: SVGImageElement;
  url: URL;
}

let purifier: ReturnType<typeof DOMPurify> | undefined;
/** The images held by the sanitize call under way. */
let held: { node: Element; url: URL }[] = [];

function createPurifier(css: DiagramCss): ReturnType<typeof DOMPurify> {
  const purify = DOMPurify(window);
  purify.setConfig(DIAGRAM_PURIFY_OPTIONS);
  purify.addHook("uponSanitizeAttribute", (node, data) => {
    const verdict = attributeVerdict(node.nodeName, data.attrName, data.attrValue, css);
    if (verdict === "drop") data.keepAttr = false;
    else if ("hold" in verdict) {
      held.push({ node, url: verdict.hold });
      data.keepAttr = false;
    } else data.attrValue = verdict.keep;
  });
  purify.addHook("afterSanitizeElements", (node) => {
    if (node.nodeName.toLowerCase() === "style") node.textContent = css.cleanStylesheet(node.textContent ?? "");
  });
  return purify;
}

/** What is left of a diagram's SVG after sanitizing: the `<svg>`, and the web images it holds. */
export interface CleanDiagram {
  svg: SVGSVGElement;
  images: HeldImage[];
}

/** The `<svg>` in `markup` (what mermaid drew), sanitized as above; undefined when nothing safe is left. */
export function sanitizeDiagram(markup: string, css: DiagramCss): CleanDiagram | undefined {
  purifier ??= createPurifier(css);
  held = [];
  try {
    const fragment = purifier.sanitize(markup) as unknown as DocumentFragment | null;
    const svg = fragment?.firstElementChild;
    if (!svg || svg.localName !== "svg") return undefined;
    const images = held
      .filter(({ node }) => node.localName === "image" && svg.contains(node))
      .map(({ node, url }) => ({ element: node as SVGImageElement, url }));
    return { svg: svg as SVGSVGElement, images };
  } finally {
    held = [];
  }
}
