// The first screen's English (en.ts) holds every key a first-screen module uses, and each lazily loaded chunk has the
// English parts it shows (en-settings.ts, en-models-tools.ts: they add themselves as they load) before it renders: no
// text is ever shown empty. Follows the page's modules from src/ui/main.tsx as the bundler does (static imports are
// loaded with their importer, `import("…")` starts a chunk) and reads the keys each module names: a string that is a
// key (or a plural's base, for `tn`), or the start of keys (`t(\`appearance.permission.${state}\`)`).
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { en } from "./en.ts";
import { enAll } from "./en-all.ts";
import { enModelsTools } from "./en-models-tools.ts";
import { enSettings } from "./en-settings.ts";
import { enSchedules } from "./en-schedules.ts";
import { enThreadLogs } from "./en-thread-logs.ts";
import { locale, setLanguage, t } from "./index.ts";

/** The source files, by path from the repository's root ("/src/ui/app.tsx"). */
const SOURCES = import.meta.glob<string>(["/src/**/*.ts", "/src/**/*.tsx", "!**/*.test.ts", "!**/*.test.tsx"], {
  query: "?raw",
  import: "default",
  eager: true,
});

/** `path` from the directory `from`, as SOURCES names files ("./", "../" and all). */
function resolve(from: string, path: string): string {
  const parts = from.split("/");
  for (const part of path.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  return parts.join("/");
}

const dirname = (file: string) => file.slice(0, file.lastIndexOf("/"));
const HERE = "/src/ui/i18n";
const MAIN = "/src/ui/main.tsx";

/** The English parts loaded later, by file: a chunk that imports one (statically) has its keys. */
const PARTS = new Map<string, Record<string, unknown>>([
  [resolve(HERE, "en-settings.ts"), enSettings],
  [resolve(HERE, "en-models-tools.ts"), enModelsTools],
  [resolve(HERE, "en-thread-logs.ts"), enThreadLogs],
  [resolve(HERE, "en-schedules.ts"), enSchedules],
]);

interface ModuleFacts {
  /** Modules loaded with this one: imports that are not `import type`. */
  imports: string[];
  /** Modules this one loads later, with `import("…")`: each starts a chunk. */
  lazy: string[];
  /** Its string literals, and the text before the first `${` of its template literals. */
  strings: string[];
  prefixes: string[];
}

const facts = new Map<string, ModuleFacts>();

/** A relative specifier as a source file of ours (TypeScript); undefined for packages, CSS and the like. */
function sourceFile(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const file = resolve(dirname(from), specifier.replace(/\?.*$/, ""));
  return file in SOURCES ? file : undefined;
}

function factsOf(file: string): ModuleFacts {
  const known = facts.get(file);
  if (known) return known;
  const found: ModuleFacts = { imports: [], lazy: [], strings: [], prefixes: [] };
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, SOURCES[file]!, ts.ScriptTarget.Latest, true, kind);
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      // With verbatimModuleSyntax only a whole `import type`/`export type` goes away; `{ type X }` still loads it.
      const typeOnly = ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly === true : node.isTypeOnly;
      const target =
        node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)
          ? sourceFile(file, node.moduleSpecifier.text)
          : undefined;
      if (target && !typeOnly) found.imports.push(target);
      return;
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      const target = argument && ts.isStringLiteral(argument) ? sourceFile(file, argument.text) : undefined;
      if (target) found.lazy.push(target);
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.strings.push(node.text);
    if (ts.isTemplateHead(node)) found.prefixes.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  facts.set(file, found);
  return found;
}

/** `root` and every module it imports statically, transitively: what loads with it. */
function loadedWith(root: string): Set<string> {
  const seen = new Set<string>();
  const queue = [root];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...factsOf(file).imports);
  }
  return seen;
}

const keys = Object.keys(enAll);

/** The dictionary keys a module names. */
function keysUsedBy(file: string): string[] {
  const { strings, prefixes } = factsOf(file);
  const used = new Set<string>();
  for (const text of strings) {
    if (text in enAll) used.add(text);
    for (const form of [".one", ".other"]) if (`${text}${form}` in enAll) used.add(`${text}${form}`);
    if (text.endsWith(".") && text.length > 2) for (const key of keys) if (key.startsWith(text)) used.add(key);
  }
  for (const prefix of prefixes)
    if (prefix.includes(".")) for (const key of keys) if (key.startsWith(prefix)) used.add(key);
  return [...used];
}

