// `/compact`: the summarization middleware's fold, run now at the user's request instead of past its trigger. The
// summary goes to the thread's `summary` state as the middleware writes it, so the next request sends the summary in
// place of the older messages; the thread keeps every message (the conversation still shows them all).
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { countTokensApproximately } from "langchain";
import { usageOf } from "./middlewares/token-usage.ts";
import { createLeadAgent } from "./lead-agent.ts";
import {
  foldSummary,
  SUMMARIZATION_DEFAULTS,
  withSummary,
  type ConversationSummary,
} from "./middlewares/summarization.ts";

/**
 * Messages `/compact` leaves as they are: the latest exchange or two. Fewer than summarization keeps on its own (10),
 * because the user asked to shrink the thread now; a thread this short has nothing to fold.
 */
export const COMPACT_KEEP_MESSAGES = 4;

/** Approximate tokens of the messages a request sends: the summary in place of those it covers. */
function estimate(messages: readonly BaseMessage[], summary: ConversationSummary | undefined): number {
  return countTokensApproximately(withSummary(messages, summary));
}

/** The index of the last model answer that reports its usage, or -1. */
function lastReported(messages: readonly BaseMessage[]): number {
  return messages.findLastIndex((message) => usageOf(message) !== undefined);
}

/** The tokens a `/compact` since the last reported model call took off (0 when a call came after it). */
function savedSinceLastCall(messages: readonly BaseMessage[], summary: ConversationSummary | undefined): number {
  const compacted = summary?.compacted;
  if (!compacted) return 0;
  const at = messages.findIndex((message) => message.id === compacted.after);
  return at >= lastReported(messages) ? compacted.saved : 0;
}

/**
 * The tokens the thread's next request takes. The last model call's reported usage (its input and answer), because
 * only the model's own count includes the system prompt and the tools' schemas, which are most of a short thread;
 * less what a `/compact` since then took off; never less than the estimate of the messages themselves (a provider
 * that reports no usage, or messages added since).
 */
export function contextTokens(messages: readonly BaseMessage[], summary: ConversationSummary | undefined): number {
  const estimated = estimate(messages, summary);
  const index = lastReported(messages);
  if (index < 0) return estimated;
  const usage = usageOf(messages[index])!;
  const reported = usage.input_tokens + usage.output_tokens;
  return Math.max(estimated, reported - savedSinceLastCall(messages, summary));
}

/** The messages and summary a checkpoint's channel values hold (none: an empty list, no summary). */
export function contextStateOf(channelValues: Record<string, unknown> | undefined): {
  messages: BaseMessage[];
  summary: ConversationSummary | undefined;
} {
  const values = (channelValues ?? {}) as { messages?: unknown; summary?: unknown };
  const messages = Array.isArray(values.messages) ? (values.messages as BaseMessage[]) : [];
  const summary = values.summary as Partial<ConversationSummary> | undefined;
  const compacted = summary?.compacted;
  return {
    messages,
    summary:
      typeof summary?.text === "string" && typeof summary.through === "string"
        ? {
            text: summary.text,
            through: summary.through,
            ...(typeof compacted?.after === "string" &&
              typeof compacted.saved === "number" && { compacted: { after: compacted.after, saved: compacted.saved } }),
          }
        : undefined,
  };
}

/**
 * The thread's messages and summary as its checkpoint `checkpointId` holds them (default: the latest, the version the
 * thread shows unless the user moved to another); none for a thread without one.
 */
export async function threadContextState(
  checkpointer: BaseCheckpointSaver,
  threadId: string,
  checkpointId?: string,
): Promise<{ messages: BaseMessage[]; summary: ConversationSummary | undefined }> {
  const tuple = await checkpointer.getTuple({
    configurable: { thread_id: threadId, checkpoint_ns: "", ...(checkpointId && { checkpoint_id: checkpointId }) },
  });
  return contextStateOf(tuple?.checkpoint.channel_values);
}

export interface CompactResult {
  /** Messages newly covered by the summary (0: nothing to fold, or the model gave no text). */
  folded: number;
  /** Estimated tokens of the next request's messages afterwards. */
  tokens: number;
}

/**
 * Folds the thread's messages older than its latest `keep` into its summary with `model` (one call) and saves the
 * summary as a new checkpoint. The caller holds the thread's lock: no run may write the thread meanwhile.
 */
export async function compactThread(options: {
  model: BaseChatModel;
  checkpointer: BaseCheckpointSaver;
  threadId: string;
  /** The version to compact (default: the latest); the summary is saved as its child. */
  checkpointId?: string;
  keep?: number;
  signal?: AbortSignal;
  /** Ids of imported messages (another person's thread): the summary keeps them apart from the user's. */
  foreign?: ReadonlySet<string>;
}): Promise<CompactResult> {
  const { messages, summary } = await threadContextState(options.checkpointer, options.threadId, options.checkpointId);
  const folded = await foldSummary(options.model, messages, summary, {
    keepMessages: options.keep ?? COMPACT_KEEP_MESSAGES,
    maxInputChars: SUMMARIZATION_DEFAULTS.maxInputChars,
    ...(options.signal && { signal: options.signal }),
    ...(options.foreign && { foreign: options.foreign }),
  });
  if (!folded) return { folded: 0, tokens: contextTokens(messages, summary) };
  const last = messages.at(-1)?.id;
  const saved =
    savedSinceLastCall(messages, summary) + estimate(messages, summary) - estimate(messages, folded.summary);
  const next: ConversationSummary = {
    ...folded.summary,
    ...(last && { compacted: { after: last, saved: Math.max(0, saved) } }),
  };
  // Written through the agent's graph, as a middleware's update is: the channel and its history stay LangGraph's.
  const agent = createLeadAgent({ model: options.model, checkpointer: options.checkpointer });
  const config = {
    configurable: { thread_id: options.threadId, ...(options.checkpointId && { checkpoint_id: options.checkpointId }) },
  };
  await agent.updateState(config, { summary: next }, "model_request");
  return { folded: folded.folded, tokens: contextTokens(messages, next) };
}
