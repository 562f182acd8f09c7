// The serving half of a sandbox across a worker boundary: every thread's sandbox of one provider, for the agent
// worker's SandboxClient (sandbox-client.ts) over comlink. Served from the sandbox worker
// (browser/worker-sandbox-server.ts) and from the page (webcontainer/page-sandbox-server.ts). Calls name the thread
// and return their errors as data (comlink would drop a SandboxFileError's code); a command has a caller-chosen id so
// it can be cancelled, since an AbortSignal cannot cross a worker boundary.
import type { CommandResult, GrepMatch, GrepOptions, Sandbox, SandboxEntry } from "./sandbox.ts";
import {
  CancellableCommands,
  OpenSandboxes,
  settle,
  type RemoteResult,
  type RemoteRunOptions,
} from "./sandbox-support.ts";

export abstract class SandboxServer<S extends Sandbox> {
  protected readonly sandboxes = new OpenSandboxes<S>();
  private readonly commands = new CancellableCommands();

  /** The sandbox a call naming `threadId` goes to (opened on demand, or refused when the thread is not open). */
  protected abstract sandbox(threadId: string): Promise<S>;

  /** Runs a command; `cancel(commandId)` stops it. */
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

  /** Cancels a running command; a busy loop may only notice at its next statement. */
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

  /** Closes the thread's sandbox (what it holds in memory); its files stay stored. */
  close(threadId: string): Promise<RemoteResult<void>> {
    return settle(() => this.closeThread(threadId));
  }

  protected closeThread(threadId: string): Promise<void> {
    return this.sandboxes.close(threadId);
  }
}

/** What a SandboxClient calls: the part every provider's server has. */
export type SandboxServerApi = Pick<
  SandboxServer<Sandbox>,
  "run" | "cancel" | "readFile" | "writeFile" | "list" | "stat" | "remove" | "glob" | "grep" | "close"
>;
