// A run's record, from start to end: every event of the run passes through the recorder on its way to the page, so the
// record follows the run's status and error, each saved step moves its end (a run cut off by a closed page still says
// where it stopped), and once the run ended the record is stored with the checkpoint it ended at and the thread's
// files are kept as that version's (docs/architecture.md#d11-branches).
import type { ChangeNotice, RunError, RunEvent, RunRequest, ThreadSummary } from "../../protocol/index.ts";
import { redactSecrets } from "../../shared/redact.ts";
import type { RunRecord } from "../../storage/index.ts";
import type { BranchRecord } from "../branch-service.ts";
import type { Emit } from "./run-stream.ts";
import { storageRunError } from "./storage-run-error.ts";

/** What the recorder writes: the run records, the kept files, the search index; and where the thread's steps end. */
export interface RunRecorderStorage {
  threads: {
    recordRun(record: RunRecord): Promise<void>;
    run(threadId: string, runId: string): Promise<RunRecord | undefined>;
  };
  checkpointer: { latestCheckpointId(threadId: string): Promise<string | undefined> };
  fileVersions: { save(threadId: string, checkpointId: string): Promise<void> };
  search: { invalidate(threadId: string): Promise<void>; index(threadId: string): Promise<void> };
  /**
   * Tells every tab a step was saved, so a tab showing the thread shows it even if this one dies before the run's
   * end (whose notice would then never come).
   */
  notify?: (notice: ChangeNotice) => void;
}

/** What the recorder learns from the run's context as it begins. */
export interface RecordedRun {
  /** Undefined: there is no such thread, and so no record. */
  thread: ThreadSummary | undefined;
  /** The model the run talks to (undefined: none is set up). */
  target: { model: string } | undefined;
  branch: BranchRecord;
}

export class RunRecorder {
  private readonly startedAt = Date.now();
  /** Stored keys, kept out of a failure's message. */
  private secrets: readonly string[] = [];
  /** The run began on a thread that exists: it has a record. */
  private known = false;
  private model = "";
  private branch: BranchRecord = {};
  private status: RunRecord["status"] = "error";
  private failure: RunError | undefined;
  private end: string | undefined;
  /** The last progress write: the end waits for it. */
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly request: RunRequest,
    private readonly storage: RunRecorderStorage,
    private readonly emit: Emit,
  ) {}

  /**
   * Every event of the run, on to the page: `end` and `error` set the record's status and error; a saved step
   * (`values`) moves its end.
   */
  readonly event = (event: RunEvent): void => {
    if (event.event === "end") this.status = event.data.status;
    if (event.event === "error") this.failure = event.data;
    if (event.event === "values" && this.known) this.saveProgress();
    this.emit(event);
  };

  /** Stored keys, once read: a failure's message never carries one. */
  redacting(secrets: readonly string[]): void {
    this.secrets = secrets;
  }

  /** The run starts: its record is written, running, and the thread's search entry waits for its end. */
  async begin(run: RecordedRun): Promise<void> {
    this.model = run.target?.model ?? "";
    this.branch = run.branch;
    this.known = run.thread !== undefined;
    if (!this.known) return;
    await this.storage.threads.recordRun({ ...this.record(), status: "running" });
    await this.storage.search.invalidate(this.request.thread_id);
  }

  /** The run was refused before it began (its plan): no record, and the page reads why. */
  refuse(message: string): void {
    this.event({ event: "metadata", data: { run_id: this.request.run_id, thread_id: this.request.thread_id } });
    this.event({ event: "error", data: { error: "bad_request", message } });
    this.event({ event: "end", data: { status: "error" } });
  }

  /** The run threw: the executor emits `end` as its very last step, so it has not been sent yet. */
  fail(error: unknown): void {
    // Nothing here calls a model: a wrapped database error counts too.
    const data = storageRunError(error, { followCause: true }) ?? {
      error: "unknown" as const,
      message: redactSecrets(`The run failed: ${error instanceof Error ? error.message : String(error)}`, this.secrets),
    };
    this.event({ event: "error", data });
    this.event({ event: "end", data: { status: "error" } });
  }

  /**
   * The run ended: its record is stored as it ended, with where it ended; the thread's files are kept as that
   * version's; a resumption also moves the end of the run it continued, whose turn it finished. Then the thread is
   * indexed for search again.
   */
  async finish(): Promise<void> {
    if (!this.known) return;
    const { threads, fileVersions, search } = this.storage;
    await this.saving;
    const first = this.record();
    try {
      this.end = await this.endOf();
      const final = this.record();
      await threads.recordRun(final);
      if (final.end !== undefined) await fileVersions.save(final.thread_id, final.end);
      if (this.branch.kind === "resume" && this.branch.continues && final.end !== undefined) {
        const continued = await threads.run(final.thread_id, this.branch.continues);
        if (continued) {
          await threads.recordRun({ ...continued, status: final.status, end: final.end, updated_at: Date.now() });
        }
      }
    } catch {
      await threads.recordRun(first).catch(() => undefined);
    }
    await search.index(this.request.thread_id).catch(() => undefined);
  }

  private record(): RunRecord {
    return {
      thread_id: this.request.thread_id,
      run_id: this.request.run_id,
      status: this.status,
      created_at: this.startedAt,
      updated_at: Date.now(),
      ...(this.model ? { model: this.model } : {}),
      ...(this.failure ? { error: this.failure } : {}),
      ...this.branch,
      ...(this.end !== undefined && { end: this.end }),
    };
  }

  /** The thread's newest checkpoint, or undefined when the run saved none (it was refused). */
  private async endOf(): Promise<string | undefined> {
    const latest = await this.storage.checkpointer.latestCheckpointId(this.request.thread_id);
    return latest !== this.branch.base ? latest : undefined;
  }

  /** Each saved step moves the run's end, in order, a failed write skipped. */
  private saveProgress(): void {
    this.saving = this.saving
      .then(async () => {
        this.end = await this.endOf();
        await this.storage.threads.recordRun({ ...this.record(), status: "running" });
        this.storage.notify?.({ type: "thread-changed", thread_id: this.request.thread_id });
      })
      .catch(() => undefined);
  }
}
