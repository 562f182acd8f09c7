// A thread's state as LangGraph's API answers it (`ThreadState`): the channel values of a checkpoint read from Fawn's
// checkpointer (messages stay LangChain messages, serialised by `serialise` as LangGraph's server does), its
// checkpoint and parent, and the history newest first. Updating the state writes a checkpoint through the lead
// agent's own graph, as a node's update would, so channels and versions stay LangGraph's.
import { FakeListChatModel } from "@langchain/core/utils/testing";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { createLeadAgent } from "../../src/agent/index.ts";
import type { CheckpointStorage } from "../../src/storage/index.ts";
import { HttpProblem } from "./http.ts";

export interface CheckpointRef {
  thread_id: string;
  checkpoint_id: string;
  checkpoint_ns: string;
  checkpoint_map: Record<string, unknown> | null;
}

export interface ThreadState {
  values: Record<string, unknown>;
  next: string[];
  tasks: unknown[];
  metadata?: Record<string, unknown>;
  created_at: string | null;
  checkpoint: CheckpointRef | null;
  parent_checkpoint: CheckpointRef | null;
}

/** The node a state update is written as when the caller names none: the agent's model step, as /compact writes. */
export const DEFAULT_UPDATE_NODE = "model_request";

function checkpointRef(config: RunnableConfig | undefined): CheckpointRef | null {
  const configurable = config?.configurable;
  if (typeof configurable?.thread_id !== "string" || typeof configurable.checkpoint_id !== "string") return null;
  return {
    thread_id: configurable.thread_id,
    checkpoint_id: configurable.checkpoint_id,
    checkpoint_ns: typeof configurable.checkpoint_ns === "string" ? configurable.checkpoint_ns : "",
    checkpoint_map: null,
  };
}

/** The state's values: the checkpoint's channels but LangGraph's internal ones (`__start__`, `branch:to:…`). */
export function stateValues(channelValues: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(channelValues).filter(([name]) => !name.startsWith("__") && !name.includes(":")),
  );
}

/** One checkpoint as a ThreadState; `title` (the thread's, kept in its record) stands in the values when given. */
export function threadStateOf(tuple: CheckpointTuple, title?: string): ThreadState {
  const values = stateValues(tuple.checkpoint.channel_values);
  return {
    values: title === undefined ? values : { ...values, title },
    next: [],
    tasks: [],
    metadata: { ...tuple.metadata },
    created_at: tuple.checkpoint.ts,
    checkpoint: checkpointRef(tuple.config),
    parent_checkpoint: checkpointRef(tuple.parentConfig),
  };
}

/** The state of a thread without a checkpoint yet, as LangGraph answers it. */
export function emptyThreadState(title?: string): ThreadState {
  return {
    values: title === undefined ? {} : { title },
    next: [],
    tasks: [],
    created_at: null,
    checkpoint: null,
    parent_checkpoint: null,
  };
}

/** The thread's checkpoint `checkpointId` (default: its latest), or undefined. */
export function readCheckpoint(
  checkpointer: CheckpointStorage,
  threadId: string,
  checkpointId: string | undefined,
): Promise<CheckpointTuple | undefined> {
  return checkpointer.getTuple({
    configurable: { thread_id: threadId, checkpoint_ns: "", ...(checkpointId && { checkpoint_id: checkpointId }) },
  });
}

/** The thread's states newest first: at most `limit`, older than `before`, whose metadata holds `metadata`. */
export async function threadHistory(
  checkpointer: CheckpointStorage,
  threadId: string,
  options: { limit: number; before?: string; checkpointId?: string; metadata?: Record<string, unknown> },
): Promise<ThreadState[]> {
  const states: ThreadState[] = [];
  const config = {
    configurable: {
      thread_id: threadId,
      checkpoint_ns: "",
      ...(options.checkpointId && { checkpoint_id: options.checkpointId }),
    },
  };
  for await (const tuple of checkpointer.list(config, {
    limit: options.limit,
    ...(options.before && { before: { configurable: { checkpoint_id: options.before } } }),
    ...(options.metadata && { filter: options.metadata }),
  })) {
    states.push(threadStateOf(tuple));
  }
  return states;
}

/**
 * Writes `values` as node `asNode` on top of checkpoint `checkpointId` (default: the latest), through the lead
 * agent's graph (its reducers: messages are added or replaced by id); answers the new checkpoint's config.
 */
export async function updateThreadState(
  checkpointer: CheckpointStorage,
  threadId: string,
  update: { values: Record<string, unknown> | Record<string, unknown>[] | null; asNode: string; checkpointId?: string },
): Promise<{ configurable: CheckpointRef }> {
  // The graph needs a model to be built; a state update never calls it.
  const agent = createLeadAgent({ model: new FakeListChatModel({ responses: [] }), checkpointer });
  const config = {
    configurable: {
      thread_id: threadId,
      checkpoint_ns: "",
      ...(update.checkpointId && { checkpoint_id: update.checkpointId }),
    },
  };
  let written: RunnableConfig;
  try {
    written = await agent.updateState(config, update.values ?? {}, update.asNode);
  } catch (error) {
    // The storage's own failures (a DOMException, a Postgres error with its code) are the server's, not the update's.
    if (error instanceof DOMException || (typeof error === "object" && error !== null && "code" in error)) throw error;
    // LangGraph refuses what does not fit its channels or nodes before it writes anything.
    const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0]!.replace(/[.\s]*$/, "");
    throw new HttpProblem(422, `The state update does not fit the agent's state: ${reason}.`);
  }
  const ref = checkpointRef(written);
  if (!ref) throw new Error("The state update saved no checkpoint.");
  return { configurable: ref };
}
