// Markdown as HTML, always sanitized (markdown.ts uses DOMPurify: no scripts, handlers or javascript: links). While a
// message streams, only its last block is rendered again and only that block's nodes are replaced. Images and links
// naming the thread's own files (thread-files.ts) are shown from the thread and open the file's preview.
import { createRenderEffect, createSignal, onCleanup } from "solid-js";
import { IncrementalMarkdown, onMarkdownFeatures } from "../markdown.ts";
import { MarkdownDom } from "../markdown-dom.ts";
import { THREAD_FILE_ATTRIBUTE, threadFileReference } from "../thread-files.ts";
import { useThreadFiles, type ThreadFiles } from "./thread-files-context.ts";

/** Gives each not yet shown thread image of `root` its file, read once per image element. */
function showImages(root: HTMLElement, files: ThreadFiles, asked: WeakSet<Element>): void {
  for (const image of root.querySelectorAll<HTMLImageElement>(`img[${THREAD_FILE_ATTRIBUTE}]:not([src])`)) {
    if (asked.has(image)) continue;
    asked.add(image);
    const reference = image.getAttribute(THREAD_FILE_ATTRIBUTE) ?? "";
    const path = threadFileReference(reference, files.base);
    if (!path) continue;
    void files.imageUrl(path).then((url) => {
      // Not into a message that has left the page since: its picture may be revoked already.
      if (url && root.isConnected && image.getAttribute(THREAD_FILE_ATTRIBUTE) === reference) image.src = url;
    });
  }
}

/** The thread file a click on a marked link, or on a shown thread image, opens. */
function clickedFile(target: EventTarget | null, files: ThreadFiles): string | undefined {
  if (!(target instanceof Element)) return undefined;
  // A link decides for the image inside it: a web link stays one.
  const marked = target.closest("a") ?? target.closest(`img[${THREAD_FILE_ATTRIBUTE}][src]`);
  const reference = marked?.getAttribute(THREAD_FILE_ATTRIBUTE);
  return reference ? threadFileReference(reference, files.base) : undefined;
}

export function Markdown(props: { source: string; class?: string }) {
  const root = (<div class={props.class ? `markdown ${props.class}` : "markdown"} />) as HTMLDivElement;
  const renderer = new IncrementalMarkdown({ shareRecent: true });
  const dom = new MarkdownDom(root);
  const files = useThreadFiles();
  const asked = new WeakSet<Element>();
  // A code grammar or KaTeX arriving re-renders the blocks that wait for it.
  const [features, setFeatures] = createSignal(0);
  onCleanup(onMarkdownFeatures(() => setFeatures((count) => count + 1)));
  createRenderEffect(() => {
    features();
    dom.show(renderer.render(props.source));
    if (files) showImages(root, files, asked);
  });
  if (files) {
    root.addEventListener("click", (event) => {
      const path = clickedFile(event.target, files);
      if (!path) return;
      event.preventDefault();
      files.open(path);
    });
  }
  return root;
}
