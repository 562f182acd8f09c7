// Browser sandboxes that live in their own worker (workers/sandbox.worker.ts, serving a WorkerSandboxServer), so a
// busy loop in a command never freezes the agent: Stop asks the worker to cancel, and when the command does not yield
// within a second the worker is terminated and a fresh one started. Files survive that: they are in IndexedDB after
// every finished command.
import * as Comlink from "comlink";
import { DEFAULT_COMMAND_TIMEOUT_MS, stoppedMessage, type CommandResult, type RunOptions } from "../sandbox.ts";
import { SandboxClient, type SandboxConnection } from "../sandbox-client.ts";
import type { WorkerSandboxServer } from "./worker-sandbox-server.ts";

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

interface LiveWorker extends SandboxConnection {
  server: Comlink.Remote<WorkerSandboxServer>;
  /** Rejects with WorkerEnded when this worker is terminated. */
  ended: Promise<never>;
  end: () => void;
}

export interface WorkerSandboxesOptions {
  /**
   * A broker port on the page's Python frames for each sandbox worker started (PythonFrameConnector.connect), and
   * its release when that worker ends. Without it, python3 waits for one that never comes (tests without a page).
   */
  python?: {
    connect(): Promise<{ id: number; port: MessagePort }>;
    disconnect(id: number): void;
    /** A command names python3: the page starts reading what Python needs (PythonFrameConnector.warm). */
    warm?(): void;
  };
}

/** A command line that names Python or pip (`python3 x.py`, `cd a && python -m y`, `pip install z`). */
const NAMES_PYTHON = /(?:^|[\s;&|(`/])(?:python(?:3(?:\.\d+)?)?|pip3?)(?=$|[\s;&|)<>`])/;

/** Whether `command` names Python or pip, so its interpreter is likely to start. */
export function namesPython(command: string): boolean {
  return NAMES_PYTHON.test(command);
}

/** The sandbox worker of this agent worker, restarted when a command has to be killed. */
export class WorkerSandboxes {
  private live: LiveWorker | undefined;

  constructor(
    private readonly createWorker: () => SandboxWorker,
    private readonly options: WorkerSandboxesOptions = {},
  ) {}

  /** The sandbox of a thread; cheap, holds nothing until used. */
  open(threadId: string): SandboxClient {
    return new WorkerSandboxClient(this, threadId);
  }

  /** Before `command` runs: when it names Python, the page starts reading what Python needs meanwhile. */
  prepare(command: string): void {
    if (namesPython(command)) this.options.python?.warm?.();
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
      const server = Comlink.wrap<WorkerSandboxServer>(worker);
      // Its python3 runs in the page's walled-off frames; they go when the worker goes.
      const python = this.options.python;
      const connection = python
        ?.connect()
        .then(async ({ id, port }) => {
          await server.attachPython(Comlink.transfer(port, [port]));
          return id;
        })
        .catch(() => undefined);
      const live: LiveWorker = {
        server,
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
}

/** A thread's browser sandbox, whose commands are stopped by terminating the worker when they will not stop. */
class WorkerSandboxClient extends SandboxClient {
  constructor(
    private readonly workers: WorkerSandboxes,
    threadId: string,
  ) {
    super("browser", threadId, () => workers.worker());
  }

  override async run(command: string, options: RunOptions = {}): Promise<CommandResult> {
    const { signal, cwd, env } = options;
    const timeoutMs = options.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    this.workers.prepare(command);
    const live = this.workers.worker();
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    let reason: "timeout" | "cancelled" | undefined;
    const kill = (why: "timeout" | "cancelled") => {
      reason ??= why;
      live.end();
    };
    // The cancel itself goes out in SandboxClient.run.
    const onAbort = () => (killTimer = setTimeout(() => kill("cancelled"), KILL_AFTER_MS));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    const hardTimer = setTimeout(() => kill("timeout"), timeoutMs + HARD_TIMEOUT_GRACE_MS);
    try {
      return await super.run(command, options);
    } catch (error) {
      if (!(error instanceof WorkerEnded)) throw error;
      const stopped = reason ?? (signal?.aborted ? "cancelled" : "timeout");
      return {
        stdout: "",
        stderr: `${stoppedMessage(stopped, timeoutMs)}\n`,
        exitCode: stopped === "cancelled" ? 130 : 124,
        stopped,
        ...(cwd !== undefined && { cwd }),
        ...(env !== undefined && { env }),
      };
    } finally {
      clearTimeout(killTimer);
      clearTimeout(hardTimer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** A worker terminated meanwhile took the sandbox with it: nothing is left to close. */
  override async dispose(): Promise<void> {
    await super.dispose().catch(() => undefined);
  }
}
