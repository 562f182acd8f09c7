// Code and plain text, highlighted by highlight.js; the library and each language's grammar load on first use.
import { createEffect, createSignal, on, onCleanup, Show } from "solid-js";
import type { HLJSApi, LanguageFn } from "highlight.js";
import { HIGHLIGHT_MAX_CHARS, type CodeLanguage } from "../artifact-kinds.ts";

// One chunk per grammar, so a Python file loads only Python's.
const GRAMMARS: Readonly<Record<CodeLanguage, () => Promise<{ default: LanguageFn }>>> = {
  bash: () => import("highlight.js/lib/languages/bash"),
  c: () => import("highlight.js/lib/languages/c"),
  cpp: () => import("highlight.js/lib/languages/cpp"),
  csharp: () => import("highlight.js/lib/languages/csharp"),
  css: () => import("highlight.js/lib/languages/css"),
  diff: () => import("highlight.js/lib/languages/diff"),
  dockerfile: () => import("highlight.js/lib/languages/dockerfile"),
  go: () => import("highlight.js/lib/languages/go"),
  graphql: () => import("highlight.js/lib/languages/graphql"),
  ini: () => import("highlight.js/lib/languages/ini"),
  java: () => import("highlight.js/lib/languages/java"),
  javascript: () => import("highlight.js/lib/languages/javascript"),
  json: () => import("highlight.js/lib/languages/json"),
  kotlin: () => import("highlight.js/lib/languages/kotlin"),
  less: () => import("highlight.js/lib/languages/less"),
  lua: () => import("highlight.js/lib/languages/lua"),
  makefile: () => import("highlight.js/lib/languages/makefile"),
  markdown: () => import("highlight.js/lib/languages/markdown"),
  perl: () => import("highlight.js/lib/languages/perl"),
  php: () => import("highlight.js/lib/languages/php"),
  powershell: () => import("highlight.js/lib/languages/powershell"),
  python: () => import("highlight.js/lib/languages/python"),
  r: () => import("highlight.js/lib/languages/r"),
  ruby: () => import("highlight.js/lib/languages/ruby"),
  rust: () => import("highlight.js/lib/languages/rust"),
  scss: () => import("highlight.js/lib/languages/scss"),
  sql: () => import("highlight.js/lib/languages/sql"),
  swift: () => import("highlight.js/lib/languages/swift"),
  typescript: () => import("highlight.js/lib/languages/typescript"),
  xml: () => import("highlight.js/lib/languages/xml"),
  yaml: () => import("highlight.js/lib/languages/yaml"),
};

let core: Promise<HLJSApi> | undefined;

/** highlight.js with `language` registered. */
async function highlighter(language: CodeLanguage): Promise<HLJSApi> {
  core ??= import("highlight.js/lib/core").then((module) => module.default);
  const hljs = await core;
  if (!hljs.getLanguage(language)) hljs.registerLanguage(language, (await GRAMMARS[language]()).default);
  return hljs;
}

/**
 * Shows `text` at once as plain text, then highlighted once the grammar has loaded. highlight.js escapes the text
 * and adds only `<span class="hljs-…">`, so its output is safe to insert.
 */
export function CodePreview(props: { text: string; language: CodeLanguage | undefined; label: string }) {
  const [html, setHtml] = createSignal<string | undefined>();
  const tooLong = () => props.text.length > HIGHLIGHT_MAX_CHARS;
  createEffect(
    on(
      () => [props.text, props.language] as const,
      ([text, language]) => {
        setHtml(undefined);
        if (!language || text.length > HIGHLIGHT_MAX_CHARS) return;
        let current = true;
        onCleanup(() => (current = false));
        highlighter(language)
          .then((hljs) => {
            if (current) setHtml(hljs.highlight(text, { language, ignoreIllegals: true }).value);
          })
          // Without its grammar (say, offline before it was ever cached) the text stays plain.
          .catch(() => undefined);
      },
    ),
  );
  return (
    <>
      <Show when={props.language && tooLong()}>
        <p class="hint">This file is too long to highlight; it is shown as plain text.</p>
      </Show>
      <pre class="artifact-code" tabIndex={0} aria-label={props.label}>
        <Show when={html()} fallback={<code>{props.text}</code>}>
          {(highlighted) => <code class={`hljs language-${props.language ?? "plaintext"}`} innerHTML={highlighted()} />}
        </Show>
      </pre>
    </>
  );
}
