// Threads and their history entries; every multi-record change is one transaction.
import type { ThreadSummary } from "../protocol/index.ts";
import { newId } from "../shared/ids.ts";
import { keyPrefixRange, THREAD_STORES, type FawnDb, type RunRecord, type StoredEntry } from "./fawn-db.ts";
import type { RunRecordStorage, ThreadPatch, ThreadStorage } from "./contracts.ts";

export type { ThreadPatch } from "./contracts.ts";

function threadRange(threadId: string): IDBKeyRange {
  return IDBKeyRange.bound([threadId, 0], [threadId, Number.MAX_SAFE_INTEGER]);
}

/** The thread with the fields a patch set to undefined (a `head` back to the latest) left out. */
function withoutUndefined(thread: ThreadSummary): ThreadSummary {
  return Object.fromEntries(Object.entries(thread).filter(([, value]) => value !== undefined)) as ThreadSummary;
}

export class ThreadRepository implements ThreadStorage, RunRecordStorage {
  constructor(private readonly db: FawnDb) {}

  /** All threads: pinned ones first, then by most recent activity. */
  async list(): Promise<ThreadSummary[]> {
    const threads = (await this.db.getAllFromIndex("threads", "by-updated")).reverse();
    return [...threads.filter((thread) => thread.pinned), ...threads.filter((thread) => !thread.pinned)];
  }

  /** Creates a thread; rejects (ConstraintError) when `threadId` is taken. */
  async create(options: { threadId?: string; title?: string } = {}): Promise<ThreadSummary> {
    const now = Date.now();
    const thread: ThreadSummary = {
      thread_id: options.threadId ?? newId(),
      title: options.title ?? "New thread",
      created_at: now,
      updated_at: now,
      status: "idle",
    };
    await this.db.add("threads", thread);
    return thread;
  }

  /** Marks threads left "busy" by a page that closed mid-run as idle again. */
  async settleInterrupted(): Promise<void> {
    const tx = this.db.transaction("threads", "readwrite");
    for await (const cursor of tx.store) {
      if (cursor.value.status === "busy") await cursor.update({ ...cursor.value, status: "idle" });
    }
    await tx.done;
  }

  get(threadId: string): Promise<ThreadSummary | undefined> {
    return this.db.get("threads", threadId);
  }

  async entries(threadId: string): Promise<StoredEntry[]> {
    const records = await this.db.getAll("entries", threadRange(threadId));
    return records.map((record) => record.entry);
  }

  async detail(threadId: string): Promise<(ThreadSummary & { entries: StoredEntry[] }) | undefined> {
    const tx = this.db.transaction(["threads", "entries"], "readonly");
    const [thread, records] = await Promise.all([
      tx.objectStore("threads").get(threadId),
      tx.objectStore("entries").getAll(threadRange(threadId)),
      tx.done,
    ]);
    if (!thread) return undefined;
    return { ...thread, entries: records.map((record) => record.entry) };
  }

  /**
   * Appends entries after the thread's last one and applies `patch`, in one transaction: either all of it
   * is stored or none. A function `patch` is given the thread as stored, to decide inside that transaction. Rejects
   * when the thread does not exist.
   */
  async append(
    threadId: string,
    entries: readonly StoredEntry[],
    patch: ThreadPatch | ((thread: ThreadSummary) => ThreadPatch) = {},
  ): Promise<ThreadSummary> {
    const tx = this.db.transaction(["threads", "entries"], "readwrite");
    const threads = tx.objectStore("threads");
    const store = tx.objectStore("entries");
    const thread = await threads.get(threadId);
    if (!thread) {
      tx.abort();
      await tx.done.catch(() => undefined);
      throw new Error(`No thread with id ${threadId}.`);
    }
    const last = await store.openCursor(threadRange(threadId), "prev");
    let seq = last ? last.value.seq + 1 : 0;
    for (const entry of entries) await store.add({ thread_id: threadId, seq: seq++, entry });
    const changes = typeof patch === "function" ? patch(thread) : patch;
    const updated: ThreadSummary = withoutUndefined({ ...thread, ...changes, updated_at: Date.now() });
    await threads.put(updated);
    await tx.done;
    return updated;
  }

  /** Applies `patch` (a function is given the thread as stored, inside the transaction); undefined when it is gone. */
  async update(
    threadId: string,
    patch: ThreadPatch | ((thread: ThreadSummary) => ThreadPatch),
  ): Promise<ThreadSummary | undefined> {
    const tx = this.db.transaction("threads", "readwrite");
    const thread = await tx.store.get(threadId);
    if (!thread) {
      await tx.done;
      return undefined;
    }
    const updated = withoutUndefined({ ...thread, ...(typeof patch === "function" ? patch(thread) : patch) });
    await tx.store.put(updated);
    await tx.done;
    return updated;
  }

  /**
   * For many threads at once, in one read transaction: their stored entries, whether they have a checkpoint (whose
   * messages then are the history) and the version they show. Threads that do not exist are left out. For work over every thread, such as
   * indexing them for search, where a transaction per thread would cost more than the reading.
   */
  async histories(
    threadIds: readonly string[],
  ): Promise<Map<string, { entries: StoredEntry[]; checkpointed: boolean; head?: string }>> {
    const tx = this.db.transaction(["threads", "entries", "checkpoints"], "readonly");
    const read = await Promise.all(
      threadIds.map(async (threadId) => {
        const [thread, records, checkpoints] = await Promise.all([
          tx.objectStore("threads").get(threadId),
          tx.objectStore("entries").getAll(threadRange(threadId)),
          tx.objectStore("checkpoints").count(keyPrefixRange(threadId)),
        ]);
        return [threadId, thread, records, checkpoints] as const;
      }),
    );
    await tx.done;
    const histories = new Map<string, { entries: StoredEntry[]; checkpointed: boolean; head?: string }>();
    for (const [threadId, thread, records, checkpoints] of read) {
      if (thread === undefined) continue;
      histories.set(threadId, {
        entries: records.map((record) => record.entry),
        checkpointed: checkpoints > 0,
        // The version the thread shows, when the user moved to one that is not the latest.
        ...(thread.head !== undefined && { head: thread.head }),
      });
    }
    return histories;
  }

  /** Stores (or updates) the record of one run. */
  async recordRun(record: RunRecord): Promise<void> {
    await this.db.put("runs", record);
  }

  async run(threadId: string, runId: string): Promise<RunRecord | undefined> {
    return this.db.get("runs", [threadId, runId]);
  }

  /** The thread's runs, oldest first. */
  async runs(threadId: string): Promise<RunRecord[]> {
    const records = await this.db.getAllFromIndex("runs", "by-thread", threadId);
    return records.sort((a, b) => a.created_at - b.created_at);
  }

  /** Removes the thread and every record that belongs to it, in every store (THREAD_STORES), in one transaction. */
  async delete(threadId: string): Promise<void> {
    const tx = this.db.transaction([...THREAD_STORES], "readwrite");
    await Promise.all([
      ...THREAD_STORES.map((name) =>
        name === "threads"
          ? tx.objectStore(name).delete(threadId)
          : tx.objectStore(name).delete(keyPrefixRange(threadId)),
      ),
      tx.done,
    ]);
  }
}
