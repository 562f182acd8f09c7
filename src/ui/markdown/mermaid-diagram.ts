// ```mermaid blocks drawn as diagrams. mermaid is large, so it loads on the first finished diagram (its own chunks,
// never the first page load), with the CSS reader that checks its styles (diagram-css.ts). What a diagram's source
// names is model-controlled, and mermaid puts it in a document as it draws (an image node's address in an <image>,
// class styles in a <style>), so:
// - it draws in "sandbox" mode, inside a scratch frame of its own that cannot fetch: the frame's document forbids
//   every load (its own Content-Security-Policy, on top of the page's, which it inherits), and before mermaid touches
//   it, the frame's DOM methods are guarded so an address or a style that would load never reaches an element there
//   (an image's address is kept aside, unloaded); the one picture mermaid loads in the page itself (an image node's,
//   to measure it) is a blank stand-in while it draws;
// - what it drew is sanitized again (diagram-sanitize.ts: DOMPurify, SVG only, every CSS in it read by css-tree)
//   before it enters the page; an image it names is held, without its address, and shown only after "Load image"
//   (the view fetches it and gives it a `blob:`).
import type { Mermaid } from "mermaid";
import {
  attributeVerdict,
  HELD_ATTRIBUTE,
  sanitizeDiagram,
  type CleanDiagram,
  type DiagramCss,
} from "./diagram-sanitize.ts";

interface Drawing {
  mermaid: Mermaid;
  css: DiagramCss;
}

let loading: Promise<Drawing> | undefined;

function loadDrawing(): Promise<Drawing> {
  loading ??= Promise.all([import("mermaid"), import("./diagram-css.ts")]).then(
    ([mermaid, css]) => ({ mermaid: mermaid.default, css }),
    (error: unknown) => {
      loading = undefined; // offline before the chunk was cached: a later diagram tries again
      throw error;
    },
  );
  return loading;
}

// ---- The drawing frame.

/** The drawing frame's own policy: nothing loads in it, whatever the page's allows. */
export const DRAWING_FRAME_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:";

// The page's own DOM methods, never the guarded frame's: judging an element sets what is left of it with these.
const setPlainAttribute = Element.prototype.setAttribute;
const setPlainText = Object.getOwnPropertyDescriptor(Node.prototype, "textContent")!.set!;

/**
 * Judges every attribute and `<style>` in `node` (itself too, when it is an element) by the same rule as the guarded
 * setters: an attribute is kept, cleaned, dropped, or (an image's web address) held in `data-fawn-remote`.
 */
function judgeTree(node: Node, css: DiagramCss): void {
  if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return;
  const parent = node as Element | DocumentFragment;
  const elements = parent.querySelectorAll("*");
  for (const element of node.nodeType === Node.ELEMENT_NODE ? [node as Element, ...elements] : elements) {
    for (const attribute of [...element.attributes]) {
      const verdict = attributeVerdict(element.localName, attribute.name, attribute.value, css);
      if (verdict === "drop") element.removeAttributeNode(attribute);
      else if ("hold" in verdict) {
        element.removeAttributeNode(attribute);
        setPlainAttribute.call(element, HELD_ATTRIBUTE, verdict.hold.href);
      } else if (attribute.value !== verdict.keep) attribute.value = verdict.keep;
    }
    if (element.localName === "style") setPlainText.call(element, css.cleanStylesheet(element.textContent ?? ""));
  }
}

/** `markup` parsed where nothing loads (a document without a window), its attributes and styles judged. */
function inertFragment(context: Element, markup: string, css: DiagramCss): DocumentFragment {
  const inert = document.implementation.createHTMLDocument("");
  const svg = context.namespaceURI === "http://www.w3.org/2000/svg";
  inert.body.innerHTML = svg ? `<svg>${markup}</svg>` : markup;
  const root = svg ? inert.body.firstElementChild! : inert.body;
  judgeTree(root, css);
  const fragment = inert.createDocumentFragment();
  fragment.append(...root.childNodes);
  return fragment;
}

type FrameWindow = Window & typeof globalThis;