/** The page's chunks: main.tsx's, and one per module some loaded module imports with `import("…")`. */
function chunks(): Map<string, { modules: Set<string>; openedFrom: Set<string> }> {
  const found = new Map<string, { modules: Set<string>; openedFrom: Set<string> }>();
  const queue: [string, string | undefined][] = [[MAIN, undefined]];
  while (queue.length > 0) {
    const [root, from] = queue.pop()!;
    const known = found.get(root);
    if (known) {
      if (from) known.openedFrom.add(from);
      continue;
    }
    const modules = loadedWith(root);
    found.set(root, { modules, openedFrom: new Set(from ? [from] : []) });
    for (const file of modules) for (const target of factsOf(file).lazy) queue.push([target, file]);
  }
  return found;
}

/**
 * The English parts each chunk can count on: those it loads itself, and those every way of opening it has loaded
 * already (a chunk opened only from within Settings has Settings' parts). The largest such sets, found by narrowing
 * from "all" until nothing changes; main.tsx's chunk counts on nothing but its own.
 */
function partsAvailable(
  found: Map<string, { modules: Set<string>; openedFrom: Set<string> }>,
): Map<string, Set<string>> {
  const own = (root: string) => new Set([...PARTS.keys()].filter((part) => found.get(root)!.modules.has(part)));
  const available = new Map([...found.keys()].map((root) => [root, root === MAIN ? own(root) : new Set(PARTS.keys())]));
  for (let changed = true; changed;) {
    changed = false;
    for (const [root, chunk] of found) {
      if (root === MAIN) continue;
      const next = own(root);
      const inherited = [...chunk.openedFrom].map((from) => {
        // The parts certain wherever `from` was loaded: in each chunk that holds it.
        const holders = [...found]
          .filter(([, other]) => other.modules.has(from))
          .map(([other]) => available.get(other)!);
        return new Set([...PARTS.keys()].filter((part) => holders.every((parts) => parts.has(part))));
      });
      for (const part of PARTS.keys()) if (inherited.every((parts) => parts.has(part))) next.add(part);
      if (next.size !== available.get(root)!.size) {
        available.set(root, next);
        changed = true;
      }
    }
  }
  return available;
}

/** Modules of the dictionaries themselves name every key; they are not where texts are shown. */
const shows = (file: string) => !file.startsWith(`${HERE}/`);
const name = (file: string) => file.slice(1);

describe("the English each chunk shows", () => {
  const found = chunks();
  const available = partsAvailable(found);
  const firstScreen = found.get(MAIN)!.modules;

  it("finds the page's modules and the keys they use (the check itself works)", () => {
    expect(firstScreen.has(resolve(HERE, "../app.tsx"))).toBe(true);
    const settings = found.get(resolve(HERE, "../settings/settings-dialog.tsx"));
    expect(settings).toBeDefined();
    const firstScreenKeys = new Set([...firstScreen].filter(shows).flatMap(keysUsedBy));
    expect(firstScreenKeys.size).toBeGreaterThan(200);
    expect(firstScreenKeys.has("composer.send")).toBe(true);
    const settingsKeys = new Set([...settings!.modules].filter(shows).flatMap(keysUsedBy));
    expect(settingsKeys.has("settings.title")).toBe(true);
    expect(settingsKeys.has("appearance.permission.granted")).toBe(true);
  });

  it("keeps the Settings dialog's English out of the first screen", () => {
    expect([...PARTS.keys()].filter((part) => firstScreen.has(part)).map(name)).toEqual([]);
  });

  it("has every key a first-screen module uses in the first screen's English (en.ts)", () => {
    const missing = [...firstScreen]
      .filter(shows)
      .flatMap((file) => keysUsedBy(file).flatMap((key) => (key in en ? [] : [`${name(file)}: ${key}`])));
    expect(missing).toEqual([]);
  });

  it("has every key a lazily loaded module uses in the first screen's English or a part its chunk has loaded", () => {
    const missing = [...found].flatMap(([root, chunk]) => {
      const parts = [...available.get(root)!].map((part) => PARTS.get(part)!);
      return [...chunk.modules]
        .filter((file) => shows(file) && !firstScreen.has(file))
        .flatMap((file) =>
          keysUsedBy(file)
            .filter((key) => !(key in en) && !parts.some((part) => key in part))
            .map((key) => `${name(file)} (chunk of ${name(root)}): ${key}`),
        );
    });
    expect(missing).toEqual([]);
  });

  it("has each key once: in en.ts's parts or in a part loaded later, not both", () => {
    const both = [...PARTS.values()].flatMap((part) => Object.keys(part).filter((key) => key in en));
    expect(both).toEqual([]);
  });
});

describe("addEnglish", () => {
  it("makes a loaded part's texts readable in English", async () => {
    await setLanguage("en", { setItem: () => undefined });
    expect(locale()).toBe("en");
    // This file imports en-settings.ts and en-models-tools.ts, as the Settings dialog's chunk does.
    expect(t("settings.title")).toBe("Settings");
    expect(t("appearance.theme")).toBe("Theme");
  });
});
