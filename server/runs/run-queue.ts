// The server's run queue over Postgres: runs are rows in fawn_runs, their events rows in fawn_run_events. Any replica
// creates a run; a worker loop in each claims queued runs (one running run per thread), holds a lease it renews,
// executes through the owner's Gateway, stores every event in order, and acts on cancels any replica writes; a run
// whose replica died is ended `interrupted` when its lease expires, and the thread's next run starts anywhere.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Gateway } from "../../src/gateway/index.ts";
import type { RunEvent, RunRequest } from "../../src/protocol/index.ts";
import { checkpointOf, runRequestOf } from "./run-request.ts";
import { ACTIVE, RunStore, type QueuedRun } from "./run-store.ts";
import { LocalRun } from "./local-run.ts";
import {
  RunConflictError,
  RunInputError,
  type CancelAction,
  type CreateRunOptions,
  type ListRunsOptions,
  type RunQueueOptions,
  type RunStatus,
  type ServerRun,
  type StoredRunEvent,
} from "./run-types.ts";

/** Runs one replica executes at once (each on its own thread). */
const MAX_LOCAL_RUNS = 16;
/** Events a join reads from the table at a time. */
const PAGE = 500;

const END_STATUS: Record<string, RunStatus> = { success: "success", error: "error", interrupted: "interrupted" };

export class RunQueue {
  private readonly store: RunStore;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly local = new Map<string, LocalRun>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private ticking: Promise<void> = Promise.resolve();
  private lastBeat = 0;
  private lastReap = 0;

  constructor(private readonly options: RunQueueOptions) {
    this.store = new RunStore(options.db);
    this.leaseMs = Math.max(50, options.leaseMs ?? 10_000);
    this.pollMs = Math.max(5, options.pollMs ?? 100);
  }

  /** Starts this replica's worker loop (claims, heartbeats, cancels, the reaper). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops the worker: no new claims; runs held here are cancelled, end `interrupted`, and are stored as such. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.ticking;
    const runs = [...this.local.values()];
    for (const run of runs) run.requestCancel("interrupt");
    await Promise.race([
      Promise.allSettled(runs.map((run) => run.done)),
      sleep(this.leaseMs, undefined, { ref: false }),
    ]);
  }

  /**
   * Queues a run on `threadId` (the thread must exist in the owner's storage: the routes check). `reject` throws
   * RunConflictError when the thread has a pending or running run; `interrupt`/`rollback` cancel those; `enqueue`
   * waits behind them. Throws RunInputError for kwargs Fawn cannot run.
   */
  async create(owner: string, threadId: string, options: CreateRunOptions): Promise<ServerRun> {
    const runId = options.runId ?? randomUUID();
    const kwargs = withMessageIds(options.kwargs);
    runRequestOf(runId, threadId, kwargs);
    await this.checkCheckpoint(owner, threadId, kwargs);
    const strategy = options.multitaskStrategy ?? "reject";
    let before: QueuedRun[] = [];
    const run = await this.store.insert(
      owner,
      {
        run_id: runId,
        thread_id: threadId,
        assistant_id: options.assistantId,
        multitask_strategy: strategy,
        kwargs,
        metadata: options.metadata ?? {},
      },
      async (active) => {
        if (active.length > 0 && strategy === "reject") return false;
        before = active;
        return true;
      },
    );
    if (!run) throw new RunConflictError();
    if (strategy === "interrupt" || strategy === "rollback") {
      for (const active of before) await this.cancelRun(active, strategy);
    }
    this.wake();
    return run;
  }

