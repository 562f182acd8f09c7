// The agent's sandbox tools with DeerFlow's argument schemas and output limits (deerflow-inventory.md §5.2):
// bash, ls, read_file, write_file, str_replace, glob and grep. Each acquires the thread's sandbox lazily, on its
// first call.
import { tool } from "langchain";
import { z } from "zod";
import { GLOB_DEFAULT_MAX, GLOB_MAX, GREP_DEFAULT_MAX, GREP_MAX } from "../../sandbox/file-search.ts";
import type { Sandbox, SandboxEntry } from "../../sandbox/sandbox.ts";
import { isQuotaError } from "../../storage/index.ts";
import {
  BASH_OUTPUT_MAX_CHARS,
  LS_OUTPUT_MAX_CHARS,
  READ_FILE_OUTPUT_MAX_CHARS,
  truncateHead,
  truncateMiddle,
} from "./output-limits.ts";

/** Non-append writes above this many UTF-8 bytes are refused, as DeerFlow does, so a reply is not cut mid-file. */
export const WRITE_FILE_MAX_BYTES = 80 * 1024;
/** How long one bash call may run. */
export const BASH_TIMEOUT_MS = 120_000;

/** Folders and files `ls` leaves out (DeerFlow's ignore list). */
const LS_IGNORED = [
  /^\.git$/,
  /^node_modules$/,
  /^__pycache__$/,
  /^\.venv$/,
  /^venv$/,
  /^\.env$/,
  /^dist$/,
  /^build$/,
  /^\.next$/,
  /^target$/,
  /^out$/,
  /^\.idea$/,
  /^\.vscode$/,
  /\.log$/,
  /\.tmp$/,
  /^\.upload-.*\.part$/,
  /^logs$/,
  /^coverage$/,
  /^\.cache$/,
  /^\.DS_Store$/,
];

const description = z
  .string()
  .describe("Explain in a few words why you are running this tool. ALWAYS PROVIDE THIS PARAMETER FIRST.");

/**
 * Tool output for an error: DeerFlow's `Error: …` form. A full storage is rethrown: nothing more can be saved, so it
 * ends the run with the storage-full sentence (the run executor) instead of letting the model go on.
 */
function failure(error: unknown): string {
  if (isQuotaError(error)) throw error;
  return `Error: ${error instanceof Error ? error.message : String(error)}`;
}

/** bash's combined output: stdout, then stderr, then the exit code when it is not 0. */
export function formatCommandOutput(result: { stdout: string; stderr: string; exitCode: number }): string {
  const parts = [result.stdout, result.stderr].filter((part) => part.length > 0).map((part) => part.replace(/\n$/, ""));
  if (result.exitCode !== 0) parts.push(`[exit code ${result.exitCode}]`);
  return parts.length > 0 ? parts.join("\n") : "(no output)";
}

async function tree(sandbox: Sandbox, path: string): Promise<string[]> {
  const lines: string[] = [];
  const visible = (entry: SandboxEntry) => !LS_IGNORED.some((pattern) => pattern.test(entry.name));
  for (const entry of (await sandbox.list(path)).filter(visible)) {
    lines.push(entry.type === "directory" ? `${entry.path}/` : entry.path);
    if (entry.type !== "directory") continue;
    for (const child of (await sandbox.list(entry.path)).filter(visible)) {
      lines.push(child.type === "directory" ? `${child.path}/` : child.path);
    }
  }
  return lines;
}

/** Line range of a text, DeerFlow's rules: 1-based, inclusive, an end past the last line clamps. */
export function selectLines(text: string, startLine?: number, endLine?: number): string {
  if (startLine === undefined && endLine === undefined) return text;
  if (startLine !== undefined && startLine < 1) return "(start_line must be >= 1)";
  if (endLine !== undefined && endLine < 1) return "(end_line must be >= 1)";
  const start = startLine ?? 1;
  if (endLine !== undefined && start > endLine) return "(start_line > end_line — no lines in range)";
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  if (start > lines.length) return "(start_line exceeds file length)";
  return lines.slice(start - 1, endLine ?? lines.length).join("\n");
}

