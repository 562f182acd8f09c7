// What the last few opened threads' checkpoints show (their messages, files and plan), kept in the worker: a
// checkpoint never changes once written, so its view is read and decoded from storage once, not at every open. A
// thread of thousands of messages takes hundreds of milliseconds to decode.
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { checkpointView, type CheckpointView } from "./checkpoint-views.ts";

/** How many threads' views are kept (the least recently read goes first). */
const THREADS_KEPT = 4;

/** A checkpointer that can name a thread's newest checkpoint without reading it (IndexedDbCheckpointSaver). */
interface NamesLatest {
  latestCheckpointId(threadId: string): Promise<string | undefined>;
}

function namesLatest(saver: BaseCheckpointSaver): saver is BaseCheckpointSaver & NamesLatest {
  return typeof (saver as Partial<NamesLatest>).latestCheckpointId === "function";
}

/**
 * checkpointView, remembered by checkpoint id for the last few threads. Views handed out are shared: callers must not
 * change them.
 */
export class CheckpointViewCache {
  private readonly views = new Map<string, { checkpointId: string; view: CheckpointView }>();

  constructor(private readonly checkpointer: BaseCheckpointSaver) {}

  /** The view of the thread's checkpoint `checkpointId` (its newest when undefined); undefined without one. */
  async view(threadId: string, checkpointId?: string): Promise<CheckpointView | undefined> {
    const id =
      checkpointId ??
      (namesLatest(this.checkpointer) ? await this.checkpointer.latestCheckpointId(threadId) : undefined);
    if (id === undefined) {
      // Only a checkpointer that cannot name its newest checkpoint gets here with a thread that may have one.
      return namesLatest(this.checkpointer) ? undefined : checkpointView(this.checkpointer, threadId);
    }
    const kept = this.views.get(threadId);
    if (kept?.checkpointId === id) {
      this.remember(threadId, kept);
      return kept.view;
    }
    const view = await checkpointView(this.checkpointer, threadId, id);
    if (view) this.remember(threadId, { checkpointId: id, view });
    return view;
  }

  /** Keeps the view of a checkpoint just written (an import), so opening its thread reads nothing back. */
  put(threadId: string, checkpointId: string, view: CheckpointView): void {
    this.remember(threadId, { checkpointId, view });
  }

  /** Forgets the thread (deleted). */
  forget(threadId: string): void {
    this.views.delete(threadId);
  }

  private remember(threadId: string, entry: { checkpointId: string; view: CheckpointView }): void {
    this.views.delete(threadId);
    this.views.set(threadId, entry);
    for (const oldest of this.views.keys()) {
      if (this.views.size <= THREADS_KEPT) break;
      this.views.delete(oldest);
    }
  }
}
