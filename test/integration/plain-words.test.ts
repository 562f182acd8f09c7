// Issue 28, item 12: a person who has never opened a terminal understands every sentence Fawn shows. The dictionaries
// and the messages the Gateway, the model clients and the web tools build carry no developer's commands or pointers
// to the repository's files; where a command is worth showing (the proxy's, in Settings → Web) the page passes it in,
// labelled for developers.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { enAll as en } from "../../src/ui/i18n/en-all.ts";
import { zhCN } from "../../src/ui/i18n/zh-cn.ts";

/** Words that speak to a developer at a terminal, or point into the source repository. */
const DEVELOPER_WORDS = [
  /\bnpm run\b/i,
  /\bnpx\b/,
  /\b(pnpm|yarn)\b/,
  /\bREADME\b/,
  /\bmock-llm\b/,
  /\bnode_modules\b/,
  /\bpackage\.json\b/,
  /\bgit clone\b/,
  /\bdocs\/\w/,
];

function developerWordsIn(text: string): string[] {
  return DEVELOPER_WORDS.filter((word) => word.test(text)).map(String);
}

describe.each([
  ["en", en],
  ["zh-CN", zhCN],
])("the %s dictionary", (_, dictionary) => {
  it("speaks without developer words", () => {
    const found = Object.entries(dictionary as Record<string, string>).flatMap(([key, text]) =>
      developerWordsIn(text).map((word) => `${key}: ${word}`),
    );
    expect(found).toEqual([]);
  });
});

/** The text of every string and template literal of a TypeScript file (module paths left out). */
function stringLiterals(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, false);
  const texts: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) texts.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return texts;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("messages built outside the dictionaries", () => {
  // What reaches the page as an error or a notice: the Gateway's refusals, the model clients' and web tools' errors.
  const roots = ["src/gateway", "src/models", "src/agent/tools/web", "src/protocol", "src/ui"];
  it.each(roots)("in %s speak without developer words", (root) => {
    const found = sourceFiles(root).flatMap((path) =>
      stringLiterals(path).flatMap((literal) =>
        developerWordsIn(literal).map((word) => `${path}: ${word} in ${literal.slice(0, 80)}`),
      ),
    );
    expect(found).toEqual([]);
  });
});
