// A run this replica executes: its events kept in memory from the first (joins here follow them without a query),
// stored in batches a few tens of milliseconds apart, and its end stored with its status in one transaction. A
// cancel (from any replica) or a lost lease stops it through the Gateway's own cancel.
import type { Gateway } from "../../src/gateway/index.ts";
import type { RunEvent } from "../../src/protocol/index.ts";
import type { RunStore, QueuedRun } from "./run-store.ts";
import { RunInputError, type CancelAction, type RunStatus, type StoredRunEvent } from "./run-types.ts";

/** How long events wait to be stored together. */
const BATCH_MS = 25;
/** Events one INSERT carries at most. */
const BATCH_SIZE = 500;

export class LocalRun {
  /** Every event so far; `seq` is its index + 1. */
  private readonly events: StoredRunEvent[] = [];
  private stored = 0;
  private storing: Promise<void> = Promise.resolve();
  private flushTimer: NodeJS.Timeout | undefined;
  private waiters = new Set<() => void>();
  private runs: Pick<Gateway["runs"], "cancel"> | undefined;
  /** The cancel asked for (the first one counts). */
  cancel: CancelAction | undefined;
  /** Another replica ended it (its lease expired meanwhile) or it was deleted: nothing more is stored. */
  private lost = false;
  /** Its end is stored (or it was lost): joins read the table from here on. */
  finished = false;
  done: Promise<void> = Promise.resolve();

  constructor(
    private readonly queued: QueuedRun,
    private readonly store: RunStore,
    private readonly replica: string,
  ) {}

  get runId(): string {
    return this.queued.run.run_id;
  }

  /** One event of the run, in order: kept, passed to joins here, stored soon. */
  push(event: RunEvent): void {
    if (this.finished) return;
    this.events.push({ seq: this.events.length + 1, event: event.event, data: event.data });
    this.changedNow();
    // The end is stored by finish(), with the run's status: a join that read `end` then reads the run ended.
    if (event.event !== "end" && !this.lost && this.flushTimer === undefined) {
      this.flushTimer = setTimeout(() => this.flush(), BATCH_MS);
    }
  }

  /** Whether the run's `end` may be passed on: once its status is stored with it. */
  endReleased(): boolean {
    return this.finished;
  }

  eventsAfter(seq: number): StoredRunEvent[] {
    return this.events.slice(Math.max(0, seq));
  }

  /** Resolves at the next event, the end, or `signal`. */
  changed(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.waiters.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      this.waiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  /** The Gateway's runs are streaming it: a cancel asked for before goes through now. */
  attach(runs: Pick<Gateway["runs"], "cancel">): void {
    this.runs = runs;
    if (this.lost) void runs.cancel(this.runId, "lost");
    else if (this.cancel) void runs.cancel(this.runId);
  }

  requestCancel(action: CancelAction): void {
    if (this.cancel) return;
    this.cancel = action;
    void this.runs?.cancel(this.runId);
  }

  /** The run is no longer this replica's: it stops, and stores nothing more. */
  lose(): void {
    this.lost = true;
    // Not a Stop: the thread's record says the server lost it, so Continue resumes it (RUN_LOST).
    void this.runs?.cancel(this.runId, "lost");
  }

  /** The run threw outside the Gateway's own handling (its kwargs, the user's Gateway failing to open). */
  fail(error: unknown): void {
    if (this.events.length === 0) {
      this.push({ event: "metadata", data: { run_id: this.runId, thread_id: this.queued.run.thread_id } });
    }
    if (this.events.some((event) => event.event === "end")) return;
    // Only our own sentences reach the stream: another error's text may carry what the user must not see.
    const message = error instanceof RunInputError ? error.message : "The run failed on the server.";
    this.push({
      event: "error",
      data: { error: error instanceof RunInputError ? "bad_request" : "server_error", message },
    });
    this.push({ event: "end", data: { status: "error" } });
  }

  /** The status its `end` event gave (one is added when the run ended without one). */
  endStatus(): string {
    const end = this.events.findLast((event) => event.event === "end");
    if (end) return (end.data as { status: string }).status;
    this.push({ event: "error", data: { error: "server_error", message: "The run ended without an end." } });
    this.push({ event: "end", data: { status: "error" } });
    return "error";
  }

  /** Stores what is left and the end status together (tried again while the database is away, up to the lease). */
  async finish(status: RunStatus, leaseMs: number): Promise<void> {
    clearTimeout(this.flushTimer);
    await this.storing;
    const deadline = Date.now() + leaseMs;
    while (!this.lost) {
      try {
        while (this.events.length - this.stored > BATCH_SIZE) await this.storeBatch(this.events.length);
        const rest = this.events.slice(this.stored);
        if (!(await this.store.finish(this.runId, this.replica, rest, status))) this.lost = true;
        else this.stored = this.events.length;
        break;
      } catch {
        if (Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    this.finished = true;
    this.changedNow();
  }

  private flush(): void {
    this.flushTimer = undefined;
    this.storing = this.storing.then(async () => {
      if (this.lost || this.finished) return;
      try {
        while (this.stored < this.storable() && !this.lost) await this.storeBatch();
      } catch {
        // The database was away: the next event, or the end, stores these too.
        if (this.flushTimer === undefined) this.flushTimer = setTimeout(() => this.flush(), 100);
      }
    });
  }

  /** How many events may be stored before finish(): those before the first `end`. */
  private storable(): number {
    const end = this.events.findIndex((event) => event.event === "end");
    return end === -1 ? this.events.length : end;
  }

  private async storeBatch(limit = this.storable()): Promise<void> {
    const batch = this.events.slice(this.stored, Math.min(this.stored + BATCH_SIZE, limit));
    if (!(await this.store.appendEvents(this.runId, this.replica, batch))) return this.lose();
    this.stored += batch.length;
  }

  private changedNow(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