function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

export function createSandboxTools(getSandbox: () => Promise<Sandbox>) {
  const bash = tool(
    async ({ command }, config) => {
      try {
        const sandbox = await getSandbox();
        const result = await sandbox.run(command, {
          timeoutMs: BASH_TIMEOUT_MS,
          ...(config?.signal && { signal: config.signal }),
        });
        return truncateMiddle(formatCommandOutput(result), BASH_OUTPUT_MAX_CHARS);
      } catch (error) {
        return failure(error);
      }
    },
    {
      name: "bash",
      description:
        "Run a bash command line in the thread's sandbox. The working directory is /mnt/user-data/workspace. " +
        "In the browser sandbox (the default): coreutils, grep, sed, awk, jq, find, tar and python3 (standard " +
        "library; numpy, pandas and matplotlib when online), no network, no package installer, no node. " +
        "In WebContainer (when the user chose it): node and npm, no python. " +
        "Save files the user should get under /mnt/user-data/outputs.",
      schema: z.object({ description, command: z.string().describe("The bash command line to run.") }),
    },
  );

  const ls = tool(
    async ({ path }) => {
      try {
        const lines = await tree(await getSandbox(), path);
        if (lines.length === 0) return "(empty)";
        return truncateHead(lines.join("\n"), LS_OUTPUT_MAX_CHARS, "Use a more specific path to see fewer results");
      } catch (error) {
        return failure(error);
      }
    },
    {
      name: "ls",
      description: "List a directory as a tree, two levels deep, with absolute paths; folders end with '/'.",
      schema: z.object({ description, path: z.string().describe("Absolute path of the directory to list.") }),
    },
  );

  const readFile = tool(
    async ({ path, start_line, end_line }) => {
      try {
        const bytes = await (await getSandbox()).readFile(path);
        if (looksBinary(bytes)) {
          return `Error: ${path} is a binary file. Read it with python3 (e.g. pandas for spreadsheets) or view_image for pictures.`;
        }
        const text = new TextDecoder().decode(bytes);
        if (text.length === 0) return "(empty)";
        return truncateHead(
          selectLines(text, start_line ?? undefined, end_line ?? undefined),
          READ_FILE_OUTPUT_MAX_CHARS,
          "Use start_line/end_line to read a specific range",
        );
      } catch (error) {
        return failure(error);
      }
    },
    {
      name: "read_file",
      description: "Read a text file. Use start_line and end_line (1-based, inclusive) to read part of a long file.",
      schema: z.object({
        description,
        path: z.string().describe("Absolute path of the file."),
        start_line: z.number().int().nullish().describe("First line to read (1-based)."),
        end_line: z.number().int().nullish().describe("Last line to read (1-based, inclusive)."),
      }),
    },
  );

  const writeFile = tool(
    async ({ path, content, append }) => {
      const size = new TextEncoder().encode(content).byteLength;
      if (!append && size > WRITE_FILE_MAX_BYTES) {
        return (
          `Error: the content is ${size} bytes, over the ${WRITE_FILE_MAX_BYTES}-byte limit for one write_file call. ` +
          "Write the file in sections: the first with write_file, the rest with append=true."
        );
      }
      try {
        await (await getSandbox()).writeFile(path, content, { append: append ?? false });
        return "OK";
      } catch (error) {
        return failure(error).slice(0, 2000);
      }
    },
    {
      name: "write_file",
      description:
        "Write a text file, creating folders as needed. Set append=true to add to the end of an existing file.",
      schema: z.object({
        description,
        path: z.string().describe("Absolute path of the file."),
        content: z.string().describe("The text to write."),
        append: z.boolean().nullish().describe("Append instead of replacing. Default false."),
      }),
    },
  );

  const strReplace = tool(
    async ({ path, old_str, new_str, replace_all }) => {
      try {
        const sandbox = await getSandbox();
        const text = await sandbox.readText(path);
        if (old_str === "") return "OK";
        if (!text.includes(old_str)) return `Error: String to replace not found in file: ${path}`;
        const replaced = replace_all ? text.split(old_str).join(new_str) : text.replace(old_str, () => new_str);
        await sandbox.writeFile(path, replaced);
        return "OK";
      } catch (error) {
        return failure(error).slice(0, 2000);
      }
    },
    {
      name: "str_replace",
      description:
        "Replace text in a file: the first occurrence of old_str, or every one with replace_all=true. " +
        "Prefer this to rewriting a whole file.",
      schema: z.object({
        description,
        path: z.string().describe("Absolute path of the file."),
        old_str: z.string().describe("The exact text to replace."),
        new_str: z.string().describe("The text to put in its place."),
        replace_all: z.boolean().nullish().describe("Replace every occurrence. Default false."),
      }),
    },
  );

  const glob = tool(
    async ({ pattern, path, include_dirs, max_results }) => {
      try {
        const found = await (
          await getSandbox()
        ).glob(pattern, path, {
          includeDirs: include_dirs ?? false,
          maxResults: GLOB_MAX,
        });
        if (found.length === 0) return `No files matched under ${path}`;
        const shown = found.slice(0, clamp(max_results, GLOB_DEFAULT_MAX, GLOB_MAX));
        const more = shown.length < found.length ? ` (showing first ${shown.length})` : "";
        const total = found.length >= GLOB_MAX ? `${GLOB_MAX}+` : String(found.length);
        return [`Found ${total} paths under ${path}${more}`, ...shown.map((item, i) => `${i + 1}. ${item}`)].join("\n");
      } catch (error) {
        return failure(error);
      }
    },
    {
      name: "glob",
      description: "Find files whose path under a folder matches a glob pattern, e.g. **/*.py or *.csv.",
      schema: z.object({
        description,
        pattern: z.string().describe("Glob pattern relative to path, e.g. **/*.md."),
        path: z.string().describe("Absolute path of the folder to search."),
        include_dirs: z.boolean().nullish().describe("Also list matching folders. Default false."),
        max_results: z.number().int().nullish().describe(`At most this many paths (default 200, up to 1000).`),
      }),
    },
  );

  const grep = tool(
    async ({ pattern, path, glob: only, literal, case_sensitive, max_results }) => {
      try {
        const max = clamp(max_results, GREP_DEFAULT_MAX, GREP_MAX);
        const matches = await (
          await getSandbox()
        ).grep(pattern, path, {
          ...(only ? { glob: only } : {}),
          literal: literal ?? false,
          caseSensitive: case_sensitive ?? false,
          maxResults: max,
        });
        if (matches.length === 0) return `No matches found under ${path}`;
        const capped = matches.length >= max ? ` (stopped at ${max}; narrow the pattern or path)` : "";
        return [
          `Found ${matches.length} matches under ${path}${capped}`,
          ...matches.map((match) => `${match.path}:${match.line}: ${match.text}`),
        ].join("\n");
      } catch (error) {
        return failure(error);
      }
    },
    {
      name: "grep",
      description:
        "Search file contents for a regular expression (or plain text with literal=true); case-insensitive unless " +
        "case_sensitive=true. Files over 1 MB and binary files are skipped.",
      schema: z.object({
        description,
        pattern: z.string().describe("Regular expression, or plain text with literal=true."),
        path: z.string().describe("Absolute path of a file or folder to search."),
        glob: z.string().nullish().describe("Only files whose path matches this glob, e.g. *.py."),
        literal: z.boolean().nullish().describe("Match the pattern as plain text. Default false."),
        case_sensitive: z.boolean().nullish().describe("Default false."),
        max_results: z.number().int().nullish().describe("At most this many matches (default 100, up to 500)."),
      }),
    },
  );

  return [bash, ls, readFile, writeFile, strReplace, glob, grep];
}

function clamp(value: number | null | undefined, fallback: number, cap: number): number {
  if (value === null || value === undefined || value < 1) return fallback;
  return Math.min(value, cap);
}
