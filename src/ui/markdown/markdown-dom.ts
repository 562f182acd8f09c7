// Puts rendered Markdown blocks into the page, touching only what changed: while a reply streams, the nodes of its
// finished blocks (a highlighted code block, a table, selected text) stay as they are, and the growing block is
// patched in place (its text appended to, its finished list items and table rows kept).
import type { MarkdownBlock } from "./markdown.ts";
import { CODE_TOOLS_ATTRIBUTE } from "./code-tools.ts";
import { REMOTE_IMAGE_ATTRIBUTE } from "./remote-images.ts";
import { THREAD_FILE_ATTRIBUTE } from "./thread-file-references.ts";

/** `scope` and its descendants that match `selector` (querySelectorAll leaves `scope` itself out). */
export function within<E extends Element = Element>(scope: Element, selector: string): E[] {
  const found = [...scope.querySelectorAll<E>(selector)];
  return scope.matches(selector) ? [scope as E, ...found] : found;
}

interface MountedBlock {
  block: MarkdownBlock;
  nodes: ChildNode[];
}

/**
 * Whether `current` (in the page) has the attributes of `next` (just rendered). The view may have given a thread
 * file's image its `src` since (an object URL, see thread-file-references.ts): that image is still the same.
 */
function sameAttributes(current: Element, next: Element): boolean {
  const loaded =
    current.hasAttribute(THREAD_FILE_ATTRIBUTE) && current.hasAttribute("src") && !next.hasAttribute("src") ? 1 : 0;
  if (current.attributes.length !== next.attributes.length + loaded) return false;
  for (const attribute of next.attributes) {
    if (current.getAttributeNS(attribute.namespaceURI, attribute.localName) !== attribute.value) return false;
  }
  return true;
}

/** Whether `current` can be kept and patched into `next`: same kind of node, and for elements the same tag and attributes. */
function patchable(current: ChildNode, next: ChildNode): boolean {
  if (current.nodeType !== next.nodeType) return false;
  if (current instanceof Element && next instanceof Element) {
    return (
      current.namespaceURI === next.namespaceURI && current.tagName === next.tagName && sameAttributes(current, next)
    );
  }
  return current.nodeType === Node.TEXT_NODE || current.nodeType === Node.COMMENT_NODE;
}

/**
 * Makes the run of `current` nodes in `parent` (which starts before `anchor`, or ends the parent) equal to `next`,
 * which hold sanitized markup: text and elements with the same tag and attributes are kept, anything else is replaced
 * by the new node. A kept remote image or code toolbar placeholder keeps its content (the view's). Returns the nodes
 * now in place.
 */
function patchNodes(parent: Node, current: readonly ChildNode[], next: readonly ChildNode[], anchor: Node | null) {
  const placed: ChildNode[] = [];
  for (let index = 0; index < next.length; index++) {
    const old = current[index];
    const node = next[index]!;
    if (old && patchable(old, node)) {
      if (old instanceof CharacterData) {
        const text = (node as CharacterData).data;
        // Appending keeps the browser's work on the text so far (shaping, line breaks up to the change).
        if (text.startsWith(old.data)) {
          if (text.length > old.data.length) old.appendData(text.slice(old.data.length));
        } else old.data = text;
      } else if (
        old instanceof Element &&
        (old.hasAttribute(REMOTE_IMAGE_ATTRIBUTE) || old.hasAttribute(CODE_TOOLS_ATTRIBUTE))
      ) {
        // A remote image's or code block's placeholder is rendered empty and filled by the view ("Load image", or the
        // image once allowed; "Copy code", a diagram): the same placeholder keeps what the view put in it.
      } else patchNodes(old, [...old.childNodes], [...node.childNodes], null);
      placed.push(old);
    } else if (old) {
      parent.replaceChild(node, old);
      placed.push(node);
    } else {
      parent.insertBefore(node, placed.at(-1)?.nextSibling ?? anchor);
      placed.push(node);
    }
  }
  for (const extra of current.slice(next.length)) extra.remove();
  return placed;
}

/** The blocks shown in one element, updated in place by `show`. */
export class MarkdownDom {
  readonly #root: HTMLElement;
  readonly #mounted: MountedBlock[] = [];

  constructor(root: HTMLElement) {
    this.#root = root;
  }

  /**
   * Makes the element show `blocks` (sanitized, from markdown.ts), in order. Returns the top-level nodes of the
   * blocks it put in or patched, so that what looks for new images or code blocks need not search the whole message
   * on every streamed token.
   */
  show(blocks: readonly MarkdownBlock[]): ChildNode[] {
    const mounted = this.#mounted;
    const changed: ChildNode[] = [];
    const page = this.#root.ownerDocument;
    for (let index = 0; index < blocks.length; index++) {
      const block = blocks[index]!;
      const old = mounted[index];
      if (old && (old.block === block || old.block.key === block.key)) {
        old.block = block;
        continue;
      }
      // Plain text appended to the paragraph shown: append it to the page's Text node, with no copy to compare.
      const ending = old?.nodes.length === 1 || old?.nodes.length === 2 ? old.nodes[0]!.lastChild : null;
      if (old && block.appendsTo && old.block.key === block.appendsTo.key && ending instanceof Text) {
        ending.appendData(block.appendsTo.text);
        old.block = block;
        changed.push(...old.nodes);
        continue;
      }
      // A copy: the block's own nodes stay as rendered, for other views of the same text.
      const rendered = page.importNode(block.nodes, true);
      // Before the first node of a later block still in place.
      const anchor = mounted.slice(index + 1).find((later) => later.nodes.length > 0)?.nodes[0] ?? null;
      const nodes = patchNodes(this.#root, old?.nodes ?? [], [...rendered.childNodes], anchor);
      mounted[index] = { block, nodes };
      changed.push(...nodes);
    }
    for (const gone of mounted.splice(blocks.length)) for (const node of gone.nodes) node.remove();
    return changed;
  }
}
