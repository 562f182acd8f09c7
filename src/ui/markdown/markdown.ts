// Markdown to safe HTML: GFM through marked, always sanitized by DOMPurify before it reaches the DOM. Rendered block
// by block (marked's top-level tokens), so a streaming message re-renders only its last, still-growing block. Code is
// highlighted by highlight.js and math typeset by KaTeX (as MathML: no fonts or CSS), both loaded on first use.
// Model text is untrusted: what it renders runs nothing and fetches nothing by itself (a web image waits for a click,
// see remote-images.ts), carries no style, and a link whose text is not its host shows the host beside it.
import DOMPurify from "dompurify";
import type { HLJSApi } from "highlight.js";
import { Marked, type Token, type Tokens } from "marked";
import type { CodeLanguage } from "../shared/artifact-kinds.ts";
import { fenceLanguage, loadHighlighter } from "./code-highlighter.ts";
import { MERMAID_SOURCE_CLASS, wrapCodeBlock } from "./code-tools.ts";
import { REMOTE_IMAGE_ALT_ATTRIBUTE, REMOTE_IMAGE_ATTRIBUTE } from "./remote-images.ts";
import { isLocalReference, THREAD_FILE_ATTRIBUTE } from "./thread-file-references.ts";

const marked = new Marked({ gfm: true, breaks: false, async: false });

