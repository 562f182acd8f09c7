// The browser sandboxes of every thread, served from the sandbox worker (workers/sandbox.worker.ts) to the agent
// worker over comlink. Calls name the thread; a command has a caller-chosen id so it can be cancelled, since an
// AbortSignal cannot cross a worker boundary.
import type { CustomCommand } from "just-bash/browser";
import type { ThreadFiles } from "../../storage/index.ts";
import type { CommandResult, GrepMatch, GrepOptions, RunOptions, SandboxEntry } from "../sandbox.ts";
import { CancellableCommands } from "../sandbox-support.ts";
import { BrowserSandbox } from "./browser-sandbox.ts";

export interface SandboxServiceOptions {
  files: ThreadFiles;
  /** Read-only files under /mnt/skills, by absolute path. */
  skills?: () => Promise<Record<string, Uint8Array>>;
  commands?: CustomCommand[];
  env?: Record<string, string>;
}

/** What the agent worker may ask of the sandbox worker (everything but AbortSignals is structured-clonable). */
export type SerializableRunOptions = Omit<RunOptions, "signal">;

export class SandboxService {
  private readonly sandboxes = new Map<string, Promise<BrowserSandbox>>();
  private readonly commands = new CancellableCommands();

  constructor(private readonly options: SandboxServiceOptions) {}

  async run(
    threadId: string,
    commandId: string,
    command: string,
    options: SerializableRunOptions = {},
  ): Promise<CommandResult> {
    return this.commands.run(commandId, async (signal) =>
      (await this.sandbox(threadId)).run(command, { ...options, signal }),
    );
  }

  /** Cancels a running command; a busy loop only notices at its next statement, so the caller may still kill us. */
  cancel(commandId: string): void {
    this.commands.cancel(commandId);
  }

  async readFile(threadId: string, path: string): Promise<Uint8Array> {
    return (await this.sandbox(threadId)).readFile(path);
  }

  async writeFile(threadId: string, path: string, content: string | Uint8Array, options?: { append?: boolean }) {
    await (await this.sandbox(threadId)).writeFile(path, content, options);
  }

  async list(threadId: string, path: string): Promise<SandboxEntry[]> {
    return (await this.sandbox(threadId)).list(path);
  }

  async stat(threadId: string, path: string): Promise<SandboxEntry | undefined> {
    return (await this.sandbox(threadId)).stat(path);
  }

  async remove(threadId: string, path: string, options?: { recursive?: boolean }): Promise<void> {
    await (await this.sandbox(threadId)).remove(path, options);
  }

  async glob(
    threadId: string,
    pattern: string,
    root: string,
    options?: { includeDirs?: boolean; maxResults?: number },
  ): Promise<string[]> {
    return (await this.sandbox(threadId)).glob(pattern, root, options);
  }

  async grep(threadId: string, pattern: string, root: string, options?: GrepOptions): Promise<GrepMatch[]> {
    return (await this.sandbox(threadId)).grep(pattern, root, options);
  }

  /** Drops the thread's in-memory copy (its files stay stored); the next call loads them again. */
  async close(threadId: string): Promise<void> {
    const sandbox = this.sandboxes.get(threadId);
    this.sandboxes.delete(threadId);
    await (await sandbox?.catch(() => undefined))?.dispose();
  }

  private sandbox(threadId: string): Promise<BrowserSandbox> {
    let sandbox = this.sandboxes.get(threadId);
    if (!sandbox) {
      sandbox = (async () =>
        BrowserSandbox.open({
          threadId,
          files: this.options.files,
          ...(this.options.skills && { skills: await this.options.skills() }),
          ...(this.options.commands && { commands: this.options.commands }),
          ...(this.options.env && { env: this.options.env }),
        }))();
      sandbox.catch(() => this.sandboxes.delete(threadId));
      this.sandboxes.set(threadId, sandbox);
    }
    return sandbox;
  }
}
