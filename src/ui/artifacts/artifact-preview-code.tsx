// Code and plain text, highlighted by highlight.js; the library and each language's grammar load on first use.
import { createEffect, createSignal, on, onCleanup, Show } from "solid-js";
import { HIGHLIGHT_MAX_CHARS, type CodeLanguage } from "../shared/artifact-kinds.ts";
import { loadHighlighter } from "../markdown/code-highlighter.ts";

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
        loadHighlighter(language)
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