/** Longer code blocks stay plain: highlighting them would hold the page for more than a frame or two. */
export const MESSAGE_HIGHLIGHT_MAX_CHARS = 20_000;

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
function sanitize(html: string): DocumentFragment {
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

// ---- Lazily loaded features: code grammars and math. Loading one changes how Markdown renders, so listeners hear.

let hljs: HLJSApi | undefined;
const languages = new Map<CodeLanguage, "loading" | "ready" | "failed">();
let math: "absent" | "loading" | "ready" | "failed" = "absent";
let featureVersion = 0;
const listeners = new Set<() => void>();
const loading = new Set<Promise<void>>();

function featuresChanged(): void {
  featureVersion++;
  for (const listener of listeners) listener();
}

function track(load: Promise<void>): void {
  loading.add(load);
  void load.finally(() => loading.delete(load));
}

/** Called when a lazily loaded grammar or KaTeX arrives, so views re-render what it changes. */
export function onMarkdownFeatures(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Resolves once every grammar and math load started so far has finished (for tests and screenshots). */
export async function markdownFeaturesSettled(): Promise<void> {
  while (loading.size > 0) await Promise.allSettled([...loading]);
}

/** What the block being rendered asked for that is not loaded yet. */
let wanted: { languages: CodeLanguage[] } | undefined;

function requestLanguage(language: CodeLanguage): void {
  wanted?.languages.push(language);
  if (languages.has(language)) return;
  languages.set(language, "loading");
  track(
    loadHighlighter(language).then(
      (loaded) => {
        hljs = loaded;
        languages.set(language, "ready");
        featuresChanged();
      },
      // Without its grammar (offline before it was ever cached) the code stays plain; a later render tries again.
      () => void languages.delete(language),
    ),
  );
}

/**
 * Inline math as Pandoc reads it, stricter than marked-katex-extension's own rule so money stays text: the opening
 * `$` (or `$$`) has a non-space after it, the closing one a non-space before it and no digit after it, and there is
 * no `$` between them. "$5 and $10" is text; "$x$", "$E = mc^2$" and "($a+b$)" are math.
 */
const INLINE_MATH =
  /^(\${1,2})(?!\$)((?:\\.|[^\\\n$])*?(?:\\.|[^\\\s$]))\1(?![\d$])(?=[\s?!.,:;？！。，：)\]}"'*_~|]|$)/;
/** Where inline math may start: at the start of the text or after a space or an opening bracket or quote. */
const INLINE_MATH_START = /(?:^|[\s([{"'*_~|])\$/g;
/** marked-katex-extension's display rule: `$$` alone on a line, the formula, `$$` alone on a line. */
const BLOCK_MATH = /^\$\$?\n[\s\S]+?\n\$\$?$/m;

function inlineMathStart(source: string): number | undefined {
  for (const match of source.matchAll(INLINE_MATH_START)) {
    const index = match.index + match[0].length - 1;
    if (INLINE_MATH.test(source.slice(index))) return index;
  }
  return undefined;
}

/** Whether `source` may hold math (a false alarm only costs loading KaTeX). */
export function mayHaveMath(source: string): boolean {
  return source.includes("$") && (inlineMathStart(source) !== undefined || BLOCK_MATH.test(source));
}

function requestMath(): void {
  if (math !== "absent") return;
  math = "loading";
  track(
    import("marked-katex-extension").then(
      ({ default: markedKatex }) => {
        // MathML needs no fonts or stylesheet (offline works); bad TeX shows as an error, never throws.
        const katex = markedKatex({ output: "mathml", throwOnError: false, strict: "ignore" });
        const [inline, ...others] = katex.extensions ?? [];
        if (inline && "tokenizer" in inline) {
          marked.use({
            extensions: [
              {
                ...inline,
                start: inlineMathStart,
                tokenizer(source: string) {
                  const match = INLINE_MATH.exec(source);
                  if (!match) return undefined;
                  return { type: inline.name, raw: match[0], text: match[2]!.trim(), displayMode: match[1] === "$$" };
                },
              },
              ...others,
            ],
          });
        } else marked.use(katex);
        math = "ready";
        featuresChanged();
      },
      () => void (math = "absent"),
    ),
  );
}

/** A fence that has its closing line: while it streams, a code block stays plain. */
function isClosedFence(token: Tokens.Code): boolean {
  if (token.codeBlockStyle === "indented") return false;
  const lines = token.raw.trimEnd().split("\n");
  const opening = /^ {0,3}(`{3,}|~{3,})/.exec(lines[0] ?? "")?.[1];
  const closing = lines.length > 1 ? /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(lines.at(-1)!)?.[1] : undefined;
  return !!opening && !!closing && closing[0] === opening[0] && closing.length >= opening.length;
}

function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The cited page's label in `[citation:Title](url)`, the form Fawn's prompt asks the model to cite sources in. */
const CITATION = /^citation:\s*(\S[\s\S]*)$/;

marked.use({
  renderer: {
    // A citation is a small chip naming the site, the page's title on hover (and in its accessible name, which
    // `decorate` gives it from the real host).
    link(token) {
      const label = CITATION.exec(token.text)?.[1]?.trim();
      if (!label) return false;
      let host: string;
      try {
        const url = new URL(token.href);
        if (url.protocol !== "https:" && url.protocol !== "http:") return false;
        host = url.hostname.replace(/^www\./, "");
      } catch {
        return false;
      }
      return (
        `<a class="citation" href="${escapeAttribute(token.href)}" title="${escapeAttribute(label)}">` +
        `${escapeAttribute(host)}</a>`
      );
    },
    code(token) {
      // A diagram is drawn only from a finished fence (the view does it, mermaid-diagram.ts): not on every token.
      if (token.lang?.trim().split(/\s+/)[0]?.toLowerCase() === "mermaid" && isClosedFence(token)) {
        const source = escapeAttribute(token.text.replace(/\n$/, ""));
        return `<pre class="${MERMAID_SOURCE_CLASS}"><code class="language-mermaid">${source}\n</code></pre>\n`;
      }
      const language = fenceLanguage(token.lang);
      if (!language || !isClosedFence(token) || token.text.length > MESSAGE_HIGHLIGHT_MAX_CHARS) return false;
      if (!hljs?.getLanguage(language)) {
        requestLanguage(language);
        return false;
      }
      // highlight.js escapes the code and adds only <span class="hljs-…">; the block is sanitized anyway.
      const html = hljs.highlight(token.text.replace(/\n$/, ""), { language, ignoreIllegals: true }).value;
      return `<pre><code class="hljs language-${escapeAttribute(language)}">${html}\n</code></pre>\n`;
    },
  },
});

// ---- Block-by-block rendering.

/** One rendered top-level block. Finished blocks keep their object from one render to the next. */
export interface MarkdownBlock {
  /** What marked made of the block, before sanitizing: blocks with the same key show the same. */
  readonly key: string;
  /** The block, sanitized and finished, in an inert document: show a copy (`importNode`), never these nodes. */
  readonly nodes: DocumentFragment;
  /** The same as HTML. */
  readonly html: string;
}

class RenderedBlock implements MarkdownBlock {
  #html: string | undefined;

  constructor(
    readonly key: string,
    readonly nodes: DocumentFragment,
    readonly token: Token,
    /** Grammars the block's code asked for that were not loaded when it rendered. */
    readonly waitsFor: readonly CodeLanguage[],
    /** Its source may hold math that was lexed before KaTeX arrived. */
    readonly mathPending: boolean,
  ) {}

  get html(): string {
    if (this.#html === undefined) {
      const holder = this.nodes.ownerDocument.createElement("div");
      holder.append(this.nodes.cloneNode(true));
      this.#html = holder.innerHTML;
    }
    return this.#html;
  }
}

type Links = Record<string, { href: string | null; title: string | null }>;

function renderToken(token: Token): RenderedBlock {
  wanted = { languages: [] };
  try {
    const key = marked.parser([token]);
    const mathPending = math !== "ready" && mayHaveMath(token.raw);
    if (mathPending) requestMath();
    return new RenderedBlock(key, sanitize(key), token, wanted.languages, mathPending);
  } finally {
    wanted = undefined;
  }
}

function lex(source: string, links: Links): Token[] & { links: Links } {
  const lexer = new marked.Lexer(marked.defaults);
  Object.assign(lexer.tokens.links, links);
  return lexer.lex(source) as Token[] & { links: Links };
}

function linkKey(links: Links): string {
  return Object.keys(links).length === 0 ? "" : JSON.stringify(links);
}

/** Link reference definitions among `tokens` and their children, first one winning as in marked. */
function addDefinitions(tokens: readonly Token[], links: Links): void {
  for (const token of tokens) {
    if (token.type === "def") {
      const def = token as Tokens.Def;
      links[def.tag] ??= { href: def.href, title: def.title };
    }
    if (token.type === "list") addDefinitions((token as Tokens.List).items, links);
    if ("tokens" in token && Array.isArray(token.tokens)) addDefinitions(token.tokens as Token[], links);
  }
}

function previousContentIndex(tokens: readonly Token[], before: number): number {
  for (let index = before - 1; index >= 0; index--) if (tokens[index]!.type !== "space") return index;
  return -1;
}

/**
 * How many leading tokens are done. The last token with content may still grow, and so may a list just before it:
 * "1. one\n\n2" ends in a paragraph until the "." makes it the list's second item.
 */
function doneCount(tokens: readonly Token[]): number {
  const last = previousContentIndex(tokens, tokens.length);
  const before = previousContentIndex(tokens, last);
  return Math.max(before >= 0 && tokens[before]!.type === "list" ? before : last, 0);
}

/** What a renderer had after rendering `text`, so a new view of the same text needs no work. */
interface Snapshot {
  readonly text: string;
  readonly blocks: readonly MarkdownBlock[];
  readonly version: number;
  readonly finished: RenderedBlock[];
  readonly finishedCount: number;
  readonly stable: string;
  readonly links: Links;
  readonly lexedWith: string;
  readonly tail: RenderedBlock[];
}

/** The latest render of the last few renderers: when a reply ends, its saved message renders from its live one. */
const snapshots: Snapshot[] = [];
const SNAPSHOTS_KEPT = 8;

/**
 * Renders a growing Markdown text as blocks, each sanitized on its own. Blocks before the last one that has content
 * are finished: a later render returns the same objects for them without lexing or rendering them again, so the cost
 * of a render follows the length of the last block, not of the message. The HTML of the blocks, joined, is what
 * rendering the whole text at once gives. A text that does not extend the previous one starts over.
 */
export class IncrementalMarkdown {
  #finished: RenderedBlock[] = [];
  /** The text the finished blocks were lexed from. */
  #stable = "";
  /** Link definitions among the finished blocks, and those the finished blocks were lexed with. */
  #links: Links = {};
  #lexedWith = "";
  #tail: RenderedBlock[] = [];
  #version = featureVersion;
  #lastText: string | undefined;
  #lastBlocks: readonly MarkdownBlock[] = [];
  /** This renderer's entry among the shared snapshots. */
  #snapshot: Snapshot | undefined;
  readonly #shareRecent: boolean;

  /**
   * With `shareRecent`, renderers share their latest render: one that starts on a text another has just rendered
   * (the saved copy of a reply that was streaming) takes its blocks over instead of rendering them again.
   */
  constructor(options: { shareRecent?: boolean } = {}) {
    this.#shareRecent = options.shareRecent ?? false;
  }

  render(source: string): readonly MarkdownBlock[] {
    const text = source.replace(/\r\n?/g, "\n");
    if (this.#lastText === text && this.#version === featureVersion) return this.#lastBlocks;
    // A message that was just shown streaming, now shown saved: take over what its renderer did.
    const recent =
      this.#lastText === undefined && this.#shareRecent
        ? snapshots.find((snapshot) => snapshot.text === text)
        : undefined;
    if (recent && recent.version === featureVersion) {
      this.#version = recent.version;
      this.#finished = recent.finished.slice(0, recent.finishedCount);
      this.#stable = recent.stable;
      this.#links = { ...recent.links };
      this.#lexedWith = recent.lexedWith;
      this.#tail = recent.tail;
      this.#remember(text, recent.blocks);
      return recent.blocks;
    }
    if (!text.startsWith(this.#stable)) this.#reset();
    if (this.#version !== featureVersion) this.#catchUp();
    let tokens = lex(text.slice(this.#stable.length), this.#links);
    // A definition in the tail can turn text in a finished block into a link: lex everything again.
    if (this.#finished.length > 0 && linkKey(tokens.links) !== this.#lexedWith) {
      this.#reset();
      tokens = lex(text, {});
    }
    const done = tokens.slice(0, doneCount(tokens));
    const doneText = done.map((token) => token.raw).join("");
    // marked's raws cover the text exactly; if they ever do not, keep everything in the tail rather than misplace it.
    if (done.length > 0 && text.startsWith(doneText, this.#stable.length)) {
      const cached = new Map(this.#tail.map((block) => [block.token.raw, block]));
      for (const token of done) this.#finished.push(cached.get(token.raw) ?? renderToken(token));
      this.#stable += doneText;
      this.#lexedWith = linkKey(tokens.links);
      addDefinitions(done, this.#links);
      tokens = tokens.slice(done.length) as typeof tokens;
    }
    const previous = new Map(this.#tail.map((block) => [block.token.raw, block]));
    this.#tail = tokens.map((token) => previous.get(token.raw) ?? renderToken(token));
    const blocks = [...this.#finished, ...this.#tail].filter((block) => block.nodes.hasChildNodes());
    this.#remember(text, blocks);
    return blocks;
  }

  /** Keeps this render for the fast path, and as the renderer's entry among the shared snapshots. */
  #remember(text: string, blocks: readonly MarkdownBlock[]): void {
    this.#lastText = text;
    this.#lastBlocks = blocks;
    if (!this.#shareRecent) return;
    const snapshot: Snapshot = {
      text,
      blocks,
      version: featureVersion,
      // #finished only grows until it is replaced, so its first `finishedCount` blocks stay those of `text`.
      finished: this.#finished,
      finishedCount: this.#finished.length,
      stable: this.#stable,
      links: Object.keys(this.#links).length === 0 ? {} : { ...this.#links },
      lexedWith: this.#lexedWith,
      tail: this.#tail,
    };
    const slot = this.#snapshot ? snapshots.indexOf(this.#snapshot) : -1;
    if (slot >= 0) snapshots[slot] = snapshot;
    else {
      snapshots.push(snapshot);
      if (snapshots.length > SNAPSHOTS_KEPT) snapshots.shift();
    }
    this.#snapshot = snapshot;
  }

  #reset(): void {
    this.#finished = [];
    this.#stable = "";
    this.#links = {};
    this.#lexedWith = "";
    this.#tail = [];
  }

  /** A grammar or KaTeX arrived: re-render the finished blocks it changes (math changes lexing: start over). */
  #catchUp(): void {
    this.#version = featureVersion;
    this.#tail = [];
    if (math === "ready" && this.#finished.some((block) => block.mathPending)) {
      this.#reset();
      return;
    }
    this.#finished = this.#finished.map((block) =>
      block.waitsFor.some((language) => languages.get(language) === "ready") ? renderToken(block.token) : block,
    );
  }
}

/** The whole text as one sanitized HTML string. */
export function renderMarkdown(source: string): string {
  return new IncrementalMarkdown()
    .render(source)
    .map((block) => block.html)
    .join("");
}

/**
 * Compiles marked's large regular expressions ahead of the first reply, a few per idle period, then renders a small
 * sample: left to the first render, that work takes ~100 ms in one task just as a reply starts to stream.
 */
function warmUpWhenIdle(): void {
  if (typeof requestIdleCallback !== "function") return;
  const { block, inline } = marked.Lexer.rules;
  const rules = [...Object.values(block.gfm), ...Object.values(inline.gfm)];
  const step = (deadline: IdleDeadline) => {
    while (rules.length > 0 && deadline.timeRemaining() > 5) {
      const rule = rules.pop();
      if (!(rule instanceof RegExp)) continue;
      rule.test("warm *up* [x](y) `z`\n");
      rule.lastIndex = 0;
    }
    if (rules.length > 0) requestIdleCallback(step);
    else
      renderMarkdown("# A\n\nSome **bold** `code` [link](https://example.com).\n\n- one\n- two\n\n| a |\n| - |\n| 1 |");
  };
  requestIdleCallback(step);
}

warmUpWhenIdle();
