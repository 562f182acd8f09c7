// `/compact`: the summarization middleware's fold, run now at the user's request instead of past its trigger. The
// summary goes to the thread's `summary` state as the middleware writes it, so the next request sends the summary in
// place of the older messages; the thread keeps every message (the conversation still shows them all).
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { countTokensApproximately } from "langchain";
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

/** Estimated tokens of what the next request sends: the messages, with the summary in place of those it covers. */
export function contextTokens(messages: readonly BaseMessage[], summary: ConversationSummary | undefined): number {
  return countTokensApproximately(withSummary(messages, summary));
}

/** The thread's messages and summary as its latest checkpoint holds them (none for a thread without one). */
export async function threadContextState(
  checkpointer: BaseCheckpointSaver,
  threadId: string,
): Promise<{ messages: BaseMessage[]; summary: ConversationSummary | undefined }> {
  const tuple = await checkpointer.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } });
  const values = (tuple?.checkpoint.channel_values ?? {}) as { messages?: unknown; summary?: unknown };
  const messages = Array.isArray(values.messages) ? (values.messages as BaseMessage[]) : [];
  const summary = values.summary as Partial<ConversationSummary> | undefined;
  return {
    messages,
    summary:
      typeof summary?.text === "string" && typeof summary.through === "string"
        ? { text: summary.text, through: summary.through }
        : undefined,
  };
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
  keep?: number;
  signal?: AbortSignal;
}): Promise<CompactResult> {
  const { messages, summary } = await threadContextState(options.checkpointer, options.threadId);
  const folded = await foldSummary(options.model, messages, summary, {
    keepMessages: options.keep ?? COMPACT_KEEP_MESSAGES,
    maxInputChars: SUMMARIZATION_DEFAULTS.maxInputChars,
    ...(options.signal && { signal: options.signal }),
  });
  if (!folded) return { folded: 0, tokens: contextTokens(messages, summary) };
  // Written through the agent's graph, as a middleware's update is: the channel and its history stay LangGraph's.
  const agent = createLeadAgent({ model: options.model, checkpointer: options.checkpointer });
  await agent.updateState(
    { configurable: { thread_id: options.threadId } },
    { summary: folded.summary },
    "model_request",
  );
  return { folded: folded.folded, tokens: contextTokens(messages, folded.summary) };
}
