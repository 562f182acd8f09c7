// Browser sandboxes that live in their own worker (workers/sandbox.worker.ts), so a busy loop in a command never
// freezes the agent: Stop asks the worker to cancel, and when the command does not yield within a second the worker
// is terminated and a fresh one started. Files survive that: they are in IndexedDB after every finished command.
import * as Comlink from "comlink";
import { newId } from "../../shared/ids.ts";
import {
  DEFAULT_COMMAND_TIMEOUT_MS,
  stoppedMessage,
  type CommandResult,
  type GrepMatch,
  type GrepOptions,
  type RunOptions,
  type Sandbox,
  type SandboxEntry,
} from "../sandbox.ts";
import { unwrap, type RemoteResult } from "../sandbox-support.ts";
import type { SandboxService } from "./sandbox-service.ts";

/** How long a cancelled command may take to notice before its worker is terminated. */
export const KILL_AFTER_MS = 1_000;
/** Beyond its own time limit, how long a command may run before its worker is terminated. */
export const HARD_TIMEOUT_GRACE_MS = 5_000;

/** The part of a Worker this module uses (so tests can pass a MessagePort-backed stand-in). */
export interface SandboxWorker extends Comlink.Endpoint {
  terminate(): void;
}

class WorkerEnded extends Error {
  override name = "WorkerEnded";
}

interface LiveWorker {
  api: Comlink.Remote<SandboxService>;
  /** Rejects with WorkerEnded when this worker is terminated. */
  ended: Promise<never>;
  end: () => void;
}

export interface IsolatedSandboxesOptions {
  /**
   * A broker port on the page's Python frames for each sandbox worker started (PythonFrameConnector.connect), and
   * its release when that worker ends. Without it, python3 waits for one that never comes (tests without a page).
   */
  python?: { connect(): Promise<{ id: number; port: MessagePort }>; disconnect(id: number): void };
}

/** The sandbox worker of this agent worker, restarted when a command has to be killed. */
export class IsolatedSandboxes {
  private live: LiveWorker | undefined;

  constructor(
    private readonly createWorker: () => SandboxWorker,
    private readonly options: IsolatedSandboxesOptions = {},
  ) {}

  /** The sandbox of a thread; cheap, holds nothing until used. */
  open(threadId: string): Sandbox {
    return new IsolatedBrowserSandbox(this, threadId);
  }

  /** Terminates the worker; the next call starts a fresh one. */
  dispose(): void {
    this.live?.end();
  }

  /** @internal */
  worker(): LiveWorker {
    if (!this.live) {
      const worker = this.createWorker();
      let reject: (error: Error) => void = () => undefined;
      const ended = new Promise<never>((_, fail) => (reject = fail));
      ended.catch(() => undefined);
      const api = Comlink.wrap<SandboxService>(worker);
      // Its python3 runs in the page's walled-off frames; they go when the worker goes.
      const python = this.options.python;
      const connection = python
        ?.connect()
        .then(async ({ id, port }) => {
          await api.attachPython(Comlink.transfer(port, [port]));
          return id;
        })
        .catch(() => undefined);
      const live: LiveWorker = {
        api,
        ended,
        end: () => {
          if (this.live === live) this.live = undefined;
          worker.terminate();
          void connection?.then((id) => id !== undefined && python?.disconnect(id));
          reject(new WorkerEnded("The sandbox was restarted to stop a command; run it again if it was yours."));
        },
      };
      this.live = live;
    }
    return this.live;
  }

  /** @internal Runs a call on the current worker; fails (instead of hanging) if that worker is terminated. */
  async call<T>(operation: (api: Comlink.Remote<SandboxService>) => Promise<RemoteResult<T>>): Promise<T> {
    const live = this.worker();
    return unwrap(await Promise.race([operation(live.api), live.ended]));
  }
}

class IsolatedBrowserSandbox implements Sandbox {
  readonly kind = "browser" as const;

  constructor(
    private readonly pool: IsolatedSandboxes,
    readonly threadId: string,
  ) {}

  async run(command: string, options: RunOptions = {}): Promise<CommandResult> {
    const { signal, ...rest } = options;
    const timeoutMs = rest.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    const commandId = newId();
    const live = this.pool.worker();
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    let reason: "timeout" | "cancelled" | undefined;
    const kill = (why: "timeout" | "cancelled") => {
      reason ??= why;
      live.end();
    };
    const onAbort = () => {
      void live.api.cancel(commandId).catch(() => undefined);
      killTimer = setTimeout(() => kill("cancelled"), KILL_AFTER_MS);
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    const hardTimer = setTimeout(() => kill("timeout"), timeoutMs + HARD_TIMEOUT_GRACE_MS);
    try {
      return unwrap(await Promise.race([live.api.run(this.threadId, commandId, command, rest), live.ended]));
    } catch (error) {
      if (!(error instanceof WorkerEnded)) throw error;
      const stopped = reason ?? (signal?.aborted ? "cancelled" : "timeout");
      return {
        stdout: "",
        stderr: `${stoppedMessage(stopped, timeoutMs)}\n`,
        exitCode: stopped === "cancelled" ? 130 : 124,
        stopped,
        ...(rest.cwd !== undefined && { cwd: rest.cwd }),
        ...(rest.env !== undefined && { env: rest.env }),
      };
    } finally {
      clearTimeout(killTimer);
      clearTimeout(hardTimer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  readFile(path: string): Promise<Uint8Array> {
    return this.pool.call((api) => api.readFile(this.threadId, path));
  }

  async readText(path: string): Promise<string> {
    return new TextDecoder().decode(await this.readFile(path));
  }

  writeFile(path: string, content: string | Uint8Array, options?: { append?: boolean }): Promise<void> {
    return this.pool.call((api) => api.writeFile(this.threadId, path, content, options));
  }

  list(path: string): Promise<SandboxEntry[]> {
    return this.pool.call((api) => api.list(this.threadId, path));
  }

  stat(path: string): Promise<SandboxEntry | undefined> {
    return this.pool.call((api) => api.stat(this.threadId, path));
  }

  remove(path: string, options?: { recursive?: boolean }): Promise<void> {
    return this.pool.call((api) => api.remove(this.threadId, path, options));
  }

  glob(pattern: string, root: string, options?: { includeDirs?: boolean; maxResults?: number }): Promise<string[]> {
    return this.pool.call((api) => api.glob(this.threadId, pattern, root, options));
  }

  grep(pattern: string, root: string, options?: GrepOptions): Promise<GrepMatch[]> {
    return this.pool.call((api) => api.grep(this.threadId, pattern, root, options));
  }

  async dispose(): Promise<void> {
    await this.pool.call((api) => api.close(this.threadId)).catch(() => undefined);
  }
}