/**
 * Makes the scratch frame mermaid's sandbox mode draws in unable to load anything, before mermaid touches it: its
 * document gets a policy that forbids every load, and the frame's own DOM methods (which mermaid's drawing calls, as
 * it makes its elements from the frame's document) judge what is set: `setAttribute`, `setAttributeNS`, `innerHTML`,
 * `insertAdjacentHTML`, `outerHTML`, a `<style>`'s text and `style.setProperty`. An image's web address goes into
 * `data-fawn-remote`, which loads nothing. Whatever enters the frame's tree (appendChild, insertBefore, append,
 * before…) is judged whole as it enters: roughjs, which draws mermaid's class boxes, makes its shapes in the page's
 * document with the page's own `setAttribute`, and a `fill: url(…)` on one would load the moment the frame styles it.
 */
export function guardFrame(frame: HTMLIFrameElement, css: DiagramCss): void {
  const win = frame.contentWindow as FrameWindow | null;
  const doc = frame.contentDocument;
  if (!win || !doc) throw new Error("the diagram's drawing frame could not be reached");
  const policy = doc.createElement("meta");
  policy.httpEquiv = "Content-Security-Policy";
  policy.content = DRAWING_FRAME_CSP;
  (doc.head ?? doc.documentElement).prepend(policy);

  guardedDocuments.add(doc);
  guardRealm(win, css, () => true);
}

/** The drawing frames' documents: the page's own DOM methods judge what is set on a node of theirs, while drawing. */
const guardedDocuments = new WeakSet<Document>();

/**
 * Replaces the DOM methods of `win`'s realm that set attributes, markup, style text and CSS properties, or insert
 * nodes, by ones that judge what they set (see guardFrame) on the nodes `judged` picks; others get the original.
 * Returns what puts the originals back.
 */