  /** Refuses a run from a checkpoint the thread does not have (LangGraph's `checkpoint`, `checkpoint_id`). */
  private async checkCheckpoint(owner: string, threadId: string, kwargs: CreateRunOptions["kwargs"]): Promise<void> {
    const checkpointId = checkpointOf(kwargs);
    if (checkpointId === undefined) return;
    const gateway = await this.options.gateways.forUser(owner);
    const tuple = await gateway.checkpointer.getTuple({
      configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: checkpointId },
    });
    if (!tuple) throw new RunInputError(`Checkpoint ${checkpointId} is not one of thread ${threadId}'s checkpoints.`);
  }

  /** The owner's run (on `threadId` when given), or undefined. */
  async get(owner: string, threadId: string | undefined, runId: string): Promise<ServerRun | undefined> {
    const queued = await this.store.get(owner, runId);
    return queued && (threadId === undefined || queued.run.thread_id === threadId) ? queued.run : undefined;
  }

  /** The thread's runs, newest first (default 10 of them). */
  list(owner: string, threadId: string, options: ListRunsOptions = {}): Promise<ServerRun[]> {
    return this.store.list(owner, threadId, options);
  }

  /** Deletes a run and its events (an active one is cancelled first); false when there is none. */
  async delete(owner: string, threadId: string, runId: string): Promise<boolean> {
    const queued = await this.store.get(owner, runId);
    if (!queued || queued.run.thread_id !== threadId) return false;
    if (ACTIVE.includes(queued.run.status)) await this.cancelRun(queued, "interrupt");
    return this.store.delete(owner, runId);
  }

  /**
   * Asks for the run to stop, from any replica: a pending run ends at once, a running one on the replica that holds
   * it (here at once, elsewhere within a poll). Returns the run as it is now, or undefined when there is none.
   */
  async cancel(
    owner: string,
    threadId: string,
    runId: string,
    action: CancelAction = "interrupt",
  ): Promise<ServerRun | undefined> {
    const queued = await this.store.get(owner, runId);
    if (!queued || queued.run.thread_id !== threadId) return undefined;
    await this.cancelRun(queued, action);
    return (await this.store.get(owner, runId))?.run;
  }

  /**
   * The run's events after `afterSeq` (0: all), then new ones as they come, until `end` (or `signal`, or the run is
   * deleted). Callers check ownership first with `get`.
   */
  async *events(runId: string, afterSeq = 0, signal?: AbortSignal): AsyncGenerator<StoredRunEvent> {
    let last = Math.max(0, Math.floor(afterSeq));
    while (!signal?.aborted) {
      const local = this.local.get(runId);
      if (local) {
        // A run held here is followed in memory: every event is there from the first, stored or not yet.
        for (;;) {
          for (const event of local.eventsAfter(last)) {
            // `end` waits for the run's status to be stored with it (a join that ends then reads the run ended).
            if (event.event === "end" && !local.endReleased()) break;
            yield event;
            last = event.seq;
            if (event.event === "end") return;
          }
          if (local.finished || signal?.aborted) break;
          await local.changed(signal);
        }
        continue;
      }
      const page = await this.store.eventsAfter(runId, last, PAGE);
      for (const event of page) {
        yield event;
        last = event.seq;
        if (event.event === "end") return;
      }
      if (page.length === PAGE) continue;
      const status = await this.store.status(runId);
      if (status === undefined) return;
      if (!ACTIVE.includes(status)) {
        // Its last events were stored with its end status: read once more, then stop.
        for (const event of await this.store.eventsAfter(runId, last, PAGE)) yield event;
        return;
      }
      if (this.local.has(runId)) continue;
      await sleep(this.pollMs, undefined, { signal }).catch(() => undefined);
    }
  }

  /** Resolves with the run once it ended (or as it was last seen, if it was deleted meanwhile). */
  async wait(runId: string, signal?: AbortSignal): Promise<ServerRun> {
    let seen: ServerRun | undefined;
    for (;;) {
      await this.local.get(runId)?.done;
      const queued = await this.store.byId(runId);
      if (!queued) {
        if (seen) return seen;
        throw new Error(`There is no run with id ${runId}.`);
      }
      seen = queued.run;
      if (!ACTIVE.includes(queued.run.status) || signal?.aborted) return queued.run;
      await sleep(this.pollMs, undefined, { signal }).catch(() => undefined);
    }
  }

  /** Whether the thread has a pending or running run (LangGraph's thread status `busy`). */
  async isBusy(owner: string, threadId: string): Promise<boolean> {
    return (await this.store.active(owner, threadId)).length > 0;
  }

  private async cancelRun(queued: QueuedRun, action: CancelAction): Promise<void> {
    if (queued.run.status === "pending" && (await this.store.cancelPending(queued.run.run_id))) return;
    await this.store.requestCancel(queued.run.run_id, action);
    this.local.get(queued.run.run_id)?.requestCancel(action);
  }

  // The worker loop: one tick at a time, every pollMs, sooner when a run is created here.

  private wake(): void {
    if (this.running) this.schedule(0);
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.ticking = this.ticking.then(() => this.tick());
    }, delay);
  }

  private async tick(): Promise<void> {
    if (!this.running) return;
    try {
      await this.watchLocal();
      await this.reapExpired();
      await this.claimAll();
    } catch {
      // The database was unreachable for a moment: the next tick tries again; a lease outlives a few of them.
    }
    if (this.running) this.schedule(this.pollMs);
  }

  /** Acts on cancel requests for the runs held here; renews their leases; stops any taken away. */
  private async watchLocal(): Promise<void> {
    const ids = [...this.local.keys()];
    if (ids.length === 0) return;
    const now = Date.now();
    if (now - this.lastBeat >= this.leaseMs / 3) {
      const held = await this.store.heartbeat(this.options.replicaId, ids, this.leaseMs);
      this.lastBeat = now;
      for (const id of ids) {
        const run = this.local.get(id);
        if (!run || run.finished) continue;
        if (!held.has(id)) run.lose();
        else {
          const cancel = held.get(id);
          if (cancel) run.requestCancel(cancel);
        }
      }
      return;
    }
    for (const [id, cancel] of await this.store.cancels(ids)) this.local.get(id)?.requestCancel(cancel);
  }

  private async reapExpired(): Promise<void> {
    const now = Date.now();
    if (now - this.lastReap < Math.max(this.pollMs, this.leaseMs / 4)) return;
    this.lastReap = now;
    await this.store.reap();
  }

  private async claimAll(): Promise<void> {
    while (this.running && this.local.size < MAX_LOCAL_RUNS) {
      const queued = await this.store.claim(this.options.replicaId, this.leaseMs);
      if (!queued) return;
      this.execute(queued);
    }
  }

  /** Runs a claimed run through its owner's Gateway; its events are stored as they come and it ends stored. */
  private execute(queued: QueuedRun): void {
    const { run_id: runId } = queued.run;
    const run = new LocalRun(queued, this.store, this.options.replicaId);
    this.local.set(runId, run);
    run.done = (async () => {
      try {
        await this.executeIn(run, queued);
      } finally {
        this.local.delete(runId);
      }
    })();
  }

  private async executeIn(run: LocalRun, queued: QueuedRun): Promise<void> {
    const { run_id: runId, thread_id: threadId } = queued.run;
    try {
      const gateway = await this.options.gateways.forUser(queued.owner);
      const request = await this.requestOf(gateway, queued);
      await this.freshSandbox(gateway, queued);
      const streaming = gateway.runs.stream(request, (event: RunEvent) => run.push(event));
      run.attach(gateway.runs);
      await streaming;
      // Before the run's end is stored, so the thread's next run starts from where this one began.
      if (run.cancel === "rollback") await gateway.branches.rollBack(threadId, runId);
    } catch (error) {
      run.fail(error);
    }
    const end = run.endStatus();
    await run.finish(END_STATUS[end] ?? "error", this.leaseMs);
  }

  /**
   * The run's request. A Continue (no input) after a run whose replica died before the thread saved that run's
   * messages sends those messages: the run was accepted with them, so they are the user's and must not go with the
   * replica. (Continues that died the same way are looked past; a run someone cancelled is not resent.)
   */
  private async requestOf(gateway: Pick<Gateway, "checkpointer">, queued: QueuedRun): Promise<RunRequest> {
    const { run_id: runId, thread_id: threadId } = queued.run;
    const request = runRequestOf(runId, threadId, queued.run.kwargs);
    if (request.branch?.kind !== "resume" || queued.run.kwargs.command !== undefined) return request;
    const runs = await this.store.recent(queued.owner, threadId, 20);
    for (const earlier of runs.slice(runs.findIndex((run) => run.run.run_id === runId) + 1)) {
      const died = earlier.run.status === "interrupted" && earlier.replica !== null && earlier.cancel === null;
      if (!died) return request;
      const sent = runRequestOf(earlier.run.run_id, threadId, earlier.run.kwargs);
      if (sent.branch?.kind === "resume") continue;
      const ids = sent.input.messages.map((message) => message.id);
      if (sent.branch !== undefined || ids.some((id) => id === undefined)) return request;
      const tuple = await gateway.checkpointer.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } });
      const saved = (tuple?.checkpoint.channel_values as { messages?: { id?: string }[] } | undefined)?.messages ?? [];
      if (saved.some((message) => ids.includes(message.id))) return request;
      const { branch: _resume, ...send } = request;
      // New ids: the dead replica may have stored the message record though no step of the thread names it.
      const messages = sent.input.messages.map((message) => ({ ...message, id: randomUUID() }));
      return { ...send, input: { messages } };
    }
    return request;
  }

  /**
   * Every run starts from the thread's stored files: a sandbox this replica kept open may miss what was written since
   * through any replica (another run, an upload, an edit, a move to another version), so it is closed first and opens
   * again from storage when the run's first command needs it.
   */
  private async freshSandbox(gateway: Pick<Gateway, "sandbox">, queued: QueuedRun): Promise<void> {
    await gateway.sandbox.close(queued.run.thread_id);
  }
}

/**
 * The run's kwargs with an id on each human message that has none, so the thread's saved messages tell whether a run
 * whose replica died had saved them (RunQueue.requestOf).
 */
function withMessageIds(kwargs: CreateRunOptions["kwargs"]): CreateRunOptions["kwargs"] {
  const messages = kwargs.input?.messages;
  if (!Array.isArray(messages)) return kwargs;
  const named = messages.map((message: unknown) => {
    if (typeof message !== "object" || message === null || Array.isArray(message)) return message;
    const { id } = message as { id?: unknown };
    return id === undefined || id === null || id === "" ? { ...message, id: randomUUID() } : message;
  });
  return { ...kwargs, input: { ...kwargs.input, messages: named } };
}
