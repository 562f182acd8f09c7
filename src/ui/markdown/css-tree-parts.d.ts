// css-tree's parts, imported one by one so the bundle takes the parser, walker and generator without the lexer and
// its data: @types/css-tree types the package's main entry only.
declare module "css-tree/parser" {
  import type { parse } from "css-tree";
  const parser: typeof parse;
  export default parser;
}

declare module "css-tree/walker" {
  import type { walk } from "css-tree";
  const walker: typeof walk;
  export default walker;
}

declare module "css-tree/generator" {
  import type { generate } from "css-tree";
  const generator: typeof generate;
  export default generator;
}

declare module "css-tree/utils" {
  export { ident } from "css-tree";
}
