// Small pieces every Sandbox provider shares: the file-type checks with their errors,
// appending a sentence to a command's stderr, each thread's open sandbox, and carrying calls and their errors across
// a comlink boundary.
import { SandboxFileError, SandboxPathError, type RunOptions, type Sandbox } from "./sandbox.ts";

/** Throws the SandboxFileError a caller expecting `wanted` at `path` should get, given what is `found` there. */
export function expectFileType(
  path: string,
  wanted: "file" | "directory",
  found: "file" | "directory" | undefined,
): void {
  if (!found) throw new SandboxFileError(`No such ${wanted === "file" ? "file" : "folder"}: ${path}`, "ENOENT");
  if (wanted === "file" && found === "directory") {
    throw new SandboxFileError(`${path} is a folder, not a file.`, "EISDIR");
  }
  if (wanted === "directory" && found === "file") {
    throw new SandboxFileError(`${path} is a file, not a folder.`, "ENOTDIR");
  }
}

/** `text` with `line` on a line of its own at the end. */
export function appendLine(text: string, line: string): string {
  return text === "" || text.endsWith("\n") ? `${text}${line}\n` : `${text}\n${line}\n`;
}

/**
 * Commands by caller-chosen id, so a cancel can cross a worker or comlink boundary where an AbortSignal cannot.
 * `run` registers the id before its first await, so a cancel sent right after the call always finds it.
 */
export class CancellableCommands {
  private readonly running = new Map<string, AbortController>();

  async run<T>(commandId: string, operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.running.set(commandId, controller);
    try {
      return await operation(controller.signal);
    } finally {
      this.running.delete(commandId);
    }
  }

  cancel(commandId: string): void {
    this.running.get(commandId)?.abort();
  }
}

/**
 * Each thread's sandbox while it is open: opened once and shared by every call. A sandbox whose opening fails is
 * forgotten, so the next call opens it again.
 */
export class OpenSandboxes<S extends Sandbox> {
  private readonly opened = new Map<string, Promise<S>>();

  /** The thread's sandbox if it is open or opening. */
  get(threadId: string): Promise<S> | undefined {
    return this.opened.get(threadId);
  }

  /** The thread's sandbox, opened with `open` when it is not open yet. */
  getOrOpen(threadId: string, open: () => Promise<S>): Promise<S> {
    return this.opened.get(threadId) ?? this.set(threadId, open());
  }

  /** Makes `opening` the thread's sandbox, in place of any other (which the caller has closed). */
  set(threadId: string, opening: Promise<S>): Promise<S> {
    this.opened.set(threadId, opening);
    opening.catch(() => {
      if (this.opened.get(threadId) === opening) this.opened.delete(threadId);
    });
    return opening;
  }

  /** The threads with a sandbox; closing one while iterating is fine. */
  threadIds(): IterableIterator<string> {
    return this.opened.keys();
  }

  /** Forgets the thread's sandbox and frees it once it has opened; its files stay stored. */
  async close(threadId: string): Promise<void> {
    const sandbox = this.opened.get(threadId);
    this.opened.delete(threadId);
    await (await sandbox?.catch(() => undefined))?.dispose();
  }

  /** Forgets every sandbox without closing it, so the next call opens afresh; a command under way finishes. */
  forgetAll(): void {
    this.opened.clear();
  }
}

/** Run options that can cross comlink: an AbortSignal cannot, so a command is cancelled by its id instead. */
export type RemoteRunOptions = Omit<RunOptions, "signal">;

/** An error as data: comlink carries only an Error's name and message, and the sandbox's errors have a code too. */
export interface RemoteError {
  name: string;
  message: string;
  code?: SandboxFileError["code"];
}

/** What a sandbox service returns across comlink: its value, or the error it threw. */
export type RemoteResult<T> = { ok: true; value: T } | { ok: false; error: RemoteError };

/** Runs `operation` on the serving side, with its error as data (see `unwrap` for the calling side). */
export async function settle<T>(operation: () => Promise<T>): Promise<RemoteResult<T>> {
  try {
    return { ok: true, value: await operation() };
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    return { ok: false, error: { name, message, ...(error instanceof SandboxFileError && { code: error.code }) } };
  }
}

/** The settled value, or its error thrown again with its class (SandboxPathError, SandboxFileError) and code. */
export function unwrap<T>(result: RemoteResult<T>): T {
  if (result.ok) return result.value;
  const { name, message, code } = result.error;
  if (name === "SandboxPathError") throw new SandboxPathError(message);
  if (name === "SandboxFileError") throw new SandboxFileError(message, code ?? "ENOENT");
  throw Object.assign(new Error(message), { name });
}
