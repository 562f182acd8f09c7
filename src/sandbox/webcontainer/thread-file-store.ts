// Where a WebContainer sandbox loads a thread's files from and saves them to. The agent worker implements it over
// IndexedDB and hands it to the page through comlink, so the page never opens the database itself.

/** A thread's files by absolute virtual path (`/mnt/user-data/workspace/a.txt`). */
export type ThreadFileMap = Record<string, Uint8Array>;

/** The durable copy of each thread's files under /mnt/user-data. */
export interface ThreadFileStore {
  /** Every file the thread keeps. */
  load(threadId: string): Promise<ThreadFileMap>;
  /** Writes `written` and deletes `deleted` (virtual paths) in one step: all of it is kept, or none. */
  save(threadId: string, written: ThreadFileMap, deleted: string[]): Promise<void>;
}

/** A ThreadFileStore in memory: for tests and the manual check page. */
export class MemoryThreadFileStore implements ThreadFileStore {
  private readonly threads = new Map<string, Map<string, Uint8Array>>();

  async load(threadId: string): Promise<ThreadFileMap> {
    return Object.fromEntries(this.thread(threadId));
  }

  async save(threadId: string, written: ThreadFileMap, deleted: string[]): Promise<void> {
    const files = this.thread(threadId);
    for (const path of deleted) files.delete(path);
    for (const [path, bytes] of Object.entries(written)) files.set(path, bytes.slice());
  }

  private thread(threadId: string): Map<string, Uint8Array> {
    let files = this.threads.get(threadId);
    if (!files) {
      files = new Map();
      this.threads.set(threadId, files);
    }
    return files;
  }
}