function guardRealm(win: FrameWindow, css: DiagramCss, judged: (node: Node) => boolean): () => void {
  const undo: (() => void)[] = [];
  type Method = (this: Node, ...args: unknown[]) => unknown;
  const replace = (prototype: object, name: string, guarded: (original: Method) => Method, setter = false) => {
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
    const original = (setter ? descriptor?.set : descriptor?.value) as Method | undefined;
    if (!descriptor || typeof original !== "function") return;
    const replacement = guarded(original);
    const value = function (this: Node, ...args: unknown[]): unknown {
      return (judged(this) ? replacement : original).apply(this, args);
    };
    Object.defineProperty(prototype, name, setter ? { ...descriptor, set: value } : { ...descriptor, value });
    undo.push(() => Object.defineProperty(prototype, name, descriptor));
  };

  const element = win.Element.prototype;
  const setAttribute = element.setAttribute;
  const apply = (target: Element, name: string, value: unknown, set: (name: string, value: string) => void) => {
    const verdict = attributeVerdict(target.localName, name, String(value), css);
    if (verdict === "drop") return;
    if ("hold" in verdict) setAttribute.call(target, HELD_ATTRIBUTE, verdict.hold.href);
    else set(name, verdict.keep);
  };
  replace(
    element,
    "setAttribute",
    (original) =>
      function (this: Node, name: unknown, value: unknown) {
        apply(this as Element, String(name), value, (n, v) => original.call(this, n, v));
      },
  );
  replace(
    element,
    "setAttributeNS",
    (original) =>
      function (this: Node, namespace: unknown, name: unknown, value: unknown) {
        apply(this as Element, String(name), value, (n, v) => original.call(this, namespace, n, v));
      },
  );
  replace(
    element,
    "innerHTML",
    () =>
      function (this: Node, markup: unknown) {
        (this as Element).replaceChildren(inertFragment(this as Element, String(markup ?? ""), css));
      },
    true,
  );
  replace(
    element,
    "outerHTML",
    () =>
      function (this: Node, markup: unknown) {
        const target = this as Element;
        target.replaceWith(inertFragment(target.parentElement ?? target, String(markup ?? ""), css));
      },
    true,
  );
  replace(
    element,
    "insertAdjacentHTML",
    (original) =>
      function (this: Node, position: unknown, markup: unknown) {
        const target = this as Element;
        const where = String(position).toLowerCase();
        const inside = where === "afterbegin" || where === "beforeend";
        const fragment = inertFragment(inside ? target : (target.parentElement ?? target), String(markup ?? ""), css);
        if (where === "beforebegin") target.before(fragment);
        else if (where === "afterbegin") target.prepend(fragment);
        else if (where === "beforeend") target.append(fragment);
        else if (where === "afterend") target.after(fragment);
        else original.call(this, position, ""); // the browser's own error for a position that is not one
      },
  );
  replace(
    win.Node.prototype,
    "textContent",
    (original) =>
      function (this: Node, value: unknown) {
        const style = this.nodeName.toLowerCase() === "style";
        original.call(this, style ? css.cleanStylesheet(String(value ?? "")) : value);
      },
    true,
  );

  // Insertions: each node that enters is judged whole first (it may come from the page's document, set with unguarded
  // methods), and text that enters a <style> (a text node, a string) leaves that sheet cleaned again.
  const isNode = (value: unknown): value is Node =>
    typeof value === "object" && value !== null && typeof (value as Node).nodeType === "number";
  const recleanStyle = (target: Node | null) => {
    const start = target?.nodeType === Node.ELEMENT_NODE ? (target as Element) : target?.parentElement;
    const sheet = start?.closest("style");
    if (sheet) setPlainText.call(sheet, css.cleanStylesheet(sheet.textContent ?? ""));
  };
  const insertion = (original: Method) =>
    function (this: Node, ...args: unknown[]): unknown {
      for (const arg of args) if (isNode(arg)) judgeTree(arg, css);
      const result = original.apply(this, args);
      recleanStyle(this);
      recleanStyle(this.parentNode);
      return result;
    };
  for (const name of ["appendChild", "insertBefore", "replaceChild"]) replace(win.Node.prototype, name, insertion);
  for (const prototype of [element, win.CharacterData.prototype])
    for (const name of ["before", "after", "replaceWith"]) replace(prototype, name, insertion);
  for (const prototype of [element, win.DocumentFragment.prototype, win.Document.prototype])
    for (const name of ["append", "prepend", "replaceChildren"]) replace(prototype, name, insertion);
  replace(element, "insertAdjacentElement", insertion);
  replace(element, "insertAdjacentText", insertion);

  const declaration = win.CSSStyleDeclaration.prototype;
  const setProperty = Object.getOwnPropertyDescriptor(declaration, "setProperty")!;
  const guardedSetProperty = function (this: CSSStyleDeclaration, property: string, value: unknown, priority?: string) {
    if (value == null || css.valueLoadsNothing(String(value)))
      (setProperty.value as CSSStyleDeclaration["setProperty"]).call(this, property, value as string | null, priority);
  };
  // A declaration does not say whose it is: in the frame every one is judged; in the page none is (mermaid sets
  // none there).
  if (judged(win.document)) {
    Object.defineProperty(declaration, "setProperty", { ...setProperty, value: guardedSetProperty });
    undo.push(() => Object.defineProperty(declaration, "setProperty", setProperty));
  }
  return () => {
    for (const restore of undo.reverse()) restore();
  };
}

let pageGuards = 0;
let unguardPage: (() => void) | undefined;

/**
 * While mermaid draws, the page's own DOM methods judge what is set on a node in a drawing frame: roughjs makes its
 * shapes in the page's document, and mermaid goes on setting their styles (with the page's `setAttribute`, which a
 * node keeps when it moves) once they are in the frame. Every other node gets the original methods.
 */
export function guardPage(css: DiagramCss): () => void {
  if (pageGuards++ === 0)
    unguardPage = guardRealm(
      window as FrameWindow,
      css,
      (node) => node != null && guardedDocuments.has(node.ownerDocument ?? (node as Document)),
    );
  return () => {
    if (--pageGuards === 0) {
      unguardPage?.();
      unguardPage = undefined;
    }
  };
}

