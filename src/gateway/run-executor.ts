// One agent run: streams LangGraph's events, keeps the thread's history, and always ends with `end`.
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import { createLeadAgent, fromWireMessage, toWireChunk, toWireMessage } from "../agent/index.ts";
import { describeModelError, isConfigured } from "../models/index.ts";
import type {
  AiWireMessage,
  HumanWireMessage,
  ModelSettings,
  RunEndStatus,
  RunError,
  RunEvent,
  RunRequest,
  ThreadEntry,
  WireMessage,
} from "../protocol/index.ts";
import { newId } from "../shared/ids.ts";
import { titleFromText } from "../shared/text.ts";
import { contentText } from "../protocol/index.ts";
import type { ThreadRepository } from "../storage/index.ts";

export interface RunDependencies {
  threads: ThreadRepository;
  settings: ModelSettings;
  createModel: (settings: ModelSettings) => BaseChatModel;
  /** Called after each write to the thread's history, so other tabs can refresh. */
  onThreadChanged?: (threadId: string) => void;
}

type Emit = (event: RunEvent) => void;

/** Text and reasoning streamed so far per message id, to keep a partial answer when the user presses Stop. */
type Partial = Map<string, { content: string; reasoning: string }>;

function isMessage(value: unknown): value is BaseMessage {
  return typeof value === "object" && value !== null && "content" in value && "type" in value;
}

/** Structured-clone-safe copy of a stream payload: LangChain messages become wire messages. */
function toWireValue(value: unknown): unknown {
  if (isMessage(value)) return toWireMessage(value);
  if (Array.isArray(value)) return value.map(toWireValue);
  if (typeof value === "object" && value !== null) {
    const plain: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) if (typeof item !== "function") plain[key] = toWireValue(item);
    return plain;
  }
  return value;
}

function partialMessages(partial: Partial, saved: readonly WireMessage[]): ThreadEntry[] {
  const savedIds = new Set(saved.map((message) => message.id));
  const entries: ThreadEntry[] = [];
  for (const [id, { content, reasoning }] of partial) {
    if (savedIds.has(id) || (content.length === 0 && reasoning.length === 0)) continue;
    // Tool calls of an unfinished message are dropped: a call without its result would make the next request invalid.
    const message: AiWireMessage = { type: "ai", id, content, ...(reasoning ? { reasoning } : {}) };
    entries.push({ kind: "message", message, stopped: true });
  }
  return entries;
}

/**
 * Runs the lead agent on the thread with the request's new message. Persists the user's message first, then
 * the agent's messages (or what was streamed before a Stop, or the error), in one transaction at the end.
 */
export async function executeRun(
  deps: RunDependencies,
  request: RunRequest,
  emit: Emit,
  signal: AbortSignal,
): Promise<void> {
  const { threads, settings } = deps;
  const threadId = request.thread_id;
  emit({ event: "metadata", data: { run_id: request.run_id, thread_id: threadId } });

  const finish = (status: RunEndStatus, error?: RunError): void => {
    if (error) emit({ event: "error", data: error });
    emit({ event: "end", data: { status } });
  };

  const thread = await threads.get(threadId);
  const text = request.input.messages.map((message) => contentText(message.content)).join("\n");
  if (!thread) return finish("error", { error: "bad_request", message: `There is no thread with id ${threadId}.` });
  if (text.trim().length === 0) return finish("error", { error: "bad_request", message: "The message is empty." });

  const history = (await threads.entries(threadId)).flatMap((entry) =>
    entry.kind === "message" ? [entry.message] : [],
  );
  const isFirstExchange = !history.some((message) => message.type === "human");
  const userMessages: HumanWireMessage[] = request.input.messages.map((message) => ({
    type: "human",
    id: newId(),
    content: message.content,
  }));
  await threads.append(
    threadId,
    userMessages.map((message) => ({ kind: "message", message })),
    { status: "busy", ...(isFirstExchange ? { title: titleFromText(text) } : {}) },
  );
  deps.onThreadChanged?.(threadId);

  if (!isConfigured(settings)) {
    const error: RunError = {
      error: "not_configured",
      message: "No model is set up yet. Open Settings → Models and enter a Base URL and a Model.",
    };
    await threads.append(threadId, [{ kind: "error", id: newId(), error, at: Date.now() }], { status: "error" });
    deps.onThreadChanged?.(threadId);
    return finish("error", error);
  }

  const input = [...history, ...userMessages];
  const partial: Partial = new Map();
  let produced: WireMessage[] = [];
  let status: RunEndStatus = "success";
  let runError: RunError | undefined;
  try {
    const agent = createLeadAgent({ model: deps.createModel(settings) });
    const stream = await agent.stream(
      { messages: input.map(fromWireMessage) },
      {
        streamMode: ["values", "messages", "updates", "custom"],
        signal,
        configurable: { thread_id: threadId },
        recursionLimit: 100,
      },
    );
    for await (const [mode, payload] of stream as AsyncIterable<[string, unknown]>) {
      if (mode === "messages") {
        const [chunk, metadata] = payload as [BaseMessage, Record<string, unknown>];
        const wire = toWireChunk(chunk, `run-${request.run_id}`);
        const sofar = partial.get(wire.id) ?? { content: "", reasoning: "" };
        partial.set(wire.id, {
          content: sofar.content + wire.content,
          reasoning: sofar.reasoning + (wire.reasoning ?? ""),
        });
        emit({ event: "messages", data: [wire, toWireValue(metadata) as Record<string, unknown>] });
      } else if (mode === "values") {
        const values = toWireValue(payload) as { messages: WireMessage[] };
        produced = values.messages.slice(input.length);
        emit({ event: "values", data: values });
      } else if (mode === "updates") {
        emit({ event: "updates", data: toWireValue(payload) as Record<string, unknown> });
      } else if (mode === "custom") {
        emit({ event: "custom", data: toWireValue(payload) });
      }
    }
  } catch (error) {
    if (signal.aborted) status = "interrupted";
    else {
      status = "error";
      runError = describeModelError(error, settings.baseUrl);
    }
  }

  const entries: ThreadEntry[] = produced.map((message) => ({ kind: "message", message }));
  if (status === "interrupted") entries.push(...partialMessages(partial, produced));
  if (runError) entries.push({ kind: "error", id: newId(), error: runError, at: Date.now() });
  await threads.append(threadId, entries, { status: status === "error" ? "error" : "idle" });
  deps.onThreadChanged?.(threadId);
  finish(status, runError);
}
