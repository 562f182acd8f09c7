// Code blocks in rendered Markdown carry an empty toolbar placeholder that the view fills ("Copy code", and for a
// finished ```mermaid block the diagram with its "Show source" toggle). Like a remote image's placeholder, it is made
// after sanitizing, so model text cannot make one, and markdown-dom.ts keeps what the view put in it.

/** Marks a code block's toolbar placeholder; its value is the kind of block: "code" or "mermaid". */
export const CODE_TOOLS_ATTRIBUTE = "data-fawn-code";

/** The class markdown.ts gives the <pre> of a ```mermaid fence that has its closing line. */
export const MERMAID_SOURCE_CLASS = "mermaid-source";

/** The code of a rendered code block (its <pre>) as written: highlighting's markup gone, the last line end dropped. */
export function codeText(pre: Element): string {
  return (pre.textContent ?? "").replace(/\n$/, "");
}

/**
 * Wraps `pre` (sanitized, not yet in the page) in `<div class="code-block">` with an empty toolbar placeholder
 * before it, marked as a diagram's when the block is a finished ```mermaid fence.
 */
export function wrapCodeBlock(pre: Element): void {
  const document = pre.ownerDocument;
  const block = document.createElement("div");
  block.className = "code-block";
  const tools = document.createElement("div");
  tools.className = "code-tools";
  tools.setAttribute(CODE_TOOLS_ATTRIBUTE, pre.classList.contains(MERMAID_SOURCE_CLASS) ? "mermaid" : "code");
  pre.replaceWith(block);
  block.append(tools, pre);
}
