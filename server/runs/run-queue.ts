// The server's run queue over Postgres: runs are rows in fawn_runs, their events rows in fawn_run_events. Any replica
// creates a run; a worker loop in each claims queued runs (one running run per thread), holds a lease it renews,
// executes through the owner's Gateway, stores every event in order, and acts on cancels any replica writes; a run
// whose replica died is ended `interrupted` when its lease expires.
import type {
  CancelAction,
  CreateRunOptions,
  ListRunsOptions,
  RunQueueOptions,
  ServerRun,
  StoredRunEvent,
} from "./run-types.ts";

export class RunQueue {
  constructor(private readonly options: RunQueueOptions) {}

  /** Starts this replica's worker loop (claims, heartbeats, cancels, the reaper). */
  start(): void {
    throw new Error("not implemented yet");
  }

  /** Stops the worker: no new claims; runs held here are cancelled and end `interrupted`. */
  async stop(): Promise<void> {
    throw new Error("not implemented yet");
  }

  /**
   * Queues a run on `threadId` (the thread must exist in the owner's storage). `reject` throws RunConflictError when
   * the thread has a pending or running run; `interrupt`/`rollback` cancel those first; `enqueue` waits behind them.
   * Throws RunInputError for kwargs Fawn cannot run.
   */
  async create(owner: string, threadId: string, run: CreateRunOptions): Promise<ServerRun> {
    void [owner, threadId, run, this.options];
    throw new Error("not implemented yet");
  }

  /** The owner's run (on `threadId` when given), or undefined. */
  async get(owner: string, threadId: string | undefined, runId: string): Promise<ServerRun | undefined> {
    void [owner, threadId, runId];
    throw new Error("not implemented yet");
  }

  /** The thread's runs, newest first. */
  async list(owner: string, threadId: string, options: ListRunsOptions = {}): Promise<ServerRun[]> {
    void [owner, threadId, options];
    throw new Error("not implemented yet");
  }

  /** Deletes an ended or pending run and its events (a pending one is cancelled); false when there is none. */
  async delete(owner: string, threadId: string, runId: string): Promise<boolean> {
    void [owner, threadId, runId];
    throw new Error("not implemented yet");
  }

  /** Asks for the run to stop (any replica); a pending run ends at once. Returns the run, or undefined. */
  async cancel(
    owner: string,
    threadId: string,
    runId: string,
    action: CancelAction = "interrupt",
  ): Promise<ServerRun | undefined> {
    void [owner, threadId, runId, action];
    throw new Error("not implemented yet");
  }

  /**
   * The run's events after `afterSeq` (0: all), then new ones as they come, until `end` (or `signal`). Callers check
   * ownership first with `get`.
   */
  events(runId: string, afterSeq = 0, signal?: AbortSignal): AsyncIterable<StoredRunEvent> {
    void [runId, afterSeq, signal];
    throw new Error("not implemented yet");
  }

  /** Resolves with the run once it ended. */
  async wait(runId: string, signal?: AbortSignal): Promise<ServerRun> {
    void [runId, signal];
    throw new Error("not implemented yet");
  }

  /** Whether the thread has a pending or running run (LangGraph's thread status `busy`). */
  async isBusy(owner: string, threadId: string): Promise<boolean> {
    void [owner, threadId];
    throw new Error("not implemented yet");
  }
}
