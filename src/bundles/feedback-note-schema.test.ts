// A backup's feedback notes: read back as written (the comment too, unknown keys dropped), and a note with a rating
// other than ±1 or a comment past the limit refuses the whole backup before anything is written.
import { describe, expect, it } from "vitest";
import type { ThreadBackup } from "../storage/backup-store.ts";
import { readBackupArchive } from "./backup-archive-reader.ts";
import { BackupArchiveWriter } from "./backup-archive-writer.ts";

const THREAD = "t-1";

async function backupWith(entry: Record<string, unknown>): Promise<Uint8Array> {
  const records = {
    thread: { thread_id: THREAD, title: "Bees", created_at: 1, updated_at: 2, status: "idle" },
    entries: [{ thread_id: THREAD, seq: 0, entry }],
    runs: [],
    checkpoints: [],
    checkpoint_blobs: [],
    checkpoint_writes: [],
    checkpoint_messages: [],
    files: [],
  } as unknown as ThreadBackup;
  const writer = new BackupArchiveWriter();
  writer.addThread(records, []);
  writer.addSettings([], []);
  writer.addMemory(null, []);
  const { blob } = writer.finish({ app_version: "0.1.0", created_at: new Date(0), memory_facts: 0 });
  return new Uint8Array(await blob.arrayBuffer());
}

const note = { kind: "feedback", id: "n1", message_id: "a1", rating: -1, comment: "It named no bee.", at: 5 };

describe("a backup's feedback notes", () => {
  it("come back as written, without keys a note does not have", async () => {
    const read = readBackupArchive(await backupWith({ ...note, extra: "dropped" }));
    expect(read.threads[0]?.records.entries).toEqual([{ thread_id: THREAD, seq: 0, entry: note }]);
    const cleared = readBackupArchive(await backupWith({ ...note, rating: null, comment: undefined }));
    expect(cleared.threads[0]?.records.entries[0]?.entry).toMatchObject({ kind: "feedback", rating: null });
  });

  it("refuse the backup for a rating other than ±1 or a comment over 2000 characters", async () => {
    const badRating = await backupWith({ ...note, rating: 5 });
    expect(() => readBackupArchive(badRating)).toThrow(/rating/);
    const longComment = await backupWith({ ...note, comment: "x".repeat(2001) });
    expect(() => readBackupArchive(longComment)).toThrow(/comment/);
  });
});
