// Markdown to safe HTML, block by block: GFM through marked, each top-level block sanitized on its own
// (markdown-sanitize.ts) before it reaches the DOM, so a streaming message re-renders only its last, still-growing
// block. Code is highlighted by highlight.js and math typeset by KaTeX (as MathML: no fonts or CSS), both loaded on
// first use (markdown-features.ts); a block rendered before its feature arrived is rendered again when it does.
// Model text is untrusted: what it renders runs nothing and fetches nothing by itself (see markdown-sanitize.ts).
import { Marked, type Token, type Tokens } from "marked";
import type { CodeLanguage } from "../shared/artifact-kinds.ts";
import { fenceLanguage } from "./code-highlighter.ts";
import { MERMAID_SOURCE_CLASS } from "./code-tools.ts";
import {
  collectingWanted,
  featureVersion,
  highlighterFor,
  languageReady,
  mathReady,
  mayHaveMath,
  requestMath,
} from "./markdown-features.ts";
import { sanitize } from "./markdown-sanitize.ts";

const marked = new Marked({ gfm: true, breaks: false, async: false });

/** Longer code blocks stay plain: highlighting them would hold the page for more than a frame or two. */
export const MESSAGE_HIGHLIGHT_MAX_CHARS = 20_000;

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

/** Text as marked escapes it. */
function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (char) => TEXT_ESCAPES[char]!);
}

const TEXT_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * What a streamed delta may hold to be appended as text: letters, digits, spaces and , . ; ? ! ' " ( — no newline,
 * and nothing that can close or complete what came before (emphasis, code, link destination, autolink, HTML, entity,
 * escape, math).
 */
