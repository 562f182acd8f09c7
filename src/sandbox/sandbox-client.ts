// The calling half of a sandbox across a worker boundary: a Sandbox in the agent worker that forwards every call to
// a SandboxServer (sandbox-server.ts) over comlink, turning an AbortSignal into a cancel by command id and the
// server's errors-as-data back into thrown errors with their class and code.
import type * as Comlink from "comlink";
import { newId } from "../shared/ids.ts";
import type {
  CommandResult,
  GrepMatch,
  GrepOptions,
  RunOptions,
  Sandbox,
  SandboxEntry,
  SandboxKind,
} from "./sandbox.ts";
import type { SandboxServerApi } from "./sandbox-server.ts";
import { unwrap, type RemoteResult } from "./sandbox-support.ts";

/** The server a call goes to. */
export interface SandboxConnection {
  server: Comlink.Remote<SandboxServerApi>;
  /** Rejects when the server goes away (a terminated worker), so a call fails instead of hanging. */
  ended?: Promise<never>;
}

/** A thread's sandbox, served elsewhere. */
export class SandboxClient implements Sandbox {
  constructor(
    readonly kind: SandboxKind,
    readonly threadId: string,
    /** The current connection, asked at each call (a restarted worker is a new one). */
    private readonly connect: () => SandboxConnection,
  ) {}

  async run(command: string, options: RunOptions = {}): Promise<CommandResult> {
    const { signal, ...rest } = options;
    const commandId = newId();
    const connection = this.connect();
    const cancel = () => void connection.server.cancel(commandId).catch(() => undefined);
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      const running = connection.server.run(this.threadId, commandId, command, rest);
      // comlink delivers in order: the server knows the command by the time this cancel arrives.
      if (signal?.aborted) cancel();
      return await settled(connection, running);
    } finally {
      signal?.removeEventListener("abort", cancel);
    }
  }

  readFile(path: string): Promise<Uint8Array> {
    return this.call((server) => server.readFile(this.threadId, path));
  }

  async readText(path: string): Promise<string> {
    return new TextDecoder().decode(await this.readFile(path));
  }

  writeFile(path: string, content: string | Uint8Array, options?: { append?: boolean }): Promise<void> {
    return this.call((server) => server.writeFile(this.threadId, path, content, options));
  }

  list(path: string): Promise<SandboxEntry[]> {
    return this.call((server) => server.list(this.threadId, path));
  }

  stat(path: string): Promise<SandboxEntry | undefined> {
    return this.call((server) => server.stat(this.threadId, path));
  }

  remove(path: string, options?: { recursive?: boolean }): Promise<void> {
    return this.call((server) => server.remove(this.threadId, path, options));
  }

  glob(pattern: string, root: string, options?: { includeDirs?: boolean; maxResults?: number }): Promise<string[]> {
    return this.call((server) => server.glob(this.threadId, pattern, root, options));
  }

  grep(pattern: string, root: string, options?: GrepOptions): Promise<GrepMatch[]> {
    return this.call((server) => server.grep(this.threadId, pattern, root, options));
  }

  dispose(): Promise<void> {
    return this.call((server) => server.close(this.threadId));
  }

  private call<T>(operation: (server: Comlink.Remote<SandboxServerApi>) => Promise<RemoteResult<T>>): Promise<T> {
    const connection = this.connect();
    return settled(connection, operation(connection.server));
  }
}

async function settled<T>(connection: SandboxConnection, result: Promise<RemoteResult<T>>): Promise<T> {
  return unwrap(await (connection.ended ? Promise.race([result, connection.ended]) : result));
}
