// Reads the built app in dist/: which files the page loads first, and which make up the agent worker.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { gzipSync } from "node:zlib";
import { init, parse } from "es-module-lexer";

await init();

/** The built app: dist/, or FAWN_DIST (a build made with --outDir elsewhere). */
export const DIST = process.env.FAWN_DIST ?? join(process.cwd(), "dist");

function read(file: string): string {
  return readFileSync(join(DIST, file), "utf8");
}

/** Every import specifier of an ES chunk, static and dynamic, as a real lexer sees them (not strings in code). */
export function importSpecifiers(file: string): { specifier: string; dynamic: boolean }[] {
  return importSpecifiersOf(read(file));
}

/** The import specifiers of ES module source code. */
export function importSpecifiersOf(code: string): { specifier: string; dynamic: boolean }[] {
  const [imports] = parse(code);
  return imports.flatMap((entry) =>
    entry.type === "static" || entry.type === "reexport-star" || entry.type === "dynamic"
      ? entry.specifier === undefined
        ? []
        : [{ specifier: entry.specifier, dynamic: entry.type === "dynamic" }]
      : [],
  );
}

/** Chunks an ES chunk imports statically, as paths relative to dist/. */
export function staticImports(file: string): string[] {
  return importSpecifiers(file)
    .filter((entry) => !entry.dynamic && entry.specifier.startsWith("."))
    .map((entry) => posix.join(posix.dirname(file), entry.specifier));
}

/** `roots` plus every chunk they import statically, transitively. */
export function withStaticImports(roots: string[]): string[] {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (file.endsWith(".js")) queue.push(...staticImports(file));
  }
  return [...seen];
}

/** What index.html makes the browser fetch before any worker starts: scripts, modulepreloads, stylesheets. */
export function initialFiles(): string[] {
  if (!existsSync(join(DIST, "index.html"))) throw new Error("dist/index.html is missing: run `npm run build` first.");
  const html = read("index.html");
  const roots: string[] = [];
  const pattern = /<(?:script[^>]*\bsrc|link[^>]*\bhref)="\/?([^"]+\.(?:js|css))"/g;
  for (const match of html.matchAll(pattern)) roots.push(match[1]!);
  return withStaticImports(roots);
}

/** A worker's entry chunk (`assets/<name>.worker-*.js`) and everything it imports statically. */
export function workerFiles(name = "agent"): string[] {
  const pattern = new RegExp(`^${name}\\.worker-[\\w-]+\\.js$`);
  const entries = readdirSync(join(DIST, "assets"))
    .filter((file) => pattern.test(file))
    .map((file) => `assets/${file}`);
  if (entries.length === 0) throw new Error(`No ${name} worker chunk (assets/${name}.worker-*.js) in dist/.`);
  return withStaticImports(entries);
}

export function fileText(file: string): string {
  return read(file);
}

export function allScripts(): string[] {
  return readdirSync(join(DIST, "assets"))
    .filter((name) => name.endsWith(".js"))
    .map((name) => `assets/${name}`);
}

/** A built file's size gzipped at level 9, in bytes: what `npm run size` counts against size-budgets.json. */
export function gzipSize(file: string): number {
  return gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;
}