const PLAIN_DELTA = /^[\p{L}\p{N} ,.;?!'"(]+$/u;
/** The word a delta joins, and the words it adds: also ")", and "." only before a space (no www. or domain). */
const PLAIN_WORDS = /^(?:[\p{L}\p{N} ,;?!'"()]|\.(?= ))*$/u;

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
      const hljs = highlighterFor(language);
      if (!hljs) return false;
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
  /** This block is the block with key `key` with `text` appended to its last Text node (a plain-text append). */
  readonly appendsTo?: { readonly key: string; readonly text: string };
}

/** A paragraph grown by plain-text appends: its nodes are `base`'s with `suffix` appended to the last Text node. */
interface PlainGrowth {
  readonly base: DocumentFragment;
  readonly suffix: string;
}

class RenderedBlock implements MarkdownBlock {
  #html: string | undefined;
  #nodes: DocumentFragment | undefined;

  constructor(
    readonly key: string,
    nodes: DocumentFragment | undefined,
    readonly token: Token,
    /** Grammars the block's code asked for that were not loaded when it rendered. */
    readonly waitsFor: readonly CodeLanguage[],
    /** Its source may hold math that was lexed before KaTeX arrived. */
    readonly mathPending: boolean,
    readonly growth?: PlainGrowth,
    readonly appendsTo?: { readonly key: string; readonly text: string },
  ) {
    this.#nodes = nodes;
  }

  /** Made on first use for a grown paragraph: a view that appends the text itself never needs them. */
  get nodes(): DocumentFragment {
    if (!this.#nodes) {
      const { base, suffix } = this.growth!;
      this.#nodes = base.cloneNode(true) as DocumentFragment;
      (this.#nodes.firstChild!.lastChild as Text).appendData(suffix);
    }
    return this.#nodes;
  }

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
  return collectingWanted((wantedLanguages) => {
    const key = marked.parser([token]);
    const mathPending = !mathReady() && mayHaveMath(token.raw);
    if (mathPending) requestMath(marked);
    return new RenderedBlock(key, sanitize(key), token, wantedLanguages, mathPending);
  });
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
  #version = featureVersion();
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
    if (this.#lastText === text && this.#version === featureVersion()) return this.#lastBlocks;
    const appended = this.#appendPlainText(text);
    if (appended) {
      this.#remember(text, appended);
      return appended;
    }
    // A message that was just shown streaming, now shown saved: take over what its renderer did.
    const recent =
      this.#lastText === undefined && this.#shareRecent
        ? snapshots.find((snapshot) => snapshot.text === text)
        : undefined;
    if (recent && recent.version === featureVersion()) {
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
    if (this.#version !== featureVersion()) this.#catchUp();
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

  /**
   * The common streaming step without lexing or sanitizing: the text only grew by plain prose on the last line of a
   * paragraph whose rendered HTML ends in a Text node of that paragraph, and nothing in the grown text can parse
   * differently (see `PLAIN_APPEND`). Returns the blocks a full render gives, or undefined to render in full.
   */
  #appendPlainText(text: string): readonly MarkdownBlock[] | undefined {
    const previous = this.#lastText;
    if (previous === undefined || text.length <= previous.length || !text.startsWith(previous)) return undefined;
    if (this.#version !== featureVersion()) return undefined;
    const delta = text.slice(previous.length);
    if (!PLAIN_DELTA.test(delta)) return undefined;
    const last = this.#tail.at(-1);
    if (!last || this.#lastBlocks.at(-1) !== last || last.token.type !== "paragraph") return undefined;
    if (last.waitsFor.length > 0 || last.mathPending || !last.key.endsWith("</p>\n")) return undefined;
    // Its whole text is the end of the text so far; it is no link definition (whose title can end on a later line).
    const raw = last.token.raw;
    if (!previous.endsWith(raw) || !/^[^\s[]/.test(raw)) return undefined;
    // The last line starts with a letter: it can become no list item, heading, quote, fence, table or HTML.
    if (!/^\p{L}/u.test(text.slice(text.lastIndexOf("\n") + 1))) return undefined;
    const wordStart = previous.lastIndexOf(" ", previous.trimEnd().length - 1) + 1;
    if (!PLAIN_WORDS.test(text.slice(wordStart))) return undefined;
    // The paragraph's HTML ends in its own text, which ends as the source does (not in a link, emphasis or code).
    const growth = last.growth ?? { base: last.nodes, suffix: "" };
    const paragraph = growth.base.firstChild;
    if (!(paragraph instanceof Element) || paragraph.tagName !== "P" || growth.base.childNodes.length > 2) {
      return undefined;
    }
    const ending = paragraph.lastChild;
    if (!(ending instanceof Text) || !(ending.data + growth.suffix).endsWith(previous.slice(wordStart))) {
      return undefined;
    }
    // Only `raw` of the token is used again (a later render's cache key): its inline tokens are left as they were.
    const token = { ...last.token, raw: last.token.raw + delta } as Token;
    const key = `${last.key.slice(0, -"</p>\n".length)}${escapeText(delta)}</p>\n`;
    const grown = new RenderedBlock(
      key,
      undefined,
      token,
      [],
      false,
      {
        base: growth.base,
        suffix: growth.suffix + delta,
      },
      { key: last.key, text: delta },
    );
    this.#tail = [...this.#tail.slice(0, -1), grown];
    return [...this.#lastBlocks.slice(0, -1), grown];
  }

  /** Keeps this render for the fast path, and as the renderer's entry among the shared snapshots. */
  #remember(text: string, blocks: readonly MarkdownBlock[]): void {
    this.#lastText = text;
    this.#lastBlocks = blocks;
    if (!this.#shareRecent) return;
    const snapshot: Snapshot = {
      text,
      blocks,
      version: featureVersion(),
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
    this.#version = featureVersion();
    this.#tail = [];
    if (mathReady() && this.#finished.some((block) => block.mathPending)) {
      this.#reset();
      return;
    }
    this.#finished = this.#finished.map((block) =>
      block.waitsFor.some(languageReady) ? renderToken(block.token) : block,
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
