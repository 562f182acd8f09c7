// glob and grep written once over a tiny view of a file system, so every sandbox provider answers them alike
// (DeerFlow's rules: results sorted, grep skips files over 1 MB and shortens a line to 200 characters).
import { minimatch } from "minimatch";
import type { GrepMatch, GrepOptions } from "./sandbox.ts";

/** What glob and grep need from a provider; paths are absolute. */
export interface SearchableFiles {
  /** Absolute paths of the entries directly inside `dir`. */
  list(dir: string): Promise<string[]>;
  /** Undefined when nothing is at the path. */
  stat(path: string): Promise<{ type: "file" | "directory"; size: number } | undefined>;
  read(path: string): Promise<Uint8Array>;
}

export const GLOB_DEFAULT_MAX = 200;
export const GLOB_MAX = 1000;
export const GREP_DEFAULT_MAX = 100;
export const GREP_MAX = 500;
export const GREP_MAX_FILE_BYTES = 1024 * 1024;
export const GREP_MAX_LINE = 200;

/** Folders nobody wants searched (DeerFlow's ignore list, abridged). */
const IGNORED_DIRS = new Set([".git", "node_modules", "__pycache__", ".venv", "venv", ".cache", ".next"]);

async function walk(
  files: SearchableFiles,
  root: string,
  visit: (path: string, type: "file" | "directory", size: number) => Promise<boolean>,
): Promise<void> {
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.shift() as string;
    for (const path of (await files.list(dir)).sort()) {
      const stat = await files.stat(path);
      if (!stat) continue;
      if (stat.type === "directory" && IGNORED_DIRS.has(path.slice(path.lastIndexOf("/") + 1))) continue;
      if (!(await visit(path, stat.type, stat.size))) return;
      if (stat.type === "directory") pending.push(path);
    }
  }
}

function relative(root: string, path: string): string {
  return path.slice(root === "/" ? 1 : root.length + 1);
}

function clampMax(value: number | undefined, fallback: number, cap: number): number {
  if (value === undefined || !Number.isFinite(value) || value < 1) return fallback;
  return Math.min(Math.floor(value), cap);
}

/** Paths under `root` whose path relative to it matches `pattern` (e.g. `**\/*.py`), sorted. */
export async function globFiles(
  files: SearchableFiles,
  pattern: string,
  root: string,
  options: { includeDirs?: boolean; maxResults?: number } = {},
): Promise<string[]> {
  const max = clampMax(options.maxResults, GLOB_DEFAULT_MAX, GLOB_MAX);
  const found: string[] = [];
  await walk(files, root, async (path, type) => {
    if ((type === "file" || options.includeDirs) && minimatch(relative(root, path), pattern, { dot: true })) {
      found.push(path);
    }
    return true;
  });
  return found.sort().slice(0, max);
}

/**
 * Lines matching `pattern` (a regular expression unless `literal`; case-insensitive unless `caseSensitive`) in the
 * file `root` or in the text files under it. Throws a readable error for an invalid regular expression.
 */
export async function grepFiles(
  files: SearchableFiles,
  pattern: string,
  root: string,
  options: GrepOptions = {},
): Promise<GrepMatch[]> {
  const max = clampMax(options.maxResults, GREP_DEFAULT_MAX, GREP_MAX);
  const source = options.literal ? pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : pattern;
  let regex: RegExp;
  try {
    regex = new RegExp(source, options.caseSensitive ? "" : "i");
  } catch (error) {
    throw new Error(`Invalid regex pattern: ${(error as Error).message}`, { cause: error });
  }
  const matches: GrepMatch[] = [];
  const search = async (path: string, size: number): Promise<boolean> => {
    if (size > GREP_MAX_FILE_BYTES) return true;
    const bytes = await files.read(path);
    if (bytes.subarray(0, 8000).includes(0)) return true;
    const lines = new TextDecoder().decode(bytes).split("\n");
    for (const [index, line] of lines.entries()) {
      if (!regex.test(line)) continue;
      const text = line.replace(/\r$/, "");
      matches.push({
        path,
        line: index + 1,
        text: text.length > GREP_MAX_LINE ? `${text.slice(0, GREP_MAX_LINE)}…` : text,
      });
      if (matches.length >= max) return false;
    }
    return true;
  };
  const rootStat = await files.stat(root);
  if (rootStat?.type === "file") {
    await search(root, rootStat.size);
    return matches;
  }
  await walk(files, root, async (path, type, size) => {
    if (type !== "file") return true;
    if (options.glob && !minimatch(relative(root, path), options.glob, { dot: true, matchBase: true })) return true;
    return search(path, size);
  });
  return matches;
}
