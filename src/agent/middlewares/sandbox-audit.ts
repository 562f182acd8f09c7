// The sandbox audit (DeerFlow's SandboxAuditMiddleware, docs/architecture.md#d3-agent): the agent's view of a thread's
// sandbox, wrapped so that each command it runs (bash, and the python3 runs made through it) is logged with its time,
// exit code and the thread's files it changed. DeerFlow's classification of risky commands is left out: Fawn's
// sandbox has no host to harm (docs/architecture.md#security-walls); the log is for the user to read.
import {
  SANDBOX_LOG_COMMAND_MAX,
  SANDBOX_LOG_FILES_MAX,
  type SandboxFileChange,
  type SandboxLogEntry,
} from "../../protocol/index.ts";
import { newId } from "../../shared/ids.ts";
import type { CommandResult, RunOptions, Sandbox } from "../../sandbox/sandbox.ts";

/** A file of the thread as stored, enough to tell whether a command changed it. */
export interface AuditedFile {
  path: string;
  sha256: string;
}

export interface SandboxAuditOptions {
  /** The thread's stored files (under /mnt/user-data) as they are now. */
  files: () => Promise<readonly AuditedFile[]>;
  /** Keeps one entry of the log; a failure to keep it never fails the command. */
  record: (entry: SandboxLogEntry) => Promise<void>;
  /** The clock; tests set it. */
  now?: () => number;
}

/** The files `after` has that `before` had not, had with other bytes, or lost; sorted by path. */
export function fileChanges(before: readonly AuditedFile[], after: readonly AuditedFile[]): SandboxFileChange[] {
  const was = new Map(before.map((file) => [file.path, file.sha256]));
  const changes: SandboxFileChange[] = [];
  for (const file of after) {
    const old = was.get(file.path);
    if (old === undefined) changes.push({ path: file.path, change: "added" });
    else if (old !== file.sha256) changes.push({ path: file.path, change: "modified" });
    was.delete(file.path);
  }
  for (const path of was.keys()) changes.push({ path, change: "deleted" });
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The log's entry for one command, cut to the log's limits. */
export function auditEntry(
  command: string,
  started: number,
  ended: number,
  result: Pick<CommandResult, "exitCode" | "stopped"> | undefined,
  changes: readonly SandboxFileChange[],
): SandboxLogEntry {
  const truncated = command.length > SANDBOX_LOG_COMMAND_MAX;
  return {
    id: newId(),
    at: started,
    duration_ms: Math.max(0, ended - started),
    command: truncated ? command.slice(0, SANDBOX_LOG_COMMAND_MAX) : command,
    ...(truncated && { truncated: true }),
    exit_code: result?.exitCode ?? -1,
    ...(result?.stopped && { stopped: result.stopped }),
    files_changed: changes.slice(0, SANDBOX_LOG_FILES_MAX),
    ...(changes.length > SANDBOX_LOG_FILES_MAX && { files_more: changes.length - SANDBOX_LOG_FILES_MAX }),
  };
}

/**
 * The sandbox as the agent's tools get it: the same sandbox, whose `run` also logs the command. A command that
 * throws (a refused working directory) is logged with exit code -1 and throws as before.
 */
export function auditedSandbox(sandbox: Sandbox, options: SandboxAuditOptions): Sandbox {
  const now = options.now ?? Date.now;
  const filesOrNone = () => options.files().catch(() => [] as readonly AuditedFile[]);
  const run = async (command: string, runOptions?: RunOptions): Promise<CommandResult> => {
    const before = await filesOrNone();
    const started = now();
    let result: CommandResult | undefined;
    try {
      result = await sandbox.run(command, runOptions);
      return result;
    } finally {
      const ended = now();
      const after = await filesOrNone();
      // The log is a record, not a gate: a full storage loses the entry, not the command's result.
      await options.record(auditEntry(command, started, ended, result, fileChanges(before, after))).catch(() => {});
    }
  };
  return {
    kind: sandbox.kind,
    threadId: sandbox.threadId,
    run,
    readFile: (path) => sandbox.readFile(path),
    readText: (path) => sandbox.readText(path),
    writeFile: (path, content, writeOptions) => sandbox.writeFile(path, content, writeOptions),
    list: (path) => sandbox.list(path),
    stat: (path) => sandbox.stat(path),
    remove: (path, removeOptions) => sandbox.remove(path, removeOptions),
    glob: (pattern, root, globOptions) => sandbox.glob(pattern, root, globOptions),
    grep: (pattern, root, grepOptions) => sandbox.grep(pattern, root, grepOptions),
    dispose: () => sandbox.dispose(),
  };
}
