// The browser sandboxes of every thread, served from the sandbox worker (workers/sandbox.worker.ts) to the agent
// worker over comlink. Calls name the thread and return their errors as data (comlink would drop a SandboxFileError's
// code); a command has a caller-chosen id so it can be cancelled, since an AbortSignal cannot cross a worker boundary.
import type { CustomCommand } from "just-bash/browser";
import type { ThreadFiles } from "../../storage/index.ts";
import type { CommandResult, GrepMatch, GrepOptions, SandboxEntry } from "../sandbox.ts";
import { CancellableCommands, settle, type RemoteResult, type RemoteRunOptions } from "../sandbox-support.ts";
import { BrowserSandbox } from "./browser-sandbox.ts";

export interface SandboxServiceOptions {
  files: ThreadFiles;
  /** Read-only files under /mnt/skills, by absolute path. */
  skills?: () => Promise<Record<string, Uint8Array>>;
  /** Extra commands of a thread's shell (python3 gets a runner of the thread's own). */
  commands?: (threadId: string) => CustomCommand[];
  env?: Record<string, string>;
  /** Receives the page's Python frames broker (see attachPython). */
  attachPython?: (port: MessagePort) => void;
  /** Called when a thread's sandbox closes, so its python3 interpreter can go too. */
  onClose?: (threadId: string) => void;
}

export class SandboxService {
  private readonly sandboxes = new Map<string, Promise<BrowserSandbox>>();
  private readonly commands = new CancellableCommands();

  constructor(private readonly options: SandboxServiceOptions) {}

  run(
    threadId: string,
    commandId: string,
    command: string,
    options: RemoteRunOptions = {},
  ): Promise<RemoteResult<CommandResult>> {
    return settle(() =>
      this.commands.run(commandId, async (signal) =>
        (await this.sandbox(threadId)).run(command, { ...options, signal }),
      ),
    );
  }

  /** Cancels a running command; a busy loop only notices at its next statement, so the caller may still kill us. */
  cancel(commandId: string): void {
    this.commands.cancel(commandId);
  }

  readFile(threadId: string, path: string): Promise<RemoteResult<Uint8Array>> {
    return settle(async () => (await this.sandbox(threadId)).readFile(path));
  }

  writeFile(
    threadId: string,
    path: string,
    content: string | Uint8Array,
    options?: { append?: boolean },
  ): Promise<RemoteResult<void>> {
    return settle(async () => (await this.sandbox(threadId)).writeFile(path, content, options));
  }

  list(threadId: string, path: string): Promise<RemoteResult<SandboxEntry[]>> {
    return settle(async () => (await this.sandbox(threadId)).list(path));
  }

  stat(threadId: string, path: string): Promise<RemoteResult<SandboxEntry | undefined>> {
    return settle(async () => (await this.sandbox(threadId)).stat(path));
  }

  remove(threadId: string, path: string, options?: { recursive?: boolean }): Promise<RemoteResult<void>> {
    return settle(async () => (await this.sandbox(threadId)).remove(path, options));
  }

  glob(
    threadId: string,
    pattern: string,
    root: string,
    options?: { includeDirs?: boolean; maxResults?: number },
  ): Promise<RemoteResult<string[]>> {
    return settle(async () => (await this.sandbox(threadId)).glob(pattern, root, options));
  }

  grep(threadId: string, pattern: string, root: string, options?: GrepOptions): Promise<RemoteResult<GrepMatch[]>> {
    return settle(async () => (await this.sandbox(threadId)).grep(pattern, root, options));
  }

  /** The agent worker hands over a broker port on the page's Python frames (PythonFrames, over comlink). */
  attachPython(port: MessagePort): void {
    this.options.attachPython?.(port);
  }

  /** Drops the thread's in-memory copy (its files stay stored); the next call loads them again. */
  close(threadId: string): Promise<RemoteResult<void>> {
    return settle(async () => {
      const sandbox = this.sandboxes.get(threadId);
      this.sandboxes.delete(threadId);
      this.options.onClose?.(threadId);
      await (await sandbox?.catch(() => undefined))?.dispose();
    });
  }

  private sandbox(threadId: string): Promise<BrowserSandbox> {
    let sandbox = this.sandboxes.get(threadId);
    if (!sandbox) {
      sandbox = (async () =>
        BrowserSandbox.open({
          threadId,
          files: this.options.files,
          ...(this.options.skills && { skills: await this.options.skills() }),
          ...(this.options.commands && { commands: this.options.commands(threadId) }),
          ...(this.options.env && { env: this.options.env }),
        }))();
      sandbox.catch(() => this.sandboxes.delete(threadId));
      this.sandboxes.set(threadId, sandbox);
    }
    return sandbox;
  }
}
