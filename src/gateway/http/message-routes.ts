// DeerFlow's thread history feed and token counts, answered from the messages the thread shows now:
// `GET /api/threads/:id/messages/page` (DeerFlow's RunMessage rows, a backward page by `before_seq`) and
// `GET /api/threads/:id/token-usage` (the AI messages' usage summed). DeerFlow reads both from its run event store;
// Fawn keeps no such log, so a row's `seq` is the message's 1-based place in the thread and its `run_id` the run
// that added its turn (the latest run sent with the turn's user message, so a regeneration owns the reply it shows).
// A row's `content` is the message as the shown checkpoint keeps it (LangChain's `toDict` form, as the state route
// answers it), so what a client sent in `additional_kwargs` (`hide_from_ui`) and files' `path` come back.
// Also `GET /api/threads/:id/runs/:run_id/workspace-changes`: DeerFlow's per-run file review, answered "none
// recorded" (Fawn records no such summary for a run).
import { fromWireMessage } from "../../agent/index.ts";
import type { AiWireMessage, ThreadDetail, WireMessage } from "../../protocol/index.ts";
import type { RunRecord } from "../../storage/index.ts";
import type { Gateway } from "../create-gateway.ts";
import { findThread, json, RouteProblem, type RouteGroup } from "./route-kit.ts";

/** DeerFlow's page size: 1 to 200 rows, 50 unless asked. */
const PAGE_LIMIT = { min: 1, max: 200, default: 50 } as const;

interface MessageRow {
  run_id: string;
  seq: number;
  content: Record<string, unknown>;
  metadata: { caller: string };
  created_at: string;
  /** The user's rating, on a run's last AI message only (DeerFlow's `{feedback_id, rating, comment}`). */
  feedback: { feedback_id: string; rating: number; comment: string | null } | null;
}

/** One message of the thread with the run that added its turn (undefined: none known, e.g. an imported thread). */
interface PlacedMessage {
  seq: number;
  message: WireMessage;
  run: RunRecord | undefined;
}

/** The thread's shown messages, each with its seq and run. */
function placedMessages(thread: ThreadDetail, runs: readonly RunRecord[]): PlacedMessage[] {
  let run: RunRecord | undefined;
  const placed: PlacedMessage[] = [];
  for (const entry of thread.entries) {
    if (entry.kind !== "message") continue;
    const message = entry.message;
    // Runs are oldest first: the last one sent with this user message is the version the thread shows.
    if (message.type === "human") run = runs.findLast((candidate) => candidate.user_message_id === message.id);
    placed.push({ seq: placed.length + 1, message, run });
  }
  return placed;
}

/** A message serialised as LangGraph serialises a LangChain message: `{...toDict().data, type}`. */
type SerialisedMessage = Record<string, unknown>;

/** A LangChain message's `{...toDict().data, type}`, or undefined for a value that is not one. */
function fromDict(value: unknown): SerialisedMessage | undefined {
  if (value === null || typeof value !== "object" || typeof (value as { toDict?: unknown }).toDict !== "function") {
    return undefined;
  }
  const { type, data } = (value as { toDict(): { type: string; data: object } }).toDict();
  return { ...(data as SerialisedMessage), type };
}

/**
 * The messages of the checkpoint the thread shows, serialised, by id: they keep what the wire form drops
 * (`additional_kwargs` such as `hide_from_ui`, files' `path`). Empty when the thread has no checkpoint.
 */
async function savedMessages(gateway: Gateway, threadId: string): Promise<Map<string, SerialisedMessage>> {
  const checkpointId = await gateway.branches.shownVersion(threadId);
  const tuple =
    checkpointId === undefined
      ? undefined
      : await gateway.checkpointer.getTuple({
          configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: checkpointId },
        });
  const messages = tuple?.checkpoint.channel_values.messages;
  const byId = new Map<string, SerialisedMessage>();
  for (const value of Array.isArray(messages) ? messages : []) {
    const message = fromDict(value);
    if (message && typeof message.id === "string") byId.set(message.id, message);
  }
  return byId;
}

/** The message as the checkpoint keeps it, else rebuilt from its wire form (a thread from before checkpoints). */
function serialised(message: WireMessage, saved: ReadonlyMap<string, SerialisedMessage>): SerialisedMessage {
  const kept = saved.get(message.id);
  if (kept && kept.type === message.type) return { ...kept };
  return fromDict(fromWireMessage(message)) as SerialisedMessage;
}

/** `name`'s query value as a whole number from `min` to `max`, `fallback` when absent; 422 otherwise. */
function wholeNumber(url: URL, name: string, min: number, max: number, fallback?: number): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isInteger(value) || value < min || value > max) {
    throw new RouteProblem(422, `${name}: a whole number from ${min}${max === Infinity ? " up" : ` to ${max}`}.`);
  }
  return value;
}

/** The seconds a finished run took, as DeerFlow's `turn_duration` (its record's last change minus its start). */
function turnSeconds(run: RunRecord): number | undefined {
  if (run.status === "running") return undefined;
  return Math.max(0, Math.floor((run.updated_at - run.created_at) / 1000));
}

