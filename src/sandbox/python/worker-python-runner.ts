// PythonRunner over a dedicated worker (workers/python.worker.ts, started by `spawn`) on first use and kept warm: runs are
// queued one at a time, and a run that times out or is cancelled ends with `worker.terminate()`, the only way to stop
// a busy Python; the next run then starts a fresh worker.
import { stoppedMessage } from "../sandbox.ts";
import { appendLine } from "../sandbox-support.ts";
import { decodeChunks } from "./python-core.ts";
import type { PythonRunner, PythonRunRequest, PythonRunResult } from "./python-runner.ts";
import type { PythonWorkerRequest, PythonWorkerResponse } from "./python-worker-protocol.ts";

/** What the runner hears from its worker. */
export interface PythonWorkerEvents {
  message(message: PythonWorkerResponse): void;
  /** The worker failed outside any program (its script did not load, it ran out of memory…). */
  crash(reason: string): void;
}

/** A started worker, as the runner drives it. */
export interface PythonWorkerHandle {
  send(message: PythonWorkerRequest): void;
  terminate(): void;
}

/** Starts a python worker that reports to `events`. */
export type SpawnPythonWorker = (events: PythonWorkerEvents) => PythonWorkerHandle;

export interface WorkerPythonRunnerOptions {
  /**
   * Starts the interpreter's worker: in the app, a walled-off worker in the page's Python frames
   * (frame-python-runners.ts); in tests, a Node worker thread.
   */
  spawn: SpawnPythonWorker;
  /** How long loading Pyodide and the thread's files may take before the run is given up (default 60 s). */
  startupTimeoutMs?: number;
}

const DEFAULT_STARTUP_TIMEOUT_MS = 60_000;

interface ActiveRun {
  onMessage(message: PythonWorkerResponse): void;
  onCrash(reason: string): void;
  cancel(): void;
}

/** Runs python3 in a worker of its own (see the module comment). */
export class WorkerPythonRunner implements PythonRunner {
  private readonly spawn: SpawnPythonWorker;
  private readonly startupTimeoutMs: number;
  private worker: PythonWorkerHandle | undefined;
  private active: ActiveRun | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;

  constructor(options: WorkerPythonRunnerOptions) {
    this.spawn = options.spawn;
    this.startupTimeoutMs = options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
  }

  /**
   * Runs one program after the ones already queued. `timeoutMs` counts from the moment the program starts (loading
   * Pyodide has its own, longer limit). Never rejects: a stopped program resolves with `stopped` set, exit code 124
   * (timeout) or 130 (cancelled), what it printed so far, and stderr ending with the reason.
   */
  run(request: PythonRunRequest, signal?: AbortSignal): Promise<PythonRunResult> {
    const run = this.queue.then(() => this.execute(request, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Ends the worker; a run under way resolves as cancelled, and the next run starts a fresh worker. */
  dispose(): void {
    this.active?.cancel();
    this.stopWorker();
  }

  private execute(request: PythonRunRequest, signal: AbortSignal | undefined): Promise<PythonRunResult> {
    const cancelled = stoppedMessage("cancelled", request.timeoutMs);
    if (signal?.aborted) return Promise.resolve(stoppedResult("cancelled", cancelled, { stdout: [], stderr: [] }));
    return new Promise<PythonRunResult>((resolve) => {
      const id = this.nextId++;
      const output = { stdout: [] as Uint8Array[], stderr: [] as Uint8Array[] };
      const finish = (result: PythonRunResult) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", run.cancel);
        if (this.active === run) this.active = undefined;
        resolve(result);
      };
      const stop = (reason: "timeout" | "cancelled", sentence: string) => {
        this.stopWorker();
        finish(stoppedResult(reason, sentence, output));
      };
      const run: ActiveRun = {
        onMessage: (message) => {
          if (message.id !== id) return;
          switch (message.type) {
            case "started":
              clearTimeout(timer);
              timer = setTimeout(
                () => stop("timeout", stoppedMessage("timeout", request.timeoutMs)),
                request.timeoutMs,
              );
              break;
            case "output":
              output[message.stream].push(message.bytes);
              break;
            case "result":
              if (message.fatal) this.stopWorker();
              finish(message.result);
              break;
          }
        },
        onCrash: (reason) => {
          this.stopWorker();
          finish({
            stdout: decodeChunks(output.stdout),
            stderr: appendLine(decodeChunks(output.stderr), `python3: Python stopped unexpectedly: ${reason}`),
            exitCode: 1,
            written: {},
            deleted: [],
          });
        },
        cancel: () => stop("cancelled", cancelled),
      };
      let timer = setTimeout(
        () =>
          stop(
            "timeout",
            `Command stopped: Python did not start within ${this.startupTimeoutMs / 1000} s (loading Pyodide failed or is too slow). Try again.`,
          ),
        this.startupTimeoutMs,
      );
      this.active = run;
      signal?.addEventListener("abort", run.cancel, { once: true });
      try {
        this.ensureWorker().send({ type: "run", id, request });
      } catch (error) {
        run.onCrash(error instanceof Error ? error.message : String(error));
      }
    });
  }

  private ensureWorker(): PythonWorkerHandle {
    if (!this.worker) {
      // Events of a worker that was already replaced are ignored.
      const worker: PythonWorkerHandle = this.spawn({
        message: (message) => {
          if (this.worker === worker) this.active?.onMessage(message);
        },
        crash: (reason) => {
          if (this.worker === worker) this.active?.onCrash(reason);
        },
      });
      this.worker = worker;
    }
    return this.worker;
  }

  private stopWorker(): void {
    this.worker?.terminate();
    this.worker = undefined;
  }
}

/** The result of a program the runner ended: what it printed so far, then the sentence that says why. */
function stoppedResult(
  reason: "timeout" | "cancelled",
  sentence: string,
  output: { stdout: Uint8Array[]; stderr: Uint8Array[] },
): PythonRunResult {
  return {
    stdout: decodeChunks(output.stdout),
    stderr: appendLine(decodeChunks(output.stderr), sentence),
    exitCode: reason === "timeout" ? 124 : 130,
    written: {},
    deleted: [],
    stopped: reason,
  };
}
