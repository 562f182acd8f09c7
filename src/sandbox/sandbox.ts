// The Sandbox interface every provider implements (docs/architecture.md#d1-sandbox), and the virtual paths the agent sees.
// Implementations: browser/browser-sandbox.ts (just-bash + Pyodide, the default) and
// webcontainer/webcontainer-sandbox.ts (a StackBlitz WebContainer on the page), both on sandbox-base.ts, which holds
// the file API's rules. One contract suite checks both.

/** The thread's own, writable areas. */
export const USER_DATA_ROOT = "/mnt/user-data";
export const WORKSPACE_DIR = "/mnt/user-data/workspace";
export const UPLOADS_DIR = "/mnt/user-data/uploads";
export const OUTPUTS_DIR = "/mnt/user-data/outputs";
export const USER_DATA_DIRS = [WORKSPACE_DIR, UPLOADS_DIR, OUTPUTS_DIR] as const;
/** Skills shipped with the app and installed by the user; read-only for the agent. */
export const SKILLS_ROOT = "/mnt/skills";

/** Commands start here unless told otherwise. */
export const DEFAULT_CWD = WORKSPACE_DIR;
/** A command that runs longer than this is stopped (DeerFlow's local sandbox allows 600 s; a tab should not). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 120_000;

export type SandboxKind = "browser" | "webcontainer";

export interface RunOptions {
  /** Absolute virtual directory; defaults to the workspace. */
  cwd?: string;
  /** Added to the sandbox's environment for this command. */
  env?: Record<string, string>;
  stdin?: string;
  /** Defaults to DEFAULT_COMMAND_TIMEOUT_MS. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Set when the sandbox ended the command itself; `stderr` then ends with a sentence that says why. */
  stopped?: "timeout" | "cancelled" | "limit";
  /** The shell's working directory and environment after the command (for an interactive terminal). */
  cwd?: string;
  env?: Record<string, string>;
}

export interface SandboxEntry {
  /** Absolute virtual path. */
  path: string;
  name: string;
  type: "file" | "directory";
  size: number;
  /** Milliseconds since the epoch. */
  mtime: number;
}

export interface GrepOptions {
  /** Only files whose path relative to the root matches this glob. */
  glob?: string;
  /** Treat the pattern as plain text rather than a regular expression. */
  literal?: boolean;
  caseSensitive?: boolean;
  maxResults?: number;
}

export interface GrepMatch {
  path: string;
  line: number;
  text: string;
}

export interface Sandbox {
  readonly kind: SandboxKind;
  readonly threadId: string;
  /** Runs a bash command line. Never rejects for a failing command: that is a non-zero exit code. */
  run(command: string, options?: RunOptions): Promise<CommandResult>;
  readFile(path: string): Promise<Uint8Array>;
  readText(path: string): Promise<string>;
  /** Creates parent directories as needed. */
  writeFile(path: string, content: string | Uint8Array, options?: { append?: boolean }): Promise<void>;
  /** The entries directly inside a directory, sorted by name. */
  list(path: string): Promise<SandboxEntry[]>;
  /** Undefined when nothing is at the path. */
  stat(path: string): Promise<SandboxEntry | undefined>;
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;
  /** Paths of files (and directories if asked) under `root` matching `pattern`, sorted. */
  glob(pattern: string, root: string, options?: { includeDirs?: boolean; maxResults?: number }): Promise<string[]>;
  grep(pattern: string, root: string, options?: GrepOptions): Promise<GrepMatch[]>;
  /** Frees what the sandbox holds in memory; its files stay stored. */
  dispose(): Promise<void>;
}

/** A path the sandbox refuses; the message says which rule and what is allowed. */
export class SandboxPathError extends Error {
  override name = "SandboxPathError";
}

/** A missing file or directory, or a file where a directory was expected (and the other way round). */
export class SandboxFileError extends Error {
  override name = "SandboxFileError";
  constructor(
    message: string,
    readonly code: "ENOENT" | "EISDIR" | "ENOTDIR" | "ENOTEMPTY" | "EEXIST",
  ) {
    super(message);
  }
}

const ALLOWED = `${USER_DATA_DIRS.join(", ")} (read-write) or ${SKILLS_ROOT} (read-only)`;

/** True when `path` is `root` or inside it (`/a/bc` is not under `/a/b`). */
export function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}

/**
 * Checks a virtual path for the given access and returns it without a trailing slash. Refused: relative paths,
 * `.`/`..` segments, backslashes and NUL, anything outside the thread's areas and the skills, and writes under
 * /mnt/skills or to the area roots themselves. `/mnt/user-data` and `/mnt` may be read (listed), never written.
 */
export function resolveSandboxPath(path: string, access: "read" | "write"): string {
  if (typeof path !== "string" || path === "") throw new SandboxPathError("A path is required.");
  if (path.includes("\0") || path.includes("\\")) {
    throw new SandboxPathError(`Refused path ${JSON.stringify(path)}: backslashes and NUL are not allowed.`);
  }
  if (!path.startsWith("/")) {
    throw new SandboxPathError(
      `Refused path ${JSON.stringify(path)}: use an absolute path under ${ALLOWED}, e.g. ${WORKSPACE_DIR}/notes.md.`,
    );
  }
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const segments = trimmed.split("/").slice(1);
  if (segments.some((segment) => segment === ".." || segment === ".")) {
    throw new SandboxPathError(
      `Refused path ${JSON.stringify(path)}: "." and ".." are not allowed; the sandbox only has ${ALLOWED}.`,
    );
  }
  const normalized = `/${segments.filter((segment) => segment !== "").join("/")}`;
  if (isUnder(normalized, SKILLS_ROOT)) {
    if (access === "write") {
      throw new SandboxPathError(`Refused to write ${normalized}: ${SKILLS_ROOT} is read-only.`);
    }
    return normalized;
  }
  const area = USER_DATA_DIRS.find((dir) => isUnder(normalized, dir));
  if (area !== undefined) {
    if (access === "write" && normalized === area) {
      throw new SandboxPathError(`Refused to write ${normalized}: it is one of the sandbox's own folders.`);
    }
    return normalized;
  }
  if (access === "read" && (normalized === USER_DATA_ROOT || normalized === "/mnt")) return normalized;
  throw new SandboxPathError(`Refused path ${JSON.stringify(path)}: it is outside the sandbox; use ${ALLOWED}.`);
}

/** True for the paths a thread keeps (its workspace, uploads and outputs). */
export function isThreadDataPath(path: string): boolean {
  return USER_DATA_DIRS.some((dir) => path.startsWith(`${dir}/`));
}

/** The sentence appended to stderr when the sandbox stops a command. */
export function stoppedMessage(reason: NonNullable<CommandResult["stopped"]>, timeoutMs: number): string {
  switch (reason) {
    case "timeout":
      return `Command stopped: it ran longer than ${formatSeconds(timeoutMs)}, the sandbox's time limit. Check for an endless loop, or split the work into smaller commands.`;
    case "limit":
      return "Command stopped: it exceeded the sandbox's execution limits (too many loop iterations or commands). Check for an endless loop.";
    case "cancelled":
      return "Command cancelled.";
  }
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** Joins a relative path onto a directory (`..`/`.` resolved); an absolute `path` is returned as is. */
export function joinPath(dir: string, path: string): string {
  const parts = (path.startsWith("/") ? path : `${dir}/${path}`).split("/");
  const out: string[] = [];
  for (const part of parts) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}
