// A server workspace's runs (`workspace.runs`, docs/architecture.md#d13-workspaces): a run streamed from the server
// through the SDK (`runs.stream`, resumable, going on when the page leaves), its parts turned back into RunEvents by
// the mapping the server writes them with (src/gateway/runs/langgraph-stream-events.ts), batched as this browser's
// runs are (run-event-coalescer.ts), `end` always last with the status the server stored; Stop as LangGraph's cancel;
// `join` follows a run another device started, from its first event.
import { z } from "zod";
import {
  isApprovalRequestedEvent,
  type RunEndStatus,
  type RunEvent,
  type RunEventBatchListener,
  type RunEventListener,
  type RunRequest,
  type RunsApi,
} from "../../protocol/index.ts";
import { endStatusOf, runEventOf, wireMessagesOf } from "../runs/langgraph-stream-events.ts";
import { STREAM_MODES } from "../runs/langgraph-stream-parts.ts";
import { createRunEventCoalescer } from "../runs/run-event-coalescer.ts";
import { FawnApiError } from "./fawn-api-client.ts";
import { ASSISTANT_ID, historySchema, valuesOf, type RemoteContext } from "./remote-context.ts";

interface ActiveRun {
  threadId: string;
  /** The server's id for the run, once it said (its `metadata`, or the run's creation). */
  serverRunId?: string;
  cancelled: boolean;
  /** Set once the server's id is known: a Stop pressed before then waits for it. */
  created: Promise<void>;
  markCreated: () => void;
}

const runSchema = z.object({ run_id: z.string(), status: z.string().optional() });
const runsSchema = z.array(runSchema).max(1000);

type StreamPartIterable = AsyncIterable<{ event: string; data: unknown }>;

export class RemoteRuns implements RunsApi {
  private readonly active = new Map<string, ActiveRun>();
  /** The thread each approval a run asked for waits in (the REST route to answer it is per thread). */
  private readonly approvals = new Map<string, string>();

  constructor(private readonly remote: RemoteContext) {}

  async streamBatched(request: RunRequest, onEvents: RunEventBatchListener): Promise<void> {
    const batches = createRunEventCoalescer(onEvents);
    try {
      await this.stream(request, (event) => batches.push(event));
    } finally {
      batches.flush();
    }
  }

  async stream(request: RunRequest, onEvent: RunEventListener): Promise<void> {
    let markCreated!: () => void;
    const run: ActiveRun = {
      threadId: request.thread_id,
      cancelled: false,
      created: new Promise((resolve) => (markCreated = resolve)),
      markCreated: () => markCreated(),
    };
    this.active.set(request.run_id, run);
    try {
      const body = await this.runBody(request);
      const parts = this.remote.client.runs.stream(request.thread_id, ASSISTANT_ID, {
        ...body,
        streamMode: [...STREAM_MODES],
        streamResumable: true,
        onDisconnect: "continue",
        multitaskStrategy: "reject",
        ifNotExists: "create",
        onRunCreated: ({ run_id }) => {
          run.serverRunId = run_id;
          run.markCreated();
        },
      }) as StreamPartIterable;
      await this.follow(parts, run, onEvent);
    } catch (error) {
      onEvent({ event: "error", data: this.runError(error) });
      onEvent({ event: "end", data: { status: "error" } });
    } finally {
      run.markCreated();
      this.active.delete(request.run_id);
      await this.rememberAgent(request);
      // The run wrote the thread (its messages, title, status): other tabs of this workspace list it again.
      this.remote.notify({ type: "thread-changed", thread_id: request.thread_id });
    }
  }

  /**
   * A DeerFlow thread keeps its custom agent in its metadata (`agent_name`, as DeerFlow's frontend writes it), so the
   * thread reopens with it; a Fawn server keeps it itself. Never a failure: the run's reply counts, not this.
   */
  private async rememberAgent(request: RunRequest): Promise<void> {
    const agent = request.context?.agent;
    if (agent === undefined || this.remote.server.kind !== "deerflow") return;
    await this.remote
      .sdk((client) => client.threads.update(request.thread_id, { metadata: { agent_name: agent } }))
      .catch(() => undefined);
  }

  /** Passes the stream's parts on as RunEvents, then `end` with the run's stored status. */
  private async follow(parts: StreamPartIterable, run: ActiveRun, onEvent: RunEventListener): Promise<void> {
    let sawError = false;
    for await (const part of parts) {
      const event = runEventOf(part, run.serverRunId ?? "remote");
      if (!event) continue;
      if (event.event === "metadata" && !run.serverRunId) {
        run.serverRunId = event.data.run_id;
        run.markCreated();
      }
      if (event.event === "error") sawError = true;
      if (event.event === "custom" && isApprovalRequestedEvent(event.data)) {
        this.approvals.set(event.data.approval_id, run.threadId);
      }
      onEvent(event);
    }
    onEvent({ event: "end", data: { status: await this.endStatus(run, sawError) } });
  }

