// Thread files in IndexedDB as a ThreadFileStore: the store of the browser sandbox (in the sandbox worker) and of the
// page's WebContainer (served by the agent worker). The bytes pass through as IndexedDB gives and takes them.
import type { ThreadFileStorage } from "../storage/index.ts";
import type { StoredFile, ThreadFileMap, ThreadFileStore } from "./thread-file-store.ts";

export class IndexedDbThreadFileStore implements ThreadFileStore {
  constructor(private readonly files: ThreadFileStorage) {}

  async load(threadId: string): Promise<Record<string, StoredFile>> {
    const stored = await this.files.readAll(threadId);
    return Object.fromEntries(stored.map((file) => [file.meta.path, { bytes: file.bytes, mtime: file.meta.mtime }]));
  }

  async save(threadId: string, written: ThreadFileMap, deleted: string[]): Promise<void> {
    await this.files.apply(threadId, {
      write: Object.entries(written).map(([path, bytes]) => ({ path, bytes })),
      delete: deleted,
    });
  }
}
