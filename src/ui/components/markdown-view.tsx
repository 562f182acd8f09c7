// Markdown as HTML, always sanitized (renderMarkdown uses DOMPurify: no scripts, handlers or javascript: links).
import { createMemo } from "solid-js";
import { renderMarkdown } from "../markdown.ts";

export function Markdown(props: { source: string; class?: string }) {
  const html = createMemo(() => renderMarkdown(props.source));
  return <div class={props.class ? `markdown ${props.class}` : "markdown"} innerHTML={html()} />;
}
