// Threads, their history entries and their run records over Fawn's tables (ThreadStorage and RunRecordStorage of
// contracts.ts, as thread-repository.ts keeps them in IndexedDB).
import type { ThreadSummary } from "../../protocol/index.ts";
import { newId } from "../../shared/ids.ts";
import type { RunRecordStorage, ThreadPatch, ThreadStorage } from "../contracts.ts";
import { THREAD_STORES, type RunRecord, type StoredEntry } from "../fawn-db.ts";
import type { TableReader, Tables } from "./tables.ts";

function withoutUndefined(thread: ThreadSummary): ThreadSummary {
  return Object.fromEntries(Object.entries(thread).filter(([, value]) => value !== undefined)) as ThreadSummary;
}

const entriesOf = async (tx: TableReader, threadId: string) =>
  (await tx.all("entries", [threadId])).map((record) => record.entry);

export class TableThreadStorage implements ThreadStorage, RunRecordStorage {
  constructor(private readonly tables: Tables) {}

  async list(): Promise<ThreadSummary[]> {
    // The `by-updated` index's order: by activity, then by id.
    const threads = (await this.tables.read((tx) => tx.all("threads")))
      .sort((a, b) => a.updated_at - b.updated_at || (a.thread_id < b.thread_id ? -1 : 1))
      .reverse();
    return [...threads.filter((thread) => thread.pinned), ...threads.filter((thread) => !thread.pinned)];
  }

  async create(options: { threadId?: string; title?: string } = {}): Promise<ThreadSummary> {
    const now = Date.now();
    const thread: ThreadSummary = {
      thread_id: options.threadId ?? newId(),
      title: options.title ?? "New thread",
      created_at: now,
      updated_at: now,
      status: "idle",
    };
    await this.tables.write((tx) => tx.add("threads", thread));
    return thread;
  }

  async settleInterrupted(): Promise<void> {
    await this.tables.write(async (tx) => {
      for (const thread of await tx.all("threads"))
        if (thread.status === "busy") await tx.put("threads", { ...thread, status: "idle" });
    });
  }

  async get(threadId: string): Promise<ThreadSummary | undefined> {
    return this.tables.read((tx) => tx.get("threads", threadId));
  }

  async entries(threadId: string): Promise<StoredEntry[]> {
    return this.tables.read((tx) => entriesOf(tx, threadId));
  }

  async detail(threadId: string): Promise<(ThreadSummary & { entries: StoredEntry[] }) | undefined> {
    return this.tables.read(async (tx) => {
      const thread = await tx.get("threads", threadId);
      return thread && { ...thread, entries: await entriesOf(tx, threadId) };
    });
  }

  async append(
    threadId: string,
    entries: readonly StoredEntry[],
    patch: ThreadPatch | ((thread: ThreadSummary) => ThreadPatch) = {},
  ): Promise<ThreadSummary> {
    return this.tables.write(async (tx) => {
      const thread = await tx.get("threads", threadId);
      if (!thread) throw new Error(`No thread with id ${threadId}.`);
      const [last] = await tx.keys("entries", [threadId], { reverse: true, limit: 1 });
      let seq = last ? ((last as [string, number])[1] ?? -1) + 1 : 0;
      for (const entry of entries) await tx.add("entries", { thread_id: threadId, seq: seq++, entry });
      const changes = typeof patch === "function" ? patch(thread) : patch;
      const updated = withoutUndefined({ ...thread, ...changes, updated_at: Date.now() });
      await tx.put("threads", updated);
      return updated;
    });
  }

  async update(
    threadId: string,
    patch: ThreadPatch | ((thread: ThreadSummary) => ThreadPatch),
  ): Promise<ThreadSummary | undefined> {
    return this.tables.write(async (tx) => {
      const thread = await tx.get("threads", threadId);
      if (!thread) return undefined;
      const updated = withoutUndefined({ ...thread, ...(typeof patch === "function" ? patch(thread) : patch) });
      await tx.put("threads", updated);
      return updated;
    });
  }

  async histories(
    threadIds: readonly string[],
  ): Promise<Map<string, { entries: StoredEntry[]; checkpointed: boolean; head?: string }>> {
    return this.tables.read(async (tx) => {
      const histories = new Map<string, { entries: StoredEntry[]; checkpointed: boolean; head?: string }>();
      for (const threadId of threadIds) {
        const thread = await tx.get("threads", threadId);
        if (thread === undefined) continue;
        histories.set(threadId, {
          entries: await entriesOf(tx, threadId),
          checkpointed: (await tx.keys("checkpoints", [threadId], { limit: 1 })).length > 0,
          ...(thread.head !== undefined && { head: thread.head }),
        });
      }
      return histories;
    });
  }

  async recordRun(record: RunRecord): Promise<void> {
    await this.tables.write((tx) => tx.put("runs", record));
  }

  async run(threadId: string, runId: string): Promise<RunRecord | undefined> {
    return this.tables.read((tx) => tx.get("runs", [threadId, runId]));
  }

  async runs(threadId: string): Promise<RunRecord[]> {
    return (await this.tables.read((tx) => tx.all("runs", [threadId]))).sort((a, b) => a.created_at - b.created_at);
  }

  async delete(threadId: string): Promise<void> {
    await this.tables.write(async (tx) => {
      for (const name of THREAD_STORES) {
        if (name === "threads") await tx.delete(name, threadId);
        else await tx.deleteWhere(name, [threadId]);
      }
    });
  }
}