  private async endStatus(run: ActiveRun, sawError: boolean): Promise<RunEndStatus> {
    if (run.cancelled) return "interrupted";
    if (!run.serverRunId) return sawError ? "error" : "success";
    try {
      const stored = runSchema.safeParse(await this.remote.client.runs.get(run.threadId, run.serverRunId));
      return endStatusOf(stored.success ? stored.data.status : undefined, sawError);
    } catch {
      return sawError ? "error" : "success";
    }
  }

  private runError(error: unknown): Extract<RunEvent, { event: "error" }>["data"] {
    const failure = this.remote.sdkError(error);
    const state = this.remote.connection.current().state;
    const code = state === "offline" ? "unreachable" : state === "unauthorized" ? "authentication" : "server_error";
    // 409: the thread already runs (`multitaskStrategy: "reject"`), whatever sentence the server says it in.
    const busy = failure instanceof FawnApiError && failure.status === 409;
    return { error: busy ? "busy" : code, message: failure.message };
  }

  /** The run's input, model and mode, and where on the thread it starts, as LangGraph's run body. */
  private async runBody(request: RunRequest) {
    const context = {
      ...(request.context?.mode && { mode: request.context.mode }),
      ...(request.context?.model && { model_name: request.context.model }),
      // DeerFlow's name for the custom agent a run talks to (null: back to the lead agent).
      ...(request.context?.agent !== undefined && { agent_name: request.context.agent }),
    };
    const messages = request.input.messages.map((message) => ({
      type: "human",
      content: message.content,
      ...(message.id && { id: message.id }),
      additional_kwargs: {
        ...message.additional_kwargs,
        ...(message.files && message.files.length > 0 && { files: message.files }),
      },
    }));
    const branch = request.branch;
    if (branch?.kind === "resume") return { input: null, context };
    if (!branch) return { input: { messages }, context };
    const checkpoint =
      "checkpoint" in branch ? branch.checkpoint : await this.checkpointAround(request.thread_id, branch);
    return {
      input: branch.kind === "edit" ? { messages } : null,
      context,
      checkpointId: checkpoint,
    };
  }

  /**
   * The checkpoint a message-id branch starts from: for an edit, the last one before the user message was added;
   * for a regeneration, the one that ends with it (the server answers that checkpoint's last user message again).
   */
  private async checkpointAround(
    threadId: string,
    branch: { kind: "edit" | "regenerate"; message_id: string },
  ): Promise<string> {
    const history = this.remote.parse(
      historySchema,
      await this.remote.sdk((client) => client.threads.getHistory(threadId, { limit: 1000 })),
      "a thread's history",
    );
    // Newest first: the newest checkpoint that ends with the message (a regeneration), or that holds exactly the
    // messages before it (an edit: the message is sent again, changed, from there).
    const states = history.map((state) => ({
      id: state.checkpoint?.checkpoint_id,
      ids: wireMessagesOf(valuesOf(state).messages).map((message) => message.id),
    }));
    const holding = states.find((state) => state.ids.includes(branch.message_id));
    const before = holding ? holding.ids.slice(0, holding.ids.indexOf(branch.message_id)) : undefined;
    const found = states.find((state) =>
      branch.kind === "regenerate"
        ? state.ids.at(-1) === branch.message_id
        : before !== undefined &&
          state.ids.length === before.length &&
          state.ids.every((id, index) => id === before[index]),
    );
    if (found?.id) return found.id;
    throw this.remote.unavailable("Editing or regenerating this message");
  }

  /** The thread an approval waits in, as its run's `approval_requested` named it. */
  approvalThread(approvalId: string): string | undefined {
    return this.approvals.get(approvalId);
  }

  async cancel(runId: string): Promise<void> {
    const run = this.active.get(runId) ?? [...this.active.values()].find((active) => active.serverRunId === runId);
    if (!run) return;
    run.cancelled = true;
    await run.created;
    if (!run.serverRunId) return;
    const serverRunId = run.serverRunId;
    await this.remote.sdk((client) => client.runs.cancel(run.threadId, serverRunId, false, "interrupt"));
  }

  async join(threadId: string, onEvents: RunEventBatchListener): Promise<boolean> {
    const running = this.remote.parse(
      runsSchema,
      await this.remote.sdk((client) => client.runs.list(threadId, { status: "running", limit: 1 })),
      "a list of runs",
    );
    const serverRunId = running[0]?.run_id;
    if (!serverRunId) return false;
    const batches = createRunEventCoalescer(onEvents);
    const run: ActiveRun = {
      threadId,
      serverRunId,
      cancelled: false,
      created: Promise.resolve(),
      markCreated: () => undefined,
    };
    this.active.set(`join:${serverRunId}`, run);
    try {
      const parts = this.remote.client.runs.joinStream(threadId, serverRunId, {
        // "-1": from the run's first event (a server that keeps them replays them; Fawn's does without it too).
        lastEventId: "-1",
        streamMode: [...STREAM_MODES],
      }) as StreamPartIterable;
      await this.follow(parts, run, (event) => batches.push(event));
    } catch (error) {
      batches.push({ event: "error", data: this.runError(error) });
      batches.push({ event: "end", data: { status: "error" } });
    } finally {
      this.active.delete(`join:${serverRunId}`);
      batches.flush();
    }
    return true;
  }
}
