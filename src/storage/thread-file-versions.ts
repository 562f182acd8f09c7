// The files of a thread's branches: the workspace and outputs as they were at a checkpoint (a run's end), kept so an
// edit or a regeneration starts from the files of its fork point and each version shows its own files. Uploads are
// the user's and belong to every branch: they are neither kept here nor replaced. Bytes are stored once per content.
import { keyPrefixRange, type FawnDb, type ThreadFileMeta } from "./fawn-db.ts";
import { THREAD_FILES_ROOT } from "./thread-files.ts";
import type { ThreadFileVersionStorage } from "./contracts.ts";

/** The areas a branch owns; `uploads` is shared by every branch. */
const BRANCH_AREAS = [`${THREAD_FILES_ROOT}workspace/`, `${THREAD_FILES_ROOT}outputs/`] as const;

function isBranchFile(path: string): boolean {
  return BRANCH_AREAS.some((area) => path.startsWith(area));
}

export class ThreadFileVersions implements ThreadFileVersionStorage {
  constructor(private readonly db: FawnDb) {}

  /** One transaction over the thread's files and their kept versions: a save or a restore is all or nothing. */
  private transaction() {
    return this.db.transaction(
      ["thread_files", "thread_file_meta", "thread_file_versions", "thread_file_blobs"],
      "readwrite",
    );
  }

  /** Keeps the thread's workspace and outputs as they are now as the files of `checkpointId`, in one transaction. */
  async save(threadId: string, checkpointId: string): Promise<void> {
    const tx = this.transaction();
    const done = tx.done;
    done.catch(() => undefined);
    try {
      const metas = (await tx.objectStore("thread_file_meta").getAll(keyPrefixRange(threadId))).filter((meta) =>
        isBranchFile(meta.path),
      );
      const blobs = tx.objectStore("thread_file_blobs");
      const kept = await Promise.all(metas.map((meta) => blobs.getKey([threadId, meta.sha256])));
      await Promise.all(
        metas.map(async (meta, index) => {
          if (kept[index] !== undefined) return;
          const file = await tx.objectStore("thread_files").get([threadId, meta.path]);
          if (file) await blobs.put({ thread_id: threadId, sha256: meta.sha256, bytes: file.bytes });
        }),
      );
      const files: ThreadFileMeta[] = metas.map(({ path, size, sha256, mimeType, mtime }) => ({
        path,
        size,
        sha256,
        mimeType,
        mtime,
      }));
      await tx.objectStore("thread_file_versions").put({ thread_id: threadId, checkpoint_id: checkpointId, files });
    } catch (error) {
      if (!tx.error) tx.abort();
      throw error;
    }
    await done;
  }

  /**
   * Replaces the thread's workspace and outputs with the files kept for `checkpointId` (`undefined`: the empty start
   * of the thread), in one transaction. False, changing nothing, when none were kept for it (a run from before
   * branches kept files).
   */
  async restore(threadId: string, checkpointId: string | undefined): Promise<boolean> {
    const tx = this.transaction();
    const done = tx.done;
    done.catch(() => undefined);
    try {
      const version =
        checkpointId === undefined
          ? { files: [] }
          : await tx.objectStore("thread_file_versions").get([threadId, checkpointId]);
      if (!version) {
        tx.abort();
        return false;
      }
      const blobs = await Promise.all(
        version.files.map((meta) => tx.objectStore("thread_file_blobs").get([threadId, meta.sha256])),
      );
      const fileStore = tx.objectStore("thread_files");
      const metaStore = tx.objectStore("thread_file_meta");
      const current = (await metaStore.getAllKeys(keyPrefixRange(threadId))).filter(([, path]) => isBranchFile(path));
      await Promise.all(current.flatMap((key) => [fileStore.delete(key), metaStore.delete(key)]));
      await Promise.all(
        version.files.flatMap((meta, index) => {
          const blob = blobs[index];
          if (!blob) return [];
          return [
            fileStore.put({ thread_id: threadId, path: meta.path, bytes: blob.bytes }),
            metaStore.put({ ...meta, thread_id: threadId }),
          ];
        }),
      );
    } catch (error) {
      if (!tx.error) tx.abort();
      throw error;
    }
    await done;
    return true;
  }
}