/**
 * An element out of sight where mermaid makes its frame: laid out (mermaid measures text and shapes), never seen. Each
 * frame it adds is guarded the moment it is added, before mermaid draws in it.
 */
function drawingHost(css: DiagramCss): HTMLDivElement {
  const host = document.createElement("div");
  host.className = "mermaid-drawing-host";
  host.setAttribute("aria-hidden", "true");
  host.style.cssText =
    "position:fixed;left:-20000px;top:0;width:1200px;height:900px;visibility:hidden;pointer-events:none;overflow:hidden";
  const appendChild = host.appendChild.bind(host);
  host.appendChild = <T extends Node>(child: T): T => {
    const added = appendChild(child);
    if (child instanceof HTMLIFrameElement) guardFrame(child, css);
    return added;
  };
  document.body.append(host);
  return host;
}

/** What an image node's picture is measured as while mermaid draws: a blank 100×100 square, no request. */
const STAND_IN_PICTURE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='100' height='100'/%3E";

let standIns = 0;
let pageImage: typeof Image | undefined;

/**
 * While mermaid draws, `new Image()` in the page makes a picture that loads only STAND_IN_PICTURE, whatever address
 * it is given: mermaid's image node loads its picture in the page (not in its frame) to measure it before drawing.
 * Nothing else in Fawn makes images this way; the page's own constructor is back as soon as no drawing is under way.
 */
function standInImages(): () => void {
  if (standIns++ === 0) {
    pageImage = globalThis.Image;
    const original = pageImage;
    const source = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src")!;
    globalThis.Image = function StandInImage(width?: number, height?: number) {
      const image = new original(width, height);
      Object.defineProperty(image, "src", {
        configurable: true,
        get: () => source.get!.call(image) as string,
        set: () => source.set!.call(image, STAND_IN_PICTURE),
      });
      Object.defineProperty(image, "srcset", { configurable: true, get: () => "", set: () => {} });
      return image;
    } as unknown as typeof Image;
  }
  return () => {
    if (--standIns === 0 && pageImage) globalThis.Image = pageImage;
  };
}

/** The SVG markup inside the `<iframe src="data:text/html;base64,…">` that mermaid's sandbox mode returns. */
function drawnMarkup(result: string): string {
  const source = new DOMParser().parseFromString(result, "text/html").querySelector("iframe")?.getAttribute("src");
  const base64 = /^data:text\/html;charset=UTF-8;base64,(.*)$/is.exec(source ?? "")?.[1];
  if (base64 === undefined) throw new Error("mermaid returned no drawing");
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
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

/** The outcome of drawing a diagram: its sanitized SVG and held images, or the one-line reason it was not drawn. */
export type DiagramOutcome = CleanDiagram | { error: string };

/** Draws mermaid `source` in the light or dark palette. Never rejects: a diagram that does not parse is an error. */
export async function drawDiagram(source: string, dark: boolean): Promise<DiagramOutcome> {
  const id = `fawn-mermaid-${++nextId}`;
  let host: HTMLDivElement | undefined;
  try {
    const { mermaid, css } = await loadDrawing();
    mermaid.initialize({
      startOnLoad: false,
      // In a frame of its own (guarded above); no click callbacks, labels escaped, as in "strict".
      securityLevel: "sandbox",
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
    host = drawingHost(css);
    const restore = standInImages();
    const unguard = guardPage(css);
    let svg: string;
    try {
      ({ svg } = await mermaid.render(id, source, host));
    } finally {
      unguard();
      restore();
    }
    const clean = sanitizeDiagram(drawnMarkup(svg), css);
    return clean ?? { error: "the diagram was empty" };
  } catch (error) {
    return { error: oneLine(error) };
  } finally {
    host?.remove();
  }
}

/** Whether the page shows the dark palette now (Settings → Appearance, or the system's when "System"). */
export function darkPalette(): boolean {
  const choice = document.documentElement.dataset.theme;
  if (choice === "dark") return true;
  if (choice === "light") return false;
  return globalThis.matchMedia?.("(prefers-color-scheme: dark)").matches ?? false;
}
