// Which built files belong to a lazy group (src/protocol/lazy-parts.ts) rather than to the service worker's install
// download: vite.config.ts marks them in the precache manifest (`lazyPartsTransform`), `npm run size` budgets what is
// left, and the benchmark reports both.
import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { gzipSync } from "node:zlib";
import type { LazyGroup, ManifestEntry } from "../src/protocol/lazy-parts.ts";
import { importSpecifiersOf } from "./dist-graph.ts";

/**
 * What puts a file in a group. `prefix`: every file under that folder of the build. `packages`: the chunks built from
 * these packages (their source map lists a file under `node_modules/<package>/`) and every file only they lead to.
 */
export const GROUP_RULES: Record<LazyGroup, { prefix?: string; packages?: string[] }> = {
  // css-tree: the reader of a diagram's CSS (src/ui/markdown/diagram-css.ts), loaded only with mermaid.
  diagrams: { packages: ["mermaid", "@mermaid-js/", "css-tree"] },
  pdf: { packages: ["pdfjs-dist"] },
  python: { prefix: "pyodide/" },
  "on-device": { packages: ["@wllama/wllama"] },
};

/** Reads a built file as text (undefined when it is not there), by its path relative to the build's folder. */
export type ReadText = (file: string) => string | undefined;
/** Reads a built chunk's source map's `sources` (undefined without a map). */
export type ReadSources = (file: string) => string[] | undefined;

/** Files whose text can name other built files. */
const TEXT = /\.(?:js|mjs|css|html|webmanifest)$/;
/** A built file's name as code or markup quotes it, alone or after a folder (chunks are named `<name>-<hash>.<ext>`). */
const FILE_NAME = /(?<=["'`/])[\w.-]+\.(?:js|mjs|css|html|wasm|zip|json|png|svg|webmanifest)(?=["'`?#])/g;

/**
 * Vite's list of what each dynamic import preloads (`__vite__mapDeps`): every chunk the imported one imports statically,
 * named where the import is made. Those chunks are reached through the imported chunk's own imports, so the list is no
 * lead of its own (through it, the page's Markdown chunk would name every chunk mermaid imports).
 */
const PRELOAD_LIST = /m\.f\|\|\(m\.f=\[[^\]]*\]\)/g;

/** The built files each file names (a static or dynamic import, a worker's URL, a script tag), preload lists aside. */
export function mentions(files: string[], read: ReadText): Map<string, Set<string>> {
  const byName = new Map<string, string[]>();
  for (const file of files) byName.set(posix.basename(file), [...(byName.get(posix.basename(file)) ?? []), file]);
  const edges = new Map<string, Set<string>>();
  for (const file of files) {
    const named = new Set<string>();
    const text = TEXT.test(file) ? read(file)?.replace(PRELOAD_LIST, "") : undefined;
    for (const match of text?.matchAll(FILE_NAME) ?? []) {
      for (const target of byName.get(match[0]) ?? []) if (target !== file) named.add(target);
    }
    edges.set(file, named);
  }
  return edges;
}

/** Whether `file`'s source map lists a source from one of `packages`. */
function builtFrom(file: string, packages: string[], sources: ReadSources): boolean {
  if (!file.endsWith(".js") || packages.length === 0) return false;
  return (sources(file) ?? []).some((source) => packages.some((name) => source.includes(`node_modules/${name}`)));
}

/**
 * Each lazy file's group. A package group holds the chunks built from its packages and what only they lead to: a file
 * the rest of the app reaches without passing through such a chunk stays in the install download, so the app works
 * offline before any lazy file is cached. A file two groups lead to goes to the first in GROUP_RULES.
 */
export function lazyGroups(files: string[], read: ReadText, sources: ReadSources): Map<string, LazyGroup> {
  const groups = new Map<string, LazyGroup>();
  const rules = Object.entries(GROUP_RULES) as [LazyGroup, (typeof GROUP_RULES)[LazyGroup]][];
  for (const [group, rule] of rules) {
    if (rule.prefix === undefined) continue;
    for (const file of files) if (file.startsWith(rule.prefix) && !groups.has(file)) groups.set(file, group);
  }
  const rest = files.filter((file) => !groups.has(file));
  const seeds = new Map<LazyGroup, string[]>(
    rules.map(([group, rule]) => [group, rest.filter((file) => builtFrom(file, rule.packages ?? [], sources))]),
  );
  const seedSet = new Set([...seeds.values()].flat());
  const edges = mentions(rest, read);
  const named = new Set([...edges.values()].flatMap((set) => [...set]));
  // The app: the documents, and every file nothing names (the manifest, icons), and what they lead to short of a seed.
  const core = reach(
    rest.filter((file) => !seedSet.has(file) && (file.endsWith(".html") || !named.has(file))),
    edges,
    seedSet,
  );
  for (const [group, groupSeeds] of seeds) {
    for (const file of reach(groupSeeds, edges, new Set())) {
      if (!core.has(file) && !groups.has(file)) groups.set(file, group);
    }
  }
  // A lazy chunk the app imports statically would be needed at its start, offline too: a build error, not a split.
  for (const file of core) {
    if (!file.endsWith(".js")) continue;
    for (const { specifier, dynamic } of importSpecifiersOf(read(file) ?? "")) {
      const target = posix.join(posix.dirname(file), specifier);
      if (!dynamic && groups.has(target)) {
        throw new Error(`${file} imports ${target} (lazy group "${groups.get(target)}") statically`);
      }
    }
  }
  return groups;
}

/** The files reachable from `roots` along `edges`, never entering `stop`. */
function reach(roots: string[], edges: Map<string, Set<string>>, stop: Set<string>): Set<string> {
  const seen = new Set<string>();
  const queue = roots.filter((file) => !stop.has(file));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const next of edges.get(file) ?? []) if (!stop.has(next) && !seen.has(next)) queue.push(next);
  }
  return seen;
}

