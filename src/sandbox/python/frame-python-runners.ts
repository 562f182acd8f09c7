// python3 for the sandbox worker: a WorkerPythonRunner per thread over the page's walled-off Python workers
// (page/python-frame-host.ts), so a thread's program never shares an interpreter, its modules or its memory with another
// thread's. The most recently used threads keep their interpreter warm; the least recently used idle one is ended
// when a further thread needs Python. Once a page has used Python, one spare interpreter is started ahead (it runs
// only `pass`), so the next thread's first program does not wait for Pyodide to load. A worker's memory snapshot of its
// fresh interpreter (python-worker-protocol.ts) goes to the page, which starts later workers from it; it is taken only
// as a worker's very first message, before any program can have run there. Once Python has been used in this browser
// (a snapshot is kept, so a start is cheap), the spare is also started when a thread's sandbox opens (prestart).
import * as Comlink from "comlink";
import type { PythonFrames } from "./python-frame-protocol.ts";
import type { PythonRunner, PythonRunRequest, PythonRunResult } from "./python-runner.ts";
import type { PythonSnapshotMessage, PythonWorkerResponse } from "./python-worker-protocol.ts";
import type { WorkerPythonRunner } from "./worker-python-runner.ts";
import { type SpawnPythonWorker } from "./worker-python-runner.ts";

/** How many threads keep a warm interpreter (each holds a Pyodide, tens of MB). */
export const WARM_THREADS = 2;
/** How long after a program ends the spare interpreter starts loading, so it does not compete with the next step. */
export const SPARE_DELAY_MS = 500;
/** How long after a thread's sandbox opens a prestarted spare starts loading (prestart). */
export const PRESTART_DELAY_MS = 1_000;

/** What warms the spare: Pyodide loads, runs nothing of anyone's, and wipes its files as after every run. */
const WARM_UP: PythonRunRequest = {
  argv: ["-c", "pass"],
  cwd: "/mnt/user-data/workspace",
  files: {},
  timeoutMs: 30_000,
};

/** A SpawnPythonWorker over a broker that is attached later (the page hands it over after the worker starts). */
export function spawnFramePythonWorker(broker: Promise<Comlink.Remote<PythonFrames>>): SpawnPythonWorker {
  return (events) => {
    let ended = false;
    let port: MessagePort | undefined;
    let id: number | undefined;
    const queued: unknown[] = [];
    void (async () => {
      const frames = await broker;
      const spawned = await frames.spawn();
      if (ended) {
        spawned.port.close();
        await frames.terminate(spawned.id);
        return;
      }
      ({ id, port } = spawned);
      let first = true;
      spawned.port.addEventListener("message", (event: MessageEvent<PythonWorkerResponse | PythonSnapshotMessage>) => {
        const message = event.data;
        const isFirst = first;
        first = false;
        if (message.type !== "snapshot") return events.message(message);
        // Later, a program may have run in that interpreter: its snapshot would carry the program's traces.
        if (isFirst) {
          const { bytes: view } = message;
          const whole = view.byteOffset === 0 && view.byteLength === view.buffer.byteLength;
          const bytes = (whole ? view.buffer : view.slice().buffer) as ArrayBuffer;
          void frames.keepSnapshot(Comlink.transfer(bytes, [bytes])).catch(() => undefined);
        }
      });
      spawned.port.addEventListener("messageerror", () => events.crash("a message from Python could not be read"));
      spawned.port.start();
      for (const message of queued.splice(0)) spawned.port.postMessage(message);
      const reason = await frames.failure(spawned.id);
      if (reason && !ended) events.crash(reason);
    })().catch((error: unknown) => {
      if (!ended) events.crash(error instanceof Error ? error.message : String(error));
    });
    return {
      send: (message) => (port ? port.postMessage(message) : queued.push(message)),
      terminate: () => {
        ended = true;
        port?.close();
        if (id !== undefined) void broker.then((frames) => frames.terminate(id!)).catch(() => undefined);
      },
    };
  };
}

/** One runner per thread, created on first use (see the module comment). */
export class PerThreadPythonRunners {
  private readonly runners = new Map<string, { runner: WorkerPythonRunner; busy: number }>();
  /** A fresh interpreter no thread has used yet. */
  private spare: WorkerPythonRunner | undefined;
  private spareTimer: ReturnType<typeof setTimeout> | undefined;
  private prestarting = false;

  /** @param spareDelayMs null: no spare (tests that count interpreters). */
  constructor(
    private readonly create: () => WorkerPythonRunner,
    private readonly warmThreads = WARM_THREADS,
    private readonly spareDelayMs: number | null = SPARE_DELAY_MS,
  ) {}

  /** The thread's runner; cheap, holds nothing until it runs a program. */
  forThread(threadId: string): PythonRunner {
    return {
      run: (request, signal) => this.run(threadId, request, signal),
      dispose: () => this.release(threadId),
    };
  }

  /** Ends the thread's interpreter, if it has one. */
  release(threadId: string): void {
    this.runners.get(threadId)?.runner.dispose();
    this.runners.delete(threadId);
  }

  dispose(): void {
    for (const threadId of [...this.runners.keys()]) this.release(threadId);
    clearTimeout(this.spareTimer);
    this.spareTimer = undefined;
    this.spare?.dispose();
    this.spare = undefined;
  }

  private async run(threadId: string, request: PythonRunRequest, signal?: AbortSignal): Promise<PythonRunResult> {
    let entry = this.runners.get(threadId);
    this.runners.delete(threadId);
    entry ??= { runner: this.takeSpare() ?? this.create(), busy: 0 };
    // Most recent last: Map keeps insertion order.
    this.runners.set(threadId, entry);
    this.evict();
    entry.busy++;
    try {
      return await entry.runner.run(request, signal);
    } finally {
      entry.busy--;
      this.prepareSpare();
    }
  }

  /**
   * Starts the spare ahead of the first program, e.g. when a thread's sandbox opens, if `worthIt` says a start is
   * cheap (the page keeps a snapshot: Python was used in this browser before). Still one spare at most; nothing if a
   * spare is there or on its way.
   */
  prestart(worthIt: () => Promise<boolean>): void {
    if (this.spareDelayMs === null || this.spare || this.spareTimer || this.prestarting) return;
    this.prestarting = true;
    void worthIt()
      .then(
        (yes) => {
          if (yes) this.prepareSpare(PRESTART_DELAY_MS);
        },
        () => undefined,
      )
      .finally(() => (this.prestarting = false));
  }

  private takeSpare(): WorkerPythonRunner | undefined {
    const spare = this.spare;
    this.spare = undefined;
    return spare;
  }

  private prepareSpare(delayMs = this.spareDelayMs): void {
    if (delayMs === null || this.spare || this.spareTimer) return;
    this.spareTimer = setTimeout(() => {
      this.spareTimer = undefined;
      // A program (or a Pyodide start) under way comes first; its end prepares the spare again.
      if (this.spare || [...this.runners.values()].some((entry) => entry.busy > 0)) return;
      const spare = this.create();
      this.spare = spare;
      void spare.run(WARM_UP);
    }, delayMs);
  }

  private evict(): void {
    let excess = this.runners.size - this.warmThreads;
    for (const [threadId, entry] of this.runners) {
      if (excess <= 0) break;
      if (entry.busy > 0) continue;
      this.release(threadId);
      excess--;
    }
  }
}
