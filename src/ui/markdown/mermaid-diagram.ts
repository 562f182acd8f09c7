// ```mermaid blocks drawn as diagrams. mermaid is large, so it loads on the first finished diagram (its own chunks,
// never the first page load); it runs with securityLevel "strict" (no click callbacks, labels escaped), and what it
// draws is model-controlled, so its SVG is sanitized again here (DOMPurify, SVG only) before it enters the page.
import DOMPurify from "dompurify";
import type { Mermaid } from "mermaid";

type MermaidApi = Mermaid;

let loading: Promise<MermaidApi> | undefined;

function loadMermaid(): Promise<MermaidApi> {
  loading ??= import("mermaid").then(
    (module) => module.default,
    (error: unknown) => {
      loading = undefined; // offline before the chunk was cached: a later diagram tries again
      throw error;
    },
  );
  return loading;
}

/**
 * What a diagram's SVG may hold: SVG shapes, text, markers and mermaid's own `<style>` (scoped to the diagram's id),
 * nothing that runs (scripts, `on*` handlers, foreignObject's HTML) or fetches (an address that is not `#` inside the
 * diagram, `url()`s and `@import`s to the web, `<image>`).
 */
export const DIAGRAM_PURIFY_OPTIONS = {
  USE_PROFILES: { svg: true, svgFilters: true },
  FORBID_TAGS: ["script", "foreignObject", "image", "feImage", "iframe", "embed", "object"],
  ALLOW_DATA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};

/** A `url(` leading anywhere but to a `#fragment` of the diagram, or an `@import`. */
const EXTERNAL_CSS = /url\(\s*(?!['"]?\s*#)[^)]*\)|@import[^;]*;?/gi;

let purifier: ReturnType<typeof DOMPurify> | undefined;

function createPurifier(): ReturnType<typeof DOMPurify> {
  const purify = DOMPurify(window);
  purify.setConfig(DIAGRAM_PURIFY_OPTIONS);
  purify.addHook("uponSanitizeAttribute", (_node, data) => {
    const name = data.attrName.toLowerCase();
    if (name === "href" || name === "xlink:href" || name === "src") {
      if (!data.attrValue.trim().startsWith("#")) data.keepAttr = false;
    } else if (data.attrValue.replace(EXTERNAL_CSS, "") !== data.attrValue) {
      data.keepAttr = false;
    }
  });
  purify.addHook("afterSanitizeElements", (node) => {
    if (node.nodeName.toLowerCase() === "style" && node.textContent) {
      node.textContent = node.textContent.replace(EXTERNAL_CSS, "none");
    }
  });
  return purify;
}

/** The `<svg>` in `markup` (what mermaid drew), sanitized as above; undefined when nothing safe is left. */
export function sanitizeDiagram(markup: string): SVGSVGElement | undefined {
  purifier ??= createPurifier();
  const fragment = purifier.sanitize(markup) as unknown as DocumentFragment | null;
  const svg = fragment?.firstElementChild;
  return svg && svg.localName === "svg" ? (svg as SVGSVGElement) : undefined;
}

let nextId = 0;

/** The first line of what went wrong, short enough for one line under the source. */
function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line =
    text
      .split("\n")
      .find((part) => part.trim() !== "")
      ?.trim() ?? "unknown error";
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/** The outcome of drawing a diagram: its sanitized SVG, or the one-line reason it could not be drawn. */
export type DiagramOutcome = { svg: SVGSVGElement } | { error: string };

/** Draws mermaid `source` in the light or dark palette. Never rejects: a diagram that does not parse is an error. */
export async function drawDiagram(source: string, dark: boolean): Promise<DiagramOutcome> {
  const id = `fawn-mermaid-${++nextId}`;
  try {
    const mermaid = await loadMermaid();
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: "strict",
      theme: dark ? "dark" : "default",
      // SVG text, not HTML in a foreignObject: the sanitizer keeps no HTML inside an SVG.
      htmlLabels: false,
      suppressErrorRendering: true,
      // A diagram's own `%%{init}%%` or front matter may not restyle it (theme CSS, fonts, palette) nor lift the
      // settings above: model text chooses none of these.
      secure: [
        "secure",
        "securityLevel",
        "startOnLoad",
        "maxTextSize",
        "maxEdges",
        "suppressErrorRendering",
        "htmlLabels",
        "theme",
        "themeCSS",
        "themeVariables",
        "fontFamily",
        "altFontFamily",
        "darkMode",
      ],
    });
    const { svg } = await mermaid.render(id, source);
    const clean = sanitizeDiagram(svg);
    return clean ? { svg: clean } : { error: "the diagram was empty" };
  } catch (error) {
    return { error: oneLine(error) };
  } finally {
    // mermaid draws in a scratch element of its own; one left behind by a failure must not stay in the page.
    document.getElementById(`d${id}`)?.remove();
  }
}

/** Whether the page shows the dark palette now (Settings → Appearance, or the system's when "System"). */
export function darkPalette(): boolean {
  const choice = document.documentElement.dataset.theme;
  if (choice === "dark") return true;
  if (choice === "light") return false;
  return globalThis.matchMedia?.("(prefers-color-scheme: dark)").matches ?? false;
}
