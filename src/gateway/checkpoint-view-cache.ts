// The decoded checkpoints of the last few threads read, kept in the worker and shared by every reader of a thread's
// state: the conversation (threads.get), the context gauge (context.usage), follow-up suggestions, branches and the
// run that starts from it. A checkpoint never changes once written, so it is read and decoded from storage once per
// checkpoint id, not once per reader and open: a thread of thousands of messages takes hundreds of milliseconds to
// decode. A new checkpoint (a run's step, `/compact`, an edit or regeneration) has a new id, and the thread's shown
// version (ThreadSummary.head) names the one to read, so neither needs telling; a deleted thread is forgotten, and
// replacing all threads (a backup restored) forgets them all.
import type { BaseMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { contextStateOf, contextTokens } from "../agent/index.ts";
import { stateView, type CheckpointView } from "./checkpoint-views.ts";

/** How many threads' checkpoints are kept (the least recently read goes first). */
const THREADS_KEPT = 4;

/** A checkpointer that can name a thread's newest checkpoint without reading it (IndexedDbCheckpointSaver). */
interface NamesLatest {
  latestCheckpointId(threadId: string): Promise<string | undefined>;
}

function namesLatest(saver: BaseCheckpointSaver): saver is BaseCheckpointSaver & NamesLatest {
  return typeof (saver as Partial<NamesLatest>).latestCheckpointId === "function";
}

/**
 * One checkpoint, decoded once: what the conversation shows, and the LangChain messages and summary the context gauge
 * and suggestions read. Shared by every reader: nothing may change it.
 */
export class DecodedCheckpoint {
  /** What the conversation shows: the messages as wire messages, the presented files and the plan. */
  readonly view: CheckpointView;
  private tokenCount: number | undefined;

  constructor(private readonly values: Record<string, unknown>) {
    this.view = stateView(values);
  }

  /** The messages and the conversation summary, as the model is sent them. */
  get context(): { messages: readonly BaseMessage[]; summary: ReturnType<typeof contextStateOf>["summary"] } {
    return contextStateOf(this.values);
  }

  /** The tokens the thread's next request takes from here (agent's `contextTokens`), counted once. */
  tokens(): number {
    if (this.tokenCount === undefined) {
      const { messages, summary } = this.context;
      this.tokenCount = contextTokens(messages, summary);
    }
    return this.tokenCount;
  }
}

/** What the readers of a thread's checkpoint need of the cache (tests pass their own). */
export interface CheckpointReads {
  /** The thread's checkpoint `checkpointId` (its newest when undefined), decoded; undefined without one. */
  read(threadId: string, checkpointId?: string): Promise<DecodedCheckpoint | undefined>;
}

/**
 * Decoded checkpoints by checkpoint id, for the last few threads read. Readers asking at once for the same checkpoint
 * share one read.
 */
export class CheckpointViewCache implements CheckpointReads {
  private readonly kept = new Map<string, { checkpointId: string; decoded: Promise<DecodedCheckpoint | undefined> }>();

  constructor(private readonly checkpointer: BaseCheckpointSaver) {}

  async read(threadId: string, checkpointId?: string): Promise<DecodedCheckpoint | undefined> {
    const id =
      checkpointId ??
      (namesLatest(this.checkpointer) ? await this.checkpointer.latestCheckpointId(threadId) : undefined);
    if (id === undefined) {
      // Only a checkpointer that cannot name its newest checkpoint gets here with a thread that may have one.
      return namesLatest(this.checkpointer) ? undefined : this.decode(threadId);
    }
    const entry = this.kept.get(threadId);
    if (entry?.checkpointId === id) {
      this.remember(threadId, entry);
      return entry.decoded;
    }
    const decoded = this.decode(threadId, id);
    const fresh = { checkpointId: id, decoded };
    this.remember(threadId, fresh);
    // A failed read is not kept: the next reader tries again.
    decoded.then(
      (value) => value === undefined && this.drop(threadId, fresh),
      () => this.drop(threadId, fresh),
    );
    return decoded;
  }

  /** The view of the thread's checkpoint `checkpointId` (its newest when undefined); undefined without one. */
  async view(threadId: string, checkpointId?: string): Promise<CheckpointView | undefined> {
    return (await this.read(threadId, checkpointId))?.view;
  }

  /** Keeps a checkpoint just written from `values` (an import), so reading it back decodes nothing. */
  put(threadId: string, checkpointId: string, values: Record<string, unknown>): void {
    this.remember(threadId, { checkpointId, decoded: Promise.resolve(new DecodedCheckpoint(values)) });
  }

  /** Forgets the thread (deleted). */
  forget(threadId: string): void {
    this.kept.delete(threadId);
  }

  /** Forgets every thread (all threads replaced). */
  clear(): void {
    this.kept.clear();
  }

  private async decode(threadId: string, checkpointId?: string): Promise<DecodedCheckpoint | undefined> {
    const tuple = await this.checkpointer.getTuple({
      configurable: { thread_id: threadId, checkpoint_ns: "", ...(checkpointId && { checkpoint_id: checkpointId }) },
    });
    return tuple && new DecodedCheckpoint(tuple.checkpoint.channel_values);
  }

  private drop(threadId: string, entry: { checkpointId: string }): void {
    if (this.kept.get(threadId) === entry) this.kept.delete(threadId);
  }

  private remember(
    threadId: string,
    entry: { checkpointId: string; decoded: Promise<DecodedCheckpoint | undefined> },
  ): void {
    this.kept.delete(threadId);
    this.kept.set(threadId, entry);
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= THREADS_KEPT) break;
      this.kept.delete(oldest);
    }
  }
}
