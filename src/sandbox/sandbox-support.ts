// Small pieces every Sandbox provider shares: one-at-a-time operations, the file-type checks with their errors,
// and appending a sentence to a command's stderr.
import { SandboxFileError } from "./sandbox.ts";

/** Runs operations one after another (a failed one does not stop the next). */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.tail.then(operation, operation);
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Resolves when everything queued so far has finished. */
  async idle(): Promise<void> {
    await this.tail.catch(() => undefined);
  }
}

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
