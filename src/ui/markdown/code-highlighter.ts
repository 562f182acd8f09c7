// highlight.js for code in messages: the core and each language's grammar load on first use, one chunk per grammar.
import type { HLJSApi, LanguageFn } from "highlight.js";
import { CODE_LANGUAGES, type CodeLanguage } from "../shared/artifact-kinds.ts";

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

/** Info strings models write on code fences, beyond the grammar names themselves. */
const FENCE_ALIASES: Readonly<Record<string, CodeLanguage>> = {
  sh: "bash",
  shell: "bash",
  zsh: "bash",
  console: "bash",
  h: "c",
  "c++": "cpp",
  cc: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  cs: "csharp",
  "c#": "csharp",
  patch: "diff",
  docker: "dockerfile",
  golang: "go",
  gql: "graphql",
  toml: "ini",
  conf: "ini",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  node: "javascript",
  jsonc: "json",
  json5: "json",
  kt: "kotlin",
  kts: "kotlin",
  make: "makefile",
  mk: "makefile",
  md: "markdown",
  pl: "perl",
  ps1: "powershell",
  pwsh: "powershell",
  py: "python",
  python3: "python",
  rb: "ruby",
  rs: "rust",
  ts: "typescript",
  tsx: "typescript",
  mts: "typescript",
  cts: "typescript",
  html: "xml",
  htm: "xml",
  svg: "xml",
  xhtml: "xml",
  yml: "yaml",
};

/** The grammar for a code fence's info string (`ts`, `Python`, `c++ title="x"`), if Fawn highlights it. */
export function fenceLanguage(info: string | undefined): CodeLanguage | undefined {
  const name = info?.trim().split(/\s+/)[0]?.toLowerCase();
  if (!name) return undefined;
  if ((CODE_LANGUAGES as readonly string[]).includes(name)) return name as CodeLanguage;
  return FENCE_ALIASES[name];
}

let core: Promise<HLJSApi> | undefined;

/** highlight.js with `language` registered; rejects when a chunk cannot load (say, offline before it was cached). */
export async function loadHighlighter(language: CodeLanguage): Promise<HLJSApi> {
  core ??= import("highlight.js/lib/core").then(
    (module) => module.default,
    (error: unknown) => {
      core = undefined; // try again next time: the network may be back
      throw error;
    },
  );
  const hljs = await core;
  if (!hljs.getLanguage(language)) hljs.registerLanguage(language, (await GRAMMARS[language]()).default);
  return hljs;
}
