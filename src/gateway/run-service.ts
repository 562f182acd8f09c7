// Runs as a service: one reply at a time per thread (a Web Lock across tabs, a set within this worker), its events
// streamed (or batched for the page), and its cancel. A run reads forward from here: its context, read once
// (runs/run-context.ts); its recorder, through which every event passes (runs/run-recorder.ts); the executor
// (runs/run-executor.ts), which builds the lead agent and streams it (runs/run-stream.ts); `end` always last.
import type { RunEvent, RunEventBatchListener, RunEventListener, RunRequest, RunsApi } from "../protocol/index.ts";
import type { RunRecord } from "../storage/index.ts";
import { readRunContext, type RunContextSources } from "./runs/run-context.ts";
import { createRunEventCoalescer } from "./runs/run-event-coalescer.ts";
import { executeRun, type RUN_LOST } from "./runs/run-executor.ts";
import { RunRecorder, type RunRecorderStorage } from "./runs/run-recorder.ts";
import { tryLockThread } from "./thread-locks.ts";
import type { ThreadSearchService } from "./thread-search-service.ts";

export interface RunServiceOptions extends RunContextSources {
  /** Each run's workspace and outputs, kept as the files of the checkpoint it ended at. */
  fileVersions: RunRecorderStorage["fileVersions"];
  search: ThreadSearchService;
  /** Told when a run ended: a sandbox whose skills changed meanwhile closes then. */
  onRunEnded: (threadId: string) => Promise<void>;
}

export class RunService implements RunsApi {
  private readonly controllers = new Map<string, AbortController>();
  private readonly running = new Set<string>();

  constructor(private readonly options: RunServiceOptions) {}

  /** Whether this worker is running a reply on the thread (any thread without an id). */
  isRunning(threadId?: string): boolean {
    return threadId === undefined ? this.running.size > 0 : this.running.has(threadId);
  }

  /** Stops the run: the user's Stop, or `lost` when the server's replica no longer holds it (see RUN_LOST). */
  async cancel(runId: string, reason?: typeof RUN_LOST): Promise<void> {
    this.controllers.get(runId)?.abort(reason);
  }

  /** A run in this browser is always this page's own (one at a time per thread, across tabs): none to join. */
  async join(): Promise<boolean> {
    return false;
  }

  /** The thread's runs, oldest first, with their status and error. */
  list(threadId: string): Promise<RunRecord[]> {
    return this.options.threads.runs(threadId);
  }

  async stream(request: RunRequest, onEvent: RunEventListener): Promise<void> {
    const controller = new AbortController();
    this.controllers.set(request.run_id, controller);
    // Listener failures (a closed page) must not break the run: its history is still saved.
    const emit = (event: RunEvent): void => {
      try {
        void Promise.resolve(onEvent(event)).catch(() => undefined);
      } catch {
        // ignored, see above
      }
    };
    const refuse = (message: string): void => {
      emit({ event: "metadata", data: { run_id: request.run_id, thread_id: request.thread_id } });
      emit({ event: "error", data: { error: "busy", message } });
      emit({ event: "end", data: { status: "error" } });
    };
    try {
      if (this.running.has(request.thread_id)) return refuse("This thread is already running a reply.");
      const release = await tryLockThread(request.thread_id);
      if (!release) {
        return refuse("This thread is running a reply in another tab. Wait for it to finish, or stop it there.");
      }
      this.running.add(request.thread_id);
      try {
        await this.run(request, emit, controller.signal);
      } finally {
        this.running.delete(request.thread_id);
        await this.options.onRunEnded(request.thread_id);
        release();
      }
    } finally {
      this.controllers.delete(request.run_id);
    }
  }

  async streamBatched(request: RunRequest, onEvents: RunEventBatchListener): Promise<void> {
    const batches = createRunEventCoalescer(onEvents);
    try {
      await this.stream(request, (event) => batches.push(event));
    } finally {
      batches.flush();
    }
  }

  /**
   * The run itself, holding the thread's lock: its context is read once, its record written as it starts, every event
   * passes through its recorder, and the record is stored once it ended.
   */
  private async run(request: RunRequest, emit: (event: RunEvent) => void, signal: AbortSignal): Promise<void> {
    const recorder = new RunRecorder(request, this.options, emit);
    try {
      const start = await readRunContext(this.options, request, recorder);
      if ("refused" in start) return recorder.refuse(start.refused);
      await recorder.begin(start.context);
      await executeRun(start.context, recorder.event, signal);
    } catch (error) {
      recorder.fail(error);
    } finally {
      await recorder.finish();
    }
  }
}
