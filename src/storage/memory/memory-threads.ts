// Threads, their history entries and their run records, held in memory (ThreadStorage and RunRecordStorage of
// contracts.ts, as thread-repository.ts keeps them in IndexedDB).
import type { ThreadSummary } from "../../protocol/index.ts";
import { newId } from "../../shared/ids.ts";
import type { RunRecordStorage, ThreadPatch, ThreadStorage } from "../contracts.ts";
import { THREAD_STORES, type RunRecord, type StoredEntry } from "../fawn-db.ts";
import type { MemoryTables } from "./memory-tables.ts";

function withoutUndefined(thread: ThreadSummary): ThreadSummary {
  return Object.fromEntries(Object.entries(thread).filter(([, value]) => value !== undefined)) as ThreadSummary;
}

export class MemoryThreadStorage implements ThreadStorage, RunRecordStorage {
  constructor(private readonly tables: MemoryTables) {}

  async list(): Promise<ThreadSummary[]> {
    // The `by-updated` index's order: by activity, then by id.
    const threads = this.tables
      .read((tx) => tx.all("threads"))
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
    this.tables.write((tx) => tx.add("threads", thread));
    return thread;
  }

  async settleInterrupted(): Promise<void> {
    this.tables.write((tx) => {
      for (const thread of tx.all("threads"))
        if (thread.status === "busy") tx.put("threads", { ...thread, status: "idle" });
    });
  }

  async get(threadId: string): Promise<ThreadSummary | undefined> {
    return this.tables.read((tx) => tx.get("threads", threadId));
  }

  async entries(threadId: string): Promise<StoredEntry[]> {
    return this.tables.read((tx) => tx.all("entries", [threadId]).map((record) => record.entry));
  }

  async detail(threadId: string): Promise<(ThreadSummary & { entries: StoredEntry[] }) | undefined> {
    return this.tables.read((tx) => {
      const thread = tx.get("threads", threadId);
      return thread && { ...thread, entries: tx.all("entries", [threadId]).map((record) => record.entry) };
    });
  }

  async append(
    threadId: string,
    entries: readonly StoredEntry[],
    patch: ThreadPatch | ((thread: ThreadSummary) => ThreadPatch) = {},
  ): Promise<ThreadSummary> {
    return this.tables.write((tx) => {
      const thread = tx.get("threads", threadId);
      if (!thread) throw new Error(`No thread with id ${threadId}.`);
      const last = tx.all("entries", [threadId]).at(-1);
      let seq = last ? last.seq + 1 : 0;
      for (const entry of entries) tx.add("entries", { thread_id: threadId, seq: seq++, entry });
      const changes = typeof patch === "function" ? patch(thread) : patch;
      const updated = withoutUndefined({ ...thread, ...changes, updated_at: Date.now() });
      tx.put("threads", updated);
      return updated;
    });
  }

  async update(
    threadId: string,
    patch: ThreadPatch | ((thread: ThreadSummary) => ThreadPatch),
  ): Promise<ThreadSummary | undefined> {
    return this.tables.write((tx) => {
      const thread = tx.get("threads", threadId);
      if (!thread) return undefined;
      const updated = withoutUndefined({ ...thread, ...(typeof patch === "function" ? patch(thread) : patch) });
      tx.put("threads", updated);
      return updated;
    });
  }

  async histories(
    threadIds: readonly string[],
  ): Promise<Map<string, { entries: StoredEntry[]; checkpointed: boolean; head?: string }>> {
    return this.tables.read((tx) => {
      const histories = new Map<string, { entries: StoredEntry[]; checkpointed: boolean; head?: string }>();
      for (const threadId of threadIds) {
        const thread = tx.get("threads", threadId);
        if (thread === undefined) continue;
        histories.set(threadId, {
          entries: tx.all("entries", [threadId]).map((record) => record.entry),
          checkpointed: tx.count("checkpoints", [threadId]) > 0,
          ...(thread.head !== undefined && { head: thread.head }),
        });
      }
      return histories;
    });
  }

  async recordRun(record: RunRecord): Promise<void> {
    this.tables.write((tx) => tx.put("runs", record));
  }

  async run(threadId: string, runId: string): Promise<RunRecord | undefined> {
    return this.tables.read((tx) => tx.get("runs", [threadId, runId]));
  }

  async runs(threadId: string): Promise<RunRecord[]> {
    return this.tables.read((tx) => tx.all("runs", [threadId])).sort((a, b) => a.created_at - b.created_at);
  }

  async delete(threadId: string): Promise<void> {
    this.tables.write((tx) => {
      for (const name of THREAD_STORES) {
        if (name === "threads") tx.delete(name, threadId);
        else tx.deleteWhere(name, [threadId]);
      }
    });
  }
}
