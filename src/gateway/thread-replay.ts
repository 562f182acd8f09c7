// Replay: a thread's saved steps, oldest first, as its checkpoint history holds them. Each checkpoint is a step the
// agent completed (the user's message, a reply with tool calls, the tools' results, a plan update), so showing them
// in order plays the thread back. Messages are sent once, by id; a step names the ones it shows.
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { ReplayStep, ThreadReplay, TodoItem, WireMessage } from "../protocol/index.ts";
import { stateView } from "./checkpoint-views.ts";

function sameStep(a: ReplayStep, b: ReplayStep): boolean {
  return (
    a.message_ids.length === b.message_ids.length &&
    a.message_ids.every((id, index) => id === b.message_ids[index]) &&
    JSON.stringify(a.todos) === JSON.stringify(b.todos) &&
    a.artifacts.length === b.artifacts.length &&
    a.artifacts.every((path, index) => path === b.artifacts[index])
  );
}

/**
 * The thread's steps from its checkpoints: those of the branch that ends at `head` (default: the newest checkpoint),
 * so other versions of its turns are not played. A thread with fewer than two saved steps (one imported from
 * DeerFlow, or from before checkpoints) is played back a message at a time from `shown`, the thread as the page shows
 * it.
 */
export async function threadReplay(
  checkpointer: BaseCheckpointSaver,
  threadId: string,
  shown: { messages: readonly WireMessage[]; todos: TodoItem[]; artifacts: string[] },
  head?: string,
): Promise<ThreadReplay> {
  const byId = new Map<string, { values: Record<string, unknown>; parent: string | undefined }>();
  let newest: string | undefined;
  for await (const tuple of checkpointer.list({ configurable: { thread_id: threadId, checkpoint_ns: "" } })) {
    newest ??= tuple.checkpoint.id;
    const parent = tuple.parentConfig?.configurable?.checkpoint_id as string | undefined;
    byId.set(tuple.checkpoint.id, { values: tuple.checkpoint.channel_values, parent });
  }
  const lineage: Record<string, unknown>[] = [];
  for (let id = head ?? newest; id !== undefined && lineage.length <= byId.size; id = byId.get(id)?.parent) {
    const step = byId.get(id);
    if (!step) break;
    lineage.push(step.values);
  }
  const messages = new Map<string, WireMessage>();
  const steps: ReplayStep[] = [];
  for (const values of lineage.reverse()) {
    const view = stateView(values);
    if (view.messages.length === 0) continue;
    for (const message of view.messages) messages.set(message.id, message);
    const step = {
      message_ids: view.messages.map((message) => message.id),
      todos: view.todos,
      artifacts: view.artifacts,
    };
    const last = steps.at(-1);
    if (!last || !sameStep(last, step)) steps.push(step);
  }
  if (steps.length >= 2) return { messages: [...messages.values()], steps };

  const ids = shown.messages.map((message) => message.id);
  const last = ids.length - 1;
  return {
    messages: [...shown.messages],
    steps: ids.map((_, index) => ({
      message_ids: ids.slice(0, index + 1),
      // The plan and the presented files are known only as they were at the end.
      todos: index === last ? shown.todos : [],
      artifacts: index === last ? shown.artifacts : [],
    })),
  };
}
