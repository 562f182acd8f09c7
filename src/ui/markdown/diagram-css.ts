// The CSS in a diagram's SVG (mermaid's `<style>`, `style` attributes, presentation attributes such as `fill`), read
// with a real CSS parser (css-tree, which follows CSS Syntax: escapes, comments, at-rules) and written back from what
// it parsed, so the browser reads exactly what was checked. What can fetch is dropped: every `url()` that is not a
// `#fragment` of the diagram, the functions that take images or sources (`image-set()`, `src()`, …, whatever their
// spelling: `u\72l(` is `url(`), every at-rule but the few that only group rules (`@import`, `@font-face` go), and
// anything the parser could not read. Loaded with mermaid, never with the page's first chunk.
import type { CssNode, List, ListItem } from "css-tree";
import generate from "css-tree/generator";
import parse from "css-tree/parser";
import { ident } from "css-tree/utils";
import walk from "css-tree/walker";

/** At-rules that only group or name rules: none of them loads anything. */
const GROUPING_AT_RULES = new Set([
  "media",
  "supports",
  "keyframes",
  "-webkit-keyframes",
  "layer",
  "container",
  "scope",
  "starting-style",
]);

/** Functions whose arguments name something to load (an image, a font or style source, another element). */
const LOADING_FUNCTIONS = new Set([
  "url",
  "src",
  "image",
  "image-set",
  "-webkit-image-set",
  "cross-fade",
  "-webkit-cross-fade",
  "element",
  "-moz-element",
]);

/** A name as the browser reads it: escapes decoded, case folded. */
function nameOf(raw: string): string {
  return ident.decode(raw).toLowerCase();
}

/** Whether `node` (a value, a declaration, a prelude) holds anything that could load, or that the parser did not read. */
function loads(node: CssNode): boolean {
  let found = false;
  walk(node, (inner) => {
    if (found) return;
    if (inner.type === "Url") found = !inner.value.trim().startsWith("#");
    else if (inner.type === "Function") found = LOADING_FUNCTIONS.has(nameOf(inner.name));
    else if (inner.type === "Raw") found = true;
    else if (inner.type === "Atrule") found = !GROUPING_AT_RULES.has(nameOf(inner.name));
  });
  return found;
}

const PARSE_OPTIONS = {
  parseValue: true,
  parseAtrulePrelude: true,
  parseRulePrelude: false,
  parseCustomProperty: true,
  // What does not parse becomes a Raw node, which `loads` refuses.
  onParseError: () => {},
};

/** Removes, from every list in `tree`, the declarations and at-rules that load and any block-level text not read. */
function prune(tree: CssNode): void {
  const doomed: { item: ListItem<CssNode>; list: List<CssNode> }[] = [];
  walk(tree, {
    enter(node: CssNode, item: ListItem<CssNode>, list: List<CssNode>) {
      if (!list) return;
      const drop =
        (node.type === "Atrule" && !GROUPING_AT_RULES.has(nameOf(node.name))) ||
        (node.type === "Declaration" && loads(node)) ||
        (node.type === "Atrule" && node.prelude != null && loads(node.prelude)) ||
        node.type === "Raw";
      if (drop) doomed.push({ item, list });
    },
  });
  for (const { item, list } of doomed) list.remove(item);
}

/** A stylesheet (a `<style>`'s text) without anything that loads; written out again by the parser. */
export function cleanStylesheet(css: string): string {
  const tree = parse(css, { ...PARSE_OPTIONS, context: "stylesheet" });
  prune(tree);
  return generate(tree);
}

/** A `style` attribute's declarations without those that load. */
export function cleanDeclarations(css: string): string {
  const tree = parse(css, { ...PARSE_OPTIONS, context: "declarationList" });
  prune(tree);
  return generate(tree);
}

/** Whether one CSS value (a presentation attribute such as `fill` or `filter`) loads nothing: `url(#id)` is fine. */
export function valueLoadsNothing(value: string): boolean {
  try {
    return !loads(parse(value, { ...PARSE_OPTIONS, context: "value" }));
  } catch {
    return false;
  }
}
