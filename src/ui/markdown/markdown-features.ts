// Markdown's lazily loaded features: highlight.js grammars and KaTeX, each fetched the first time a rendered block
// asks for it. Loading one changes how Markdown renders, so listeners hear (the views re-render) and the version
// moves on (incremental renderers re-render the blocks it changes: markdown.ts).
import type { HLJSApi } from "highlight.js";
import type { Marked } from "marked";
import type { CodeLanguage } from "../shared/artifact-kinds.ts";
import { loadHighlighter } from "./code-highlighter.ts";

let hljs: HLJSApi | undefined;
const languages = new Map<CodeLanguage, "loading" | "ready" | "failed">();
let math: "absent" | "loading" | "ready" | "failed" = "absent";
let version = 0;
const listeners = new Set<() => void>();
const loading = new Set<Promise<void>>();

function featuresChanged(): void {
  version++;
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

/**
 * Runs `render` (one block's rendering), handing it the list of grammars the block asks for that are not loaded
 * yet; the list fills while `render` runs.
 */
export function collectingWanted<T>(render: (wantedLanguages: readonly CodeLanguage[]) => T): T {
  wanted = { languages: [] };
  try {
    return render(wanted.languages);
  } finally {
    wanted = undefined;
  }
}

/** Moves on each time a grammar or KaTeX arrives. */
export function featureVersion(): number {
  return version;
}

/** Whether KaTeX is loaded (math lexed before it arrived must be lexed again). */
export function mathReady(): boolean {
  return math === "ready";
}

/** Whether `language`'s grammar is loaded. */
export function languageReady(language: CodeLanguage): boolean {
  return languages.get(language) === "ready";
}

/** highlight.js with `language`'s grammar, or undefined (then the grammar is asked for: the code stays plain). */
export function highlighterFor(language: CodeLanguage): HLJSApi | undefined {
  if (hljs?.getLanguage(language)) return hljs;
  requestLanguage(language);
  return undefined;
}

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

/** Loads KaTeX into `marked` (once), with Fawn's stricter rule for inline math. */
export function requestMath(marked: Marked): void {
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
