// Runs as a service: one reply at a time per thread (a Web Lock across tabs, a set within this worker), the run's
// record kept from start to end, what it needs read once, and `end` always last.
import type { McpRunTools, ModelErrorOptions } from "../agent/index.ts";
import type { McpProgress } from "../mcp/index.ts";
import type { ChatModelFactory } from "../models/index.ts";
import type { ChangeNotice, RunError, RunEvent, RunEventListener, RunRequest } from "../protocol/index.ts";
import { redactSecrets } from "../shared/redact.ts";
import { UserError } from "../shared/user-error.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { IndexedDbCheckpointSaver, RunRecord, ThreadRepository } from "../storage/index.ts";
import { isQuotaError, STORAGE_FULL_MESSAGE } from "../storage/storage-errors.ts";
import type { ApprovalService } from "./approval-service.ts";
import type { BranchRecord, BranchService } from "./branch-service.ts";
import type { MemoryService } from "./memory-service.ts";
import { executeRun } from "./run-executor.ts";
import type { SettingsService } from "./settings-service.ts";
import type { SkillsService } from "./skills-service.ts";
import { tryLockThread } from "./thread-locks.ts";
import type { ThreadSearchService } from "./thread-search-service.ts";

export interface RunServiceOptions {
  threads: ThreadRepository;
  checkpointer: IndexedDbCheckpointSaver;
  settings: SettingsService;
  memory: MemoryService;
  /** Where tool calls that send data out wait for the user (threads with another person's content, or all). */
  approvals: ApprovalService;
  skills: SkillsService;
  search: ThreadSearchService;
  branches: BranchService;
  createModel: ChatModelFactory;
  /** Retry policy for model errors; tests shorten the waits. */
  retry?: ModelErrorOptions;
  sandbox: (threadId: string) => Promise<Sandbox>;
  /** The enabled MCP servers' tools for a run (undefined: none); a call's progress goes to `onProgress`. */
  mcpTools?: (onProgress: (toolCallId: string, progress: McpProgress) => void) => Promise<McpRunTools | undefined>;
  /** Told when a run ended: a sandbox whose skills changed meanwhile closes then. */
  onRunEnded: (threadId: string) => Promise<void>;
  notify: (notice: ChangeNotice) => void;
}

export class RunService {
  private readonly controllers = new Map<string, AbortController>();
  private readonly running = new Set<string>();

  constructor(private readonly options: RunServiceOptions) {}

  /** Whether this worker is running a reply on the thread (any thread without an id). */
  isRunning(threadId?: string): boolean {
    return threadId === undefined ? this.running.size > 0 : this.running.has(threadId);
  }

