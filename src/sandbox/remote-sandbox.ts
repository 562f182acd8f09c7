// The agent worker's side of the WebContainer sandbox: a Sandbox that forwards every call to the page's SandboxHost
// (webcontainer/webcontainer-host.ts) over comlink, turning an AbortSignal into a cancel by command id.
import * as Comlink from "comlink";
import { newId } from "../shared/ids.ts";
import type { CommandResult, GrepMatch, GrepOptions, RunOptions, Sandbox, SandboxEntry } from "./sandbox.ts";
import { unwrap } from "./sandbox-support.ts";
import type { ThreadFileMap, ThreadFileStore } from "./webcontainer/thread-file-store.ts";
import type { SandboxHost } from "./webcontainer/webcontainer-host.ts";

/** A thread's WebContainer sandbox, seen from the agent worker. */
export class RemoteSandbox implements Sandbox {
  readonly kind = "webcontainer" as const;

  private constructor(
    private readonly host: Comlink.Remote<SandboxHost>,
    readonly threadId: string,
  ) {}

  /** Opens the thread on the page: the host loads its files from `store`, which stays in this worker. */
  static async open(
    host: Comlink.Remote<SandboxHost>,
    threadId: string,
    store: ThreadFileStore,
    skills?: ThreadFileMap,
  ): Promise<RemoteSandbox> {
    unwrap(await host.open(threadId, Comlink.proxy(store), skills));
    return new RemoteSandbox(host, threadId);
  }

  async run(command: string, options: RunOptions = {}): Promise<CommandResult> {
    const { signal, ...rest } = options;
    const commandId = newId();
    const cancel = () => void this.host.cancel(commandId).catch(() => undefined);
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      const running = this.host.run(this.threadId, commandId, command, rest);
      // comlink delivers in order: the host knows the command by the time this cancel arrives.
      if (signal?.aborted) cancel();
      return unwrap(await running);
    } finally {
      signal?.removeEventListener("abort", cancel);
    }
  }

  async readFile(path: string): Promise<Uint8Array> {
    return unwrap(await this.host.readFile(this.threadId, path));
  }

  async readText(path: string): Promise<string> {
    return new TextDecoder().decode(await this.readFile(path));
  }

  async writeFile(path: string, content: string | Uint8Array, options?: { append?: boolean }): Promise<void> {
    unwrap(await this.host.writeFile(this.threadId, path, content, options));
  }

  async list(path: string): Promise<SandboxEntry[]> {
    return unwrap(await this.host.list(this.threadId, path));
  }

  async stat(path: string): Promise<SandboxEntry | undefined> {
    return unwrap(await this.host.stat(this.threadId, path));
  }

  async remove(path: string, options?: { recursive?: boolean }): Promise<void> {
    unwrap(await this.host.remove(this.threadId, path, options));
  }

  async glob(pattern: string, root: string, options?: { includeDirs?: boolean; maxResults?: number }) {
    return unwrap(await this.host.glob(this.threadId, pattern, root, options));
  }

  async grep(pattern: string, root: string, options?: GrepOptions): Promise<GrepMatch[]> {
    return unwrap(await this.host.grep(this.threadId, pattern, root, options));
  }

  async dispose(): Promise<void> {
    unwrap(await this.host.dispose(this.threadId));
  }
}
