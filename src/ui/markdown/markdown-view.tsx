// Markdown as HTML, always sanitized (markdown.ts uses DOMPurify: no scripts, handlers or javascript: links). While a
// message streams, only its last block is rendered again and only that block's nodes are replaced. Images and links
// naming the thread's own files (thread-file-references.ts) are shown from the thread and open the file's preview. A web image
// is a "Load image" button naming its host until the user clicks it or chose "always" for that host (remote-images.ts),
// then the image fetched by the page and shown from a `blob:` (remote-image-view.tsx).
// Code blocks get "Copy code", and finished ```mermaid blocks their diagram (code-block-tools.tsx).
import { createRenderEffect, createRoot, createSignal, onCleanup, untrack } from "solid-js";
import { insert } from "solid-js/web";
import { showCodeTools } from "./code-block-tools.tsx";
import { onMarkdownFeatures } from "./markdown-features.ts";
import { IncrementalMarkdown } from "./markdown.ts";
import { MarkdownDom, within } from "./markdown-dom.ts";
import { RemoteImage } from "./remote-image-view.tsx";
import { REMOTE_IMAGE_ALT_ATTRIBUTE, REMOTE_IMAGE_ATTRIBUTE, remoteImageUrl } from "./remote-images.ts";
import { THREAD_FILE_ATTRIBUTE, threadFileReference } from "./thread-file-references.ts";
import { useThreadFiles, type ThreadFiles } from "./thread-files-context.ts";

/** Gives each not yet shown thread image in `root` its file, read once per image element. */
function showImages(root: HTMLElement, scope: Element, files: ThreadFiles, asked: WeakSet<Element>): void {
  for (const image of within<HTMLImageElement>(scope, `img[${THREAD_FILE_ATTRIBUTE}]:not([src])`)) {
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

/**
 * Fills each new remote image placeholder in `scope` (rendered empty, see markdown.ts) with its RemoteImage. Each one
 * is a root of its own, disposed with the view (`disposers`); markdown-dom.ts keeps a placeholder's content.
 */
function showRemoteImages(scope: Element, filled: WeakSet<Element>, disposers: (() => void)[]): void {
  for (const placeholder of within(scope, `span[${REMOTE_IMAGE_ATTRIBUTE}]`)) {
    if (filled.has(placeholder)) continue;
    filled.add(placeholder);
    const url = remoteImageUrl(placeholder.getAttribute(REMOTE_IMAGE_ATTRIBUTE));
    if (!url) continue;
    const alt = placeholder.getAttribute(REMOTE_IMAGE_ALT_ATTRIBUTE) ?? "";
    createRoot((dispose) => {
      disposers.push(dispose);
      insert(placeholder, () => <RemoteImage url={url} alt={alt} />);
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
  const filled = new WeakSet<Element>();
  const disposers: (() => void)[] = [];
  onCleanup(() => disposers.forEach((dispose) => dispose()));
  // A code grammar or KaTeX arriving re-renders the blocks that wait for it.
  const [features, setFeatures] = createSignal(0);
  onCleanup(onMarkdownFeatures(() => setFeatures((count) => count + 1)));
  createRenderEffect(() => {
    features();
    // Only the blocks that changed: a streaming reply's finished blocks were looked at when they came.
    const changed = dom.show(renderer.render(props.source)).filter((node) => node instanceof Element);
    for (const scope of changed) {
      if (files) showImages(root, scope, files, asked);
      untrack(() => {
        showRemoteImages(scope, filled, disposers);
        showCodeTools(scope, filled, disposers);
      });
    }
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
