// Where a sandbox loads a thread's files from and saves them to: the one route both providers take. Its IndexedDB
// implementation (indexed-db-thread-file-store.ts) serves the browser sandbox in the sandbox worker directly, and the
// page's WebContainer through a comlink proxy the agent worker hands over, so the page never opens the database.

/** Files by absolute virtual path (`/mnt/user-data/workspace/a.txt`). */
export type ThreadFileMap = Record<string, Uint8Array>;

/** A file as stored: its bytes, and when it was last saved (milliseconds since the epoch). */
export interface StoredFile {
  bytes: Uint8Array;
  mtime: number;
}

/** The durable copy of each thread's files under /mnt/user-data. */
export interface ThreadFileStore {
  /** Every file the thread keeps, by absolute virtual path. */
  load(threadId: string): Promise<Record<string, StoredFile>>;
  /** Writes `written` and deletes `deleted` (virtual paths) in one step: all of it is kept, or none. */
  save(threadId: string, written: ThreadFileMap, deleted: string[]): Promise<void>;
}

/** A ThreadFileStore in memory: for tests and the manual check page. */
export class MemoryThreadFileStore implements ThreadFileStore {
  private readonly threads = new Map<string, Map<string, StoredFile>>();

  async load(threadId: string): Promise<Record<string, StoredFile>> {
    return Object.fromEntries(this.thread(threadId));
  }

  async save(threadId: string, written: ThreadFileMap, deleted: string[]): Promise<void> {
    const files = this.thread(threadId);
    const mtime = Date.now();
    for (const path of deleted) files.delete(path);
    for (const [path, bytes] of Object.entries(written)) files.set(path, { bytes: bytes.slice(), mtime });
  }

  private thread(threadId: string): Map<string, StoredFile> {
    let files = this.threads.get(threadId);
    if (!files) {
      files = new Map();
      this.threads.set(threadId, files);
    }
    return files;
  }
}
