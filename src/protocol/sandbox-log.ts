// The sandbox log (DeerFlow's SandboxAuditMiddleware): each command a thread's sandbox ran for the agent (bash, and
// the python3 runs made through it), with when, how it ended and which of the thread's files it changed. Kept with
// the thread (a history note per command), exported with it, shown by Thread actions → "Sandbox log".

/** How a command changed one of the thread's files under /mnt/user-data. */
export type SandboxFileChangeKind = "added" | "modified" | "deleted";

export interface SandboxFileChange {
  /** Absolute virtual path, e.g. `/mnt/user-data/outputs/report.md`. */
  path: string;
  change: SandboxFileChangeKind;
}

/** The most characters of a command the log keeps; a longer one is cut and marked `truncated`. */
export const SANDBOX_LOG_COMMAND_MAX = 4000;
/** The most changed files one entry names; `files_more` counts the rest. */
export const SANDBOX_LOG_FILES_MAX = 100;

/** One command the agent ran in the thread's sandbox. */
export interface SandboxLogEntry {
  id: string;
  /** When it started, in milliseconds since the epoch. */
  at: number;
  /** How long it ran, in milliseconds. */
  duration_ms: number;
  /** The command line as the agent sent it (at most SANDBOX_LOG_COMMAND_MAX characters). */
  command: string;
  /** True when `command` was cut to fit. */
  truncated?: boolean;
  /** The command's exit code; -1 when the sandbox could not run it at all. */
  exit_code: number;
  /** Set when the sandbox ended the command itself. */
  stopped?: "timeout" | "cancelled" | "limit";
  /** The thread's files it added, changed or deleted, by path (at most SANDBOX_LOG_FILES_MAX). */
  files_changed: SandboxFileChange[];
  /** How many more files it changed than `files_changed` names. */
  files_more?: number;
}
