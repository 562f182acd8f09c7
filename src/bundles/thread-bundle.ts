// A thread shared as one file, `.fawn`: the backup archive's format holding one thread (its records, checkpoint
// history and files, byte for byte) and nothing else, under its own format name. Writing and reading go through the
// backup's writer and reader, so a bundle obeys the same rules for names, paths and sizes; never keys, memory or
// settings, since none of those is ever added.
import { BACKUP_LIMITS, type BackupLimits } from "../protocol/index.ts";
import type { ThreadBackup } from "../storage/index.ts";
import type { ThreadFileRecord } from "../storage/index.ts";
import { readBackupArchive } from "./backup-archive-reader.ts";
import { BackupArchiveError } from "./backup-archive-schema.ts";
import { BackupArchiveWriter, checkPlannedBackup } from "./backup-archive-writer.ts";

export const THREAD_BUNDLE_FORMAT = "fawn-thread";
/** What a bundle's file name ends with. */
export const THREAD_BUNDLE_EXTENSION = ".fawn";

export interface BundledThread {
  records: ThreadBackup;
  files: ThreadFileRecord[];
}

/** The thread as a `.fawn` archive, refused up front (with the reason and the size) when an import would refuse it. */
export function writeThreadBundle(
  thread: BundledThread,
  meta: { app_version: string; created_at: Date },
  limits: BackupLimits = BACKUP_LIMITS,
): Blob {
  checkPlannedBackup(
    { files: thread.records.files.map((file) => ({ name: file.path, size: file.size })), records: 2 },
    limits,
  );
  const writer = new BackupArchiveWriter(limits);
  writer.addThread(thread.records, thread.files);
  return writer.finish({ ...meta, memory_facts: 0 }, THREAD_BUNDLE_FORMAT).blob;
}

/**
 * The one thread a `.fawn` holds, checked whole first (zip sizes before inflating, paths, manifest, every record, that
 * each record is the thread's and each file matches its meta). Throws a BackupArchiveError with one sentence.
 */
export function readThreadBundle(bytes: Uint8Array, limits: BackupLimits = BACKUP_LIMITS): BundledThread {
  let contents;
  try {
    contents = readBackupArchive(bytes, limits, THREAD_BUNDLE_FORMAT);
  } catch (error) {
    // The reader speaks of backups; the rules are the same, the word is not.
    if (error instanceof BackupArchiveError) {
      throw new BackupArchiveError(
        error.message.replace(/(?<!-)\bbackup\b/g, "bundle").replace(/\bBackup\b/g, "Bundle"),
      );
    }
    throw error;
  }
  const [thread, ...more] = contents.threads;
  const extra =
    more.length > 0 ||
    contents.skills.length > 0 ||
    contents.settings.length > 0 ||
    contents.mcp_servers.length > 0 ||
    contents.store_items.length > 0 ||
    contents.memory_document !== null;
  if (!thread || extra) {
    throw new BackupArchiveError("A Fawn thread bundle holds exactly one thread and nothing else; this one does not.");
  }
  return thread;
}

/** The same thread under another id: every record's key names the thread, so each is rewritten. */
export function withThreadId(thread: BundledThread, threadId: string): BundledThread {
  const own = <T extends { thread_id: string }>(records: readonly T[]): T[] =>
    records.map((record) => ({ ...record, thread_id: threadId }));
  const { records } = thread;
  return {
    records: {
      ...records,
      thread: { ...records.thread, thread_id: threadId },
      entries: own(records.entries),
      runs: own(records.runs),
      checkpoints: own(records.checkpoints),
      checkpoint_blobs: own(records.checkpoint_blobs),
      checkpoint_writes: own(records.checkpoint_writes),
      checkpoint_messages: own(records.checkpoint_messages),
      files: own(records.files),
    },
    files: own(thread.files),
  };
}