/**
 * A workbox `manifestTransforms` entry (vite.config.ts): marks each lazy file's entry with its group, read from the
 * build in `dir`. The service worker precaches the unmarked entries only.
 */
export function lazyPartsTransform(dir: string) {
  return (entries: { url: string; revision: string | null; size: number }[]) => {
    const groups = lazyGroups(
      entries.map((entry) => entry.url),
      (file) => readText(join(dir, file)),
      (file) => readSources(join(dir, `${file}.map`)),
    );
    const manifest = entries.map((entry) => {
      const group = groups.get(entry.url);
      return group === undefined ? entry : { ...entry, lazy: group };
    });
    return { manifest, warnings: [] as string[] };
  };
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** A source map's `sources`, read without parsing its (much larger) `sourcesContent` and `mappings`. */
export function readSources(path: string): string[] | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  const start = bytes.indexOf('"sources":');
  if (start < 0) return undefined;
  const end = bytes.indexOf("]", start);
  try {
    return JSON.parse(bytes.subarray(start + '"sources":'.length, end + 1).toString("utf8")) as string[];
  } catch {
    return undefined;
  }
}

/** The manifest injected into a built service worker (`self.__WB_MANIFEST`, replaced by JSON objects at build). */
export function injectedManifest(serviceWorker: string): ManifestEntry[] {
  const entries: ManifestEntry[] = [];
  for (const match of serviceWorker.matchAll(/\{"[^{}]*"url":"[^"]*"[^{}]*\}/g)) {
    let entry: Partial<ManifestEntry>;
    try {
      entry = JSON.parse(match[0]) as Partial<ManifestEntry>;
    } catch {
      continue;
    }
    if (typeof entry.url === "string" && entry.revision !== undefined) entries.push(entry as ManifestEntry);
  }
  if (entries.length === 0) throw new Error("No precache manifest in the service worker: was it built?");
  return entries;
}

/** A built app's install download and lazy groups, in bytes: each file gzipped at level 9, and as built. */
export interface PrecacheSizes {
  precache: { files: number; gzip: number; raw: number };
  lazy: Record<LazyGroup, { files: number; gzip: number; raw: number }>;
}

/** Sizes of the build in `dist`, as its service worker's manifest splits it (a build before the split: all precached). */
export function precacheSizes(dist: string): PrecacheSizes {
  const entries = injectedManifest(readFileSync(join(dist, "service-worker.js"), "utf8"));
  const empty = () => ({ files: 0, gzip: 0, raw: 0 });
  const sizes: PrecacheSizes = {
    precache: empty(),
    lazy: { diagrams: empty(), pdf: empty(), python: empty(), "on-device": empty() },
  };
  for (const entry of entries) {
    const bytes = readFileSync(join(dist, entry.url.split("?")[0]!));
    const sum = entry.lazy === undefined ? sizes.precache : sizes.lazy[entry.lazy];
    sum.files += 1;
    sum.raw += bytes.length;
    sum.gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return sizes;
}
