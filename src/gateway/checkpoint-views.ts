// What a checkpoint shows: its messages (as wire messages), the files the agent presented and the plan. Read by the
// thread's history, replay, sharing, branches and the run that starts from it; checkpoint-view-cache.ts keeps the last
// few threads' views.
import type { BaseMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { toWireMessage } from "../agent/index.ts";
import type { TodoItem, WireMessage } from "../protocol/index.ts";
import { isTodoItem } from "../protocol/index.ts";

/** The messages, presented files and plan of one checkpoint. */
export interface CheckpointView {
  messages: WireMessage[];
  artifacts: string[];
  todos: TodoItem[];
}

/** Whether a channel value is a LangChain message (a checkpoint's `messages` holds nothing else). */
export function isMessage(value: unknown): value is BaseMessage {
  return typeof value === "object" && value !== null && "content" in value && "type" in value;
}

/** The messages, presented files and plan a checkpoint's channel values hold. */
export function stateView(values: Record<string, unknown>): CheckpointView {
  const { messages, artifacts, todos } = values;
  return {
    messages: Array.isArray(messages) ? messages.filter(isMessage).map(toWireMessage) : [],
    artifacts: Array.isArray(artifacts) ? artifacts.filter((path): path is string => typeof path === "string") : [],
    todos: Array.isArray(todos) ? todos.filter(isTodoItem).map(({ content, status }) => ({ content, status })) : [],
  };
}

/**
 * The messages and presented files of the thread's checkpoint `checkpointId` (default: the latest), read once;
 * undefined when there is none.
 */
export async function checkpointView(
  checkpointer: BaseCheckpointSaver,
  threadId: string,
  checkpointId?: string,
): Promise<CheckpointView | undefined> {
  const tuple = await checkpointer.getTuple({
    configurable: { thread_id: threadId, checkpoint_ns: "", ...(checkpointId && { checkpoint_id: checkpointId }) },
  });
  return tuple && stateView(tuple.checkpoint.channel_values);
}

/** The messages of the thread's checkpoint (default: the latest), or undefined when it has none (a thread from before them). */
export async function checkpointMessages(
  checkpointer: BaseCheckpointSaver,
  threadId: string,
  checkpointId?: string,
): Promise<WireMessage[] | undefined> {
  return (await checkpointView(checkpointer, threadId, checkpointId))?.messages;
}
