// The thread search index: one record per thread with its words in a multi-entry IndexedDB index, so a query word
// is one key-range read over the index however many threads there are (no message is read at query time).
import type { FawnDb, ThreadSearchRecord } from "./fawn-db.ts";
import { searchTerms } from "./search-text.ts";
import type { SearchIndexStorage } from "./contracts.ts";

/** The format of `ThreadSearchRecord.terms` written now. */
export const SEARCH_INDEX_FORMAT = 1;
/** Text kept per thread for the passage shown with a match; words past it are still indexed. */
export const MAX_SEARCH_TEXT = 500_000;

/** A thread's text to index. */
export interface SearchText {
  threadId: string;
  text: string;
}

/** The record indexing `text` for the thread. */
export function searchRecord(threadId: string, text: string, now = Date.now()): ThreadSearchRecord {
  return {
    thread_id: threadId,
    v: SEARCH_INDEX_FORMAT,
    terms: searchTerms(text),
    text: text.length > MAX_SEARCH_TEXT ? text.slice(0, MAX_SEARCH_TEXT) : text,
    indexed_at: now,
  };
}

/** The highest string starting with `prefix` (a UTF-16 code unit can be no higher than U+FFFF). */
function prefixRange(prefix: string): IDBKeyRange {
  return IDBKeyRange.bound(prefix, `${prefix}\uffff`);
}

export class ThreadSearchIndex implements SearchIndexStorage {
  constructor(private readonly db: FawnDb) {}

  /**
   * Indexes the threads' texts, in one transaction. A thread deleted meanwhile is skipped, so a late write never
   * leaves an entry without its thread.
   */
  async put(texts: readonly SearchText[]): Promise<void> {
    if (texts.length === 0) return;
    // Words are found before the transaction opens: it would commit while other work ran.
    const records = texts.map(({ threadId, text }) => searchRecord(threadId, text));
    const tx = this.db.transaction(["threads", "thread_search"], "readwrite");
    const threads = tx.objectStore("threads");
    const search = tx.objectStore("thread_search");
    await Promise.all([
      ...records.map(async (record) => {
        if ((await threads.getKey(record.thread_id)) !== undefined) await search.put(record);
      }),
      tx.done,
    ]);
  }

  /** Drops the thread's entry; the next search indexes it again from its messages. */
  async remove(threadIds: readonly string[]): Promise<void> {
    if (threadIds.length === 0) return;
    const tx = this.db.transaction("thread_search", "readwrite");
    await Promise.all([...threadIds.map((id) => tx.store.delete([id])), tx.done]);
  }

  /** For each term, the ids of the threads with a word that starts with it; one read transaction. */
  async threadsWithPrefixes(terms: readonly string[]): Promise<Set<string>[]> {
    if (terms.length === 0) return [];
    const tx = this.db.transaction("thread_search", "readonly");
    const index = tx.store.index("by-term");
    const sets = await Promise.all(
      terms.map(async (term) => new Set((await index.getAllKeys(prefixRange(term))).map(([threadId]) => threadId))),
    );
    await tx.done;
    return sets;
  }

  /** The indexed text of each thread that has an entry. */
  async texts(threadIds: readonly string[]): Promise<Map<string, string>> {
    const tx = this.db.transaction("thread_search", "readonly");
    const records = await Promise.all(threadIds.map((id) => tx.store.get([id])));
    await tx.done;
    const texts = new Map<string, string>();
    for (const record of records) if (record) texts.set(record.thread_id, record.text);
    return texts;
  }

  /** True when every thread has an entry and every entry a thread (two counts: cheap enough for each query). */
  async isComplete(): Promise<boolean> {
    const tx = this.db.transaction(["threads", "thread_search"], "readonly");
    const [threads, indexed] = await Promise.all([
      tx.objectStore("threads").count(),
      tx.objectStore("thread_search").count(),
      tx.done,
    ]);
    return threads === indexed;
  }

  /** Threads without an entry, and entries whose thread is gone. */
  async differences(): Promise<{ missing: string[]; orphans: string[] }> {
    const tx = this.db.transaction(["threads", "thread_search"], "readonly");
    const [threadIds, entryKeys] = await Promise.all([
      tx.objectStore("threads").getAllKeys(),
      tx.objectStore("thread_search").getAllKeys(),
      tx.done,
    ]);
    const threads = new Set(threadIds);
    const indexed = new Set(entryKeys.map(([threadId]) => threadId));
    return {
      missing: threadIds.filter((id) => !indexed.has(id)),
      orphans: [...indexed].filter((id) => !threads.has(id)),
    };
  }
}
