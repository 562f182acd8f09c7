// Markdown as HTML, always sanitized (markdown.ts uses DOMPurify: no scripts, handlers or javascript: links). While a
// message streams, only its last block is rendered again and only that block's nodes are replaced.
import { createRenderEffect, createSignal, onCleanup } from "solid-js";
import { IncrementalMarkdown, onMarkdownFeatures } from "../markdown.ts";
import { MarkdownDom } from "../markdown-dom.ts";

export function Markdown(props: { source: string; class?: string }) {
  const root = (<div class={props.class ? `markdown ${props.class}` : "markdown"} />) as HTMLDivElement;
  const renderer = new IncrementalMarkdown({ shareRecent: true });
  const dom = new MarkdownDom(root);
  // A code grammar or KaTeX arriving re-renders the blocks that wait for it.
  const [features, setFeatures] = createSignal(0);
  onCleanup(onMarkdownFeatures(() => setFeatures((count) => count + 1)));
  createRenderEffect(() => {
    features();
    dom.show(renderer.render(props.source));
  });
  return root;
}
