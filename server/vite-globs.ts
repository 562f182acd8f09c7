// Lets Node run the src/ modules that use Vite's build-time `import.meta.glob` (the shipped skills' files, read as
// text): a module loader hook (node:module register) that replaces an eager `?raw` glob with the files it names, read
// from disk when the module loads — what Vite writes into the bundle. main.ts registers it before importing src/.
// Only the form src/ uses is taken (`"<dir>/**/*"`, `{ query: "?raw", import: "default", eager: true }`); any other
// glob fails loudly rather than silently giving nothing.
import { readdirSync, readFileSync, type Dirent } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

interface LoadResult {
  format?: string | null;
  source?: string | ArrayBuffer | Uint8Array | null;
  shortCircuit?: boolean;
}
type NextLoad = (url: string, context: unknown) => Promise<LoadResult>;

const GLOB_CALL = /import\.meta\.glob(?:<[^>(]*>)?\(\s*(["'])([^"']+)\1\s*,\s*\{([^}]*)\}\s*\)/g;

/** Node's `load` hook: modules under src/ that call import.meta.glob get the files inlined. */
export async function load(url: string, context: unknown, nextLoad: NextLoad): Promise<LoadResult> {
  const result = await nextLoad(url, context);
  if (!url.startsWith("file:") || url.includes("/node_modules/") || result.source == null) return result;
  const source = typeof result.source === "string" ? result.source : new TextDecoder().decode(result.source);
  if (!source.includes("import.meta.glob")) return result;
  return { ...result, source: inlineGlobs(source, fileURLToPath(url)) };
}

/** `source` with each eager `?raw` glob replaced by an object literal of the matching files' text. */
export function inlineGlobs(source: string, file: string): string {
  return source.replace(GLOB_CALL, (_call, _quote: string, pattern: string, options: string) => {
    const eagerRaw = /query:\s*["']\?raw["']/.test(options) && /eager:\s*true/.test(options);
    const folder = pattern.endsWith("/**/*") ? pattern.slice(0, -"/**/*".length) : undefined;
    if (!eagerRaw || !folder) {
      throw new Error(`${file}: only eager "?raw" globs of "<dir>/**/*" run on Node, not ${pattern}.`);
    }
    const root = path.resolve(path.dirname(file), folder);
    const entries = (readdirSync(root, { recursive: true, withFileTypes: true }) as Dirent[])
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const absolute = path.join(entry.parentPath, entry.name);
        const key = `${folder}/${path.relative(root, absolute).split(path.sep).join("/")}`;
        return [key, readFileSync(absolute, "utf8")] as const;
      })
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return JSON.stringify(Object.fromEntries(entries));
  });
}