  cancel(runId: string): void {
    this.controllers.get(runId)?.abort();
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
        await this.locked(request, emit, controller.signal);
      } finally {
        this.running.delete(request.thread_id);
        await this.options.onRunEnded(request.thread_id);
        release();
      }
    } finally {
      this.controllers.delete(request.run_id);
    }
  }

  /** The run itself, holding the thread's lock: its record is written as it starts and once it ended. */
  private async locked(request: RunRequest, emit: (event: RunEvent) => void, signal: AbortSignal): Promise<void> {
    const { threads, search } = this.options;
    const startedAt = Date.now();
    let secrets: readonly string[] = [];
    let known = false;
    let model = "";
    let status: RunRecord["status"] = "error";
    let failure: RunError | undefined;
    let branch: BranchRecord = {};
    let end: string | undefined;
    const record = (): RunRecord => ({
      thread_id: request.thread_id,
      run_id: request.run_id,
      status,
      created_at: startedAt,
      updated_at: Date.now(),
      ...(model ? { model } : {}),
      ...(failure ? { error: failure } : {}),
      ...branch,
      ...(end !== undefined && { end }),
    });
    // Each saved step moves the run's end, so a run cut off by a closed page still says where it stopped.
    let saving: Promise<void> = Promise.resolve();
    const saveProgress = () => {
      saving = saving
        .then(async () => {
          end = await this.options.branches.endOf(request.thread_id, branch.base);
          await threads.recordRun({ ...record(), status: "running" });
        })
        .catch(() => undefined);
    };
    const track = (event: RunEvent): void => {
      if (event.event === "end") status = event.data.status;
      if (event.event === "error") failure = event.data;
      if (event.event === "values" && known) saveProgress();
      emit(event);
    };
    try {
      // A running MCP call's progress shows on its step in the conversation.
      const onProgress = (toolCallId: string, progress: McpProgress) =>
        track({ event: "custom", data: { type: "tool_progress", tool_call_id: toolCallId, ...progress } });
      const [settings, thread, memory, skills, subagents, mcp] = await Promise.all([
        this.options.settings.forRun(request.context),
        threads.get(request.thread_id),
        this.options.memory.promptSection(),
        this.options.skills.list(),
        this.options.settings.getSubagents(),
        this.options.mcpTools?.(onProgress),
      ]);
      secrets = settings.secrets;
      model = settings.target?.model ?? "";
      let plan: Awaited<ReturnType<BranchService["plan"]>> = { request, record: {} };
      if (thread && !thread.read_only) {
        try {
          plan = await this.options.branches.plan(request, thread);
        } catch (error) {
          if (!(error instanceof UserError)) throw error;
          track({ event: "metadata", data: { run_id: request.run_id, thread_id: request.thread_id } });
          track({ event: "error", data: { error: "bad_request", message: error.message } });
          track({ event: "end", data: { status: "error" } });
          return;
        }
      }
      branch = plan.record;
      known = thread !== undefined;
      // Another person's messages: memory stays out of the thread (and learns nothing) unless the user turned it on
      // there, and tools that send data out ask first, as they do everywhere when Settings → Web says so.
      const foreign = thread?.foreign ? new Set(thread.foreign.message_ids) : undefined;
      const memoryHere = !thread?.foreign || thread.foreign.memory === true;
      const ask = thread?.foreign !== undefined || settings.webTools.askBeforeSending === true;
      if (known) await threads.recordRun({ ...record(), status: "running" });
      if (known) await search.invalidate(request.thread_id);
      await executeRun(
        {
          threads,
          thread,
          checkpointer: this.options.checkpointer,
          target: settings.target,
          createModel: this.options.createModel,
          webTools: settings.webTools,
          ...(settings.proxyUrl && { proxyUrl: settings.proxyUrl }),
          ...(settings.proxyToken && { proxyToken: settings.proxyToken }),
          memory: memoryHere ? memory : "",
          skills,
          subagents,
          ...(foreign && { foreign }),
          ...(ask && {
            approve: (describe) =>
              this.options.approvals.forRun(
                request.thread_id,
                describe,
                track,
                thread?.foreign !== undefined ? "foreign" : "settings",
              ),
          }),
          ...(mcp && { mcp }),
          secrets,
          activateSkill: (text: string) => this.options.skills.activation(text),
          onRunSaved: (threadId, messages) => {
            if (memoryHere) this.options.memory.learnFrom(threadId, messages, foreign);
          },
          ...(this.options.retry && { retry: this.options.retry }),
          sandbox: this.options.sandbox,
          onThreadChanged: (threadId) => this.options.notify({ type: "thread-changed", thread_id: threadId }),
          ...(plan.start && { start: plan.start }),
          ...(branch.user_message_id && { userMessageId: branch.user_message_id }),
        },
        plan.request,
        track,
        signal,
      );
    } catch (error) {
      // executeRun emits `end` as its very last step, so a throw means it has not been sent yet.
      const data = isQuotaError(error)
        ? { error: "storage_full" as const, message: STORAGE_FULL_MESSAGE }
        : {
            error: "unknown" as const,
            message: redactSecrets(
              `The run failed: ${error instanceof Error ? error.message : String(error)}`,
              secrets,
            ),
          };
      track({ event: "error", data });
      track({ event: "end", data: { status: "error" } });
    } finally {
      if (known) await this.recordEnd(record, saving, branch, (saved) => (end = saved));
      if (known) await search.index(request.thread_id).catch(() => undefined);
    }
  }

  /**
   * Stores the run's record as it ended, with where it ended; keeps the thread's files as that version's; a
   * resumption also moves the end of the run it continued, whose turn it finished.
   */
  private async recordEnd(
    record: () => RunRecord,
    saving: Promise<void>,
    branch: BranchRecord,
    setEnd: (end: string | undefined) => void,
  ): Promise<void> {
    const { threads, branches } = this.options;
    await saving;
    const first = record();
    try {
      const end = await branches.endOf(first.thread_id, branch.base);
      setEnd(end);
      const final = record();
      await threads.recordRun(final);
      if (final.end !== undefined) await branches.keepFiles(final.thread_id, final.end);
      if (branch.kind === "resume" && branch.continues && final.end !== undefined) {
        const continued = await threads.run(final.thread_id, branch.continues);
        if (continued) {
          await threads.recordRun({ ...continued, status: final.status, end: final.end, updated_at: Date.now() });
        }
      }
    } catch {
      await threads.recordRun(first).catch(() => undefined);
    }
  }
}