function messagesPage(
  thread: ThreadDetail,
  runs: readonly RunRecord[],
  saved: ReadonlyMap<string, SerialisedMessage>,
  url: URL,
) {
  if (url.searchParams.has("after_seq")) {
    throw new RouteProblem(422, "after_seq is not supported: this page reads backwards, by before_seq.");
  }
  const limit = wholeNumber(url, "limit", PAGE_LIMIT.min, PAGE_LIMIT.max, PAGE_LIMIT.default) as number;
  const placed = placedMessages(thread, runs);
  const beforeSeq = wholeNumber(url, "before_seq", 1, Infinity) ?? placed.length + 1;
  const older = placed.filter((row) => row.seq < beforeSeq);
  const page = older.slice(Math.max(0, older.length - limit));
  const hasMore = older.length > page.length;

  // DeerFlow stamps the run's wall-clock time on its last AI message, and only there.
  const lastAiSeq = new Map<string, number>();
  for (const row of placed) if (row.run && row.message.type === "ai") lastAiSeq.set(row.run.run_id, row.seq);

  const data: MessageRow[] = page.map(({ seq, message, run }) => {
    const content = serialised(message, saved);
    const lastOfRun = run !== undefined && lastAiSeq.get(run.run_id) === seq;
    const seconds = lastOfRun ? turnSeconds(run) : undefined;
    const rated = lastOfRun ? thread.feedback?.[message.id] : undefined;
    if (seconds !== undefined) {
      content.additional_kwargs = { ...(content.additional_kwargs as object), turn_duration: seconds };
    }
    return {
      run_id: run?.run_id ?? "",
      seq,
      content,
      metadata: { caller: "lead_agent" },
      created_at: new Date(run?.created_at ?? thread.created_at).toISOString(),
      feedback: rated ? { feedback_id: rated.message_id, rating: rated.rating, comment: rated.comment ?? null } : null,
    };
  });
  return { data, has_more: hasMore, next_before_seq: hasMore ? (data[0]?.seq ?? null) : null };
}

/** DeerFlow's ThreadTokenUsageResponse from the shown AI messages' `usage_metadata`: all of it is the lead agent's. */
function tokenUsage(thread: ThreadDetail, runs: readonly RunRecord[]) {
  const totals = { total_tokens: 0, total_input_tokens: 0, total_output_tokens: 0 };
  const byModel = new Map<string, { tokens: number; runs: Set<string> }>();
  const runIds = new Set<string>();
  for (const { message, run } of placedMessages(thread, runs)) {
    const usage = message.type === "ai" ? (message as AiWireMessage).usage_metadata : undefined;
    if (!usage) continue;
    totals.total_tokens += usage.total_tokens;
    totals.total_input_tokens += usage.input_tokens;
    totals.total_output_tokens += usage.output_tokens;
    const modelName = (message as AiWireMessage).response_metadata?.model_name;
    const model = typeof modelName === "string" && modelName ? modelName : (run?.model ?? "unknown");
    const entry = byModel.get(model) ?? { tokens: 0, runs: new Set<string>() };
    entry.tokens += usage.total_tokens;
    const runKey = run?.run_id ?? "";
    entry.runs.add(runKey);
    runIds.add(runKey);
    byModel.set(model, entry);
  }
  return {
    thread_id: thread.thread_id,
    ...totals,
    total_runs: runIds.size,
    by_model: Object.fromEntries(
      [...byModel].map(([model, entry]) => [model, { tokens: entry.tokens, runs: entry.runs.size }]),
    ),
    by_caller: { lead_agent: totals.total_tokens, subagent: 0, middleware: 0 },
    context_usage: null,
  };
}

/** The thread as it shows and its runs, or a 404 naming it. */
async function threadAndRuns(gateway: Gateway, threadId: string) {
  const thread = await findThread(gateway, threadId);
  return { thread, runs: await gateway.runs.list(threadId) };
}

/** DeerFlow's answer when a run recorded no workspace changes (its `available: false` response). */
function noWorkspaceChanges() {
  return {
    available: false,
    version: 1,
    summary: { created: 0, modified: 0, deleted: 0, symlink_created: 0, additions: 0, deletions: 0, truncated: false },
    files: [],
    limits: {},
  };
}

export const messageRoutes: RouteGroup = (app, gateway) => {
  app.get("/api/threads/:thread_id/messages/page", async (c) => {
    const threadId = c.req.param("thread_id");
    const { thread, runs } = await threadAndRuns(gateway, threadId);
    const page = messagesPage(thread, runs, await savedMessages(gateway, threadId), new URL(c.req.url));
    return json(page);
  });
  app.get("/api/threads/:thread_id/runs/:run_id/workspace-changes", async (c) => {
    const { runs } = await threadAndRuns(gateway, c.req.param("thread_id"));
    const runId = c.req.param("run_id");
    if (!runs.some((run) => run.run_id === runId)) throw new RouteProblem(404, `Run ${runId} not found.`);
    return json(noWorkspaceChanges());
  });
  app.get("/api/threads/:thread_id/token-usage", async (c) => {
    const { thread, runs } = await threadAndRuns(gateway, c.req.param("thread_id"));
    return json(tokenUsage(thread, runs));
  });
};
