// A thread's files, the files kept per branch and the search index over Fawn's tables (ThreadFileStorage,
// ThreadFileVersionStorage and SearchIndexStorage of contracts.ts), with the records the IndexedDB classes write.
import type { SearchIndexStorage, ThreadFileStorage, ThreadFileVersionStorage } from "../contracts.ts";
import type { ThreadFileMeta, ThreadFileMetaRecord } from "../fawn-db.ts";
import {
  assertThreadFilePath,
  assertThreadId,
  fileRecords,
  THREAD_FILES_ROOT,
  type ThreadFile,
  type ThreadFileInput,
} from "../thread-files.ts";
import { searchRecord, type SearchText } from "../thread-search-index.ts";
import type { Key, Tables } from "./tables.ts";

function toMeta({ path, size, sha256, mimeType, mtime }: ThreadFileMetaRecord): ThreadFileMeta {
  return { path, size, sha256, mimeType, mtime };
}

export class TableThreadFileStorage implements ThreadFileStorage {
  constructor(private readonly tables: Tables) {}

  async read(threadId: string, path: string): Promise<ThreadFile | undefined> {
    return this.tables.read(async (tx) => {
      const [file, meta] = await Promise.all([
        tx.get("thread_files", [threadId, path]),
        tx.get("thread_file_meta", [threadId, path]),
      ]);
      return file && meta ? { bytes: file.bytes, meta: toMeta(meta) } : undefined;
    });
  }

  write(threadId: string, files: readonly ThreadFileInput[]): Promise<ThreadFileMeta[]> {
    return this.apply(threadId, { write: files });
  }

  async apply(
    threadId: string,
    changes: { write?: readonly ThreadFileInput[]; delete?: readonly string[] },
  ): Promise<ThreadFileMeta[]> {
    assertThreadId(threadId);
    const files = changes.write ?? [];
    for (const file of files) assertThreadFilePath(file.path);
    const prepared = await fileRecords(threadId, files);
    await this.tables.write(async (tx) => {
      for (const path of changes.delete ?? []) {
        await tx.delete("thread_files", [threadId, path]);
        await tx.delete("thread_file_meta", [threadId, path]);
      }
      for (const [file, meta] of prepared) {
        await tx.put("thread_files", file);
        await tx.put("thread_file_meta", meta);
      }
    });
    return [...new Map(prepared.map(([, meta]) => [meta.path, toMeta(meta)])).values()];
  }

  async readAll(threadId: string): Promise<ThreadFile[]> {
    return this.tables.read(async (tx) => {
      const [files, metas] = await Promise.all([
        tx.all("thread_files", [threadId]),
        tx.all("thread_file_meta", [threadId]),
      ]);
      const bytesByPath = new Map(files.map((file) => [file.path, file.bytes]));
      return metas.flatMap((meta) => {
        const bytes = bytesByPath.get(meta.path);
        return bytes ? [{ bytes, meta: toMeta(meta) }] : [];
      });
    });
  }

  async list(threadId: string, dirPrefix?: string): Promise<ThreadFileMeta[]> {
    const prefix = dirPrefix === undefined || dirPrefix === "" || dirPrefix.endsWith("/") ? dirPrefix : `${dirPrefix}/`;
    const metas = await this.tables.read((tx) =>
      tx.all("thread_file_meta", { within: [threadId], startsWith: prefix ?? "" }),
    );
    return metas.map(toMeta);
  }

  async stat(threadId: string, path: string): Promise<ThreadFileMeta | undefined> {
    const meta = await this.tables.read((tx) => tx.get("thread_file_meta", [threadId, path]));
    return meta && toMeta(meta);
  }

  async delete(threadId: string, paths: readonly string[]): Promise<void> {
    await this.tables.write(async (tx) => {
      for (const path of paths) {
        await tx.delete("thread_files", [threadId, path]);
        await tx.delete("thread_file_meta", [threadId, path]);
      }
    });
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.tables.write(async (tx) => {
      await tx.deleteWhere("thread_files", [threadId]);
      await tx.deleteWhere("thread_file_meta", [threadId]);
    });
  }
}

/** The areas a branch owns; `uploads` is shared by every branch (as thread-file-versions.ts). */
const BRANCH_AREAS = [`${THREAD_FILES_ROOT}workspace/`, `${THREAD_FILES_ROOT}outputs/`] as const;
const isBranchFile = (path: string) => BRANCH_AREAS.some((area) => path.startsWith(area));

export class TableThreadFileVersionStorage implements ThreadFileVersionStorage {
  constructor(private readonly tables: Tables) {}

  async save(threadId: string, checkpointId: string): Promise<void> {
    await this.tables.write(async (tx) => {
      const metas = (await tx.all("thread_file_meta", [threadId])).filter((meta) => isBranchFile(meta.path));
      for (const meta of metas) {
        if (await tx.has("thread_file_blobs", [threadId, meta.sha256])) continue;
        const file = await tx.get("thread_files", [threadId, meta.path]);
        if (file) await tx.put("thread_file_blobs", { thread_id: threadId, sha256: meta.sha256, bytes: file.bytes });
      }
      await tx.put("thread_file_versions", {
        thread_id: threadId,
        checkpoint_id: checkpointId,
        files: metas.map(toMeta),
      });
    });
  }

  async restore(threadId: string, checkpointId: string | undefined): Promise<boolean> {
    return this.tables.write(async (tx) => {
      const version =
        checkpointId === undefined ? { files: [] } : await tx.get("thread_file_versions", [threadId, checkpointId]);
      if (!version) return false;
      const blobs = await Promise.all(
        version.files.map((meta) => tx.get("thread_file_blobs", [threadId, meta.sha256])),
      );
      for (const key of await tx.keys("thread_file_meta", [threadId])) {
        if (!isBranchFile(String((key as Key[])[1]))) continue;
        await tx.delete("thread_files", key);
        await tx.delete("thread_file_meta", key);
      }
      for (const [index, meta] of version.files.entries()) {
        const blob = blobs[index];
        if (!blob) continue;
        await tx.put("thread_files", { thread_id: threadId, path: meta.path, bytes: blob.bytes });
        await tx.put("thread_file_meta", { ...meta, thread_id: threadId });
      }
      return true;
    });
  }
}

export class TableSearchIndexStorage implements SearchIndexStorage {
  constructor(private readonly tables: Tables) {}

  async put(texts: readonly SearchText[]): Promise<void> {
    if (texts.length === 0) return;
    const records = texts.map(({ threadId, text }) => searchRecord(threadId, text));
    await this.tables.write(async (tx) => {
      for (const record of records)
        if (await tx.has("threads", record.thread_id)) await tx.put("thread_search", record);
    });
  }

  async remove(threadIds: readonly string[]): Promise<void> {
    await this.tables.write(async (tx) => {
      for (const id of threadIds) await tx.delete("thread_search", [id]);
    });
  }

  async threadsWithPrefixes(terms: readonly string[]): Promise<Set<string>[]> {
    const records = await this.tables.read((tx) => tx.all("thread_search"));
    return terms.map(
      (term) =>
        new Set(
          records
            .filter((record) => record.terms.some((word) => word.startsWith(term)))
            .map((record) => record.thread_id),
        ),
    );
  }

  async texts(threadIds: readonly string[]): Promise<Map<string, string>> {
    return this.tables.read(async (tx) => {
      const texts = new Map<string, string>();
      for (const id of threadIds) {
        const record = await tx.get("thread_search", [id]);
        if (record) texts.set(record.thread_id, record.text);
      }
      return texts;
    });
  }

  async isComplete(): Promise<boolean> {
    return this.tables.read(async (tx) => (await tx.count("threads")) === (await tx.count("thread_search")));
  }

  async differences(): Promise<{ missing: string[]; orphans: string[] }> {
    return this.tables.read(async (tx) => {
      const threadIds = (await tx.keys("threads")) as string[];
      const indexed = new Set((await tx.keys("thread_search")).map((key) => (key as string[])[0] as string));
      const threads = new Set(threadIds);
      return {
        missing: threadIds.filter((id) => !indexed.has(id)),
        orphans: [...indexed].filter((id) => !threads.has(id)),
      };
    });
  }
}
