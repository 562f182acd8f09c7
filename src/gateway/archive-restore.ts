// What every archive import shares (a backup, a thread bundle, a shared thread): the archive read within its size
// limit with a reader's refusal as the user's sentence, and a thread made ready to write (its history checked to load,
// its files' meta recomputed, its open tool calls closed as cancelled).
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import type { BundledThread } from "../bundles/index.ts";
import type { BackupLimits } from "../protocol/index.ts";
import { formatBytes } from "../shared/text.ts";
import { UserError } from "../shared/user-error.ts";
import type { ThreadFileMetaRecord } from "../storage/index.ts";
import { closeImportedThread } from "../storage/index.ts";
import { sha256Hex } from "../storage/index.ts";

const serde = new JsonPlusSerializer();

/** True when every serialized value of the thread's history loads, as opening the thread will load it. */
async function historyLoads(records: BundledThread["records"]): Promise<boolean> {
  const values: [type: string, bytes: Uint8Array][] = [
    ...records.checkpoints.flatMap((record): [string, Uint8Array][] => [
      [record.type, record.checkpoint],
      [record.metadata_type, record.metadata],
    ]),
    ...records.checkpoint_blobs.flatMap((blob): [string, Uint8Array][] =>
      blob.kind === "value" ? [[blob.type, blob.bytes]] : [],
    ),
    ...records.checkpoint_writes.map((write): [string, Uint8Array] => [write.type, write.bytes]),
    ...records.checkpoint_messages.map((message): [string, Uint8Array] => [message.type, message.bytes]),
  ];
  try {
    for (const [type, bytes] of values) await serde.loadsTyped(type, bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * A thread read from an archive (a `noun`), ready to write: its history checked to load, its files' meta recomputed
 * from their bytes rather than trusted, a thread exported mid-run at rest, and its history marked as written
 * elsewhere, with the tool calls its last steps left open closed as cancelled (closeImportedThread): nothing another
 * browser's model asked for runs here.
 */
export async function restorableThread(bundled: BundledThread, noun: string): Promise<BundledThread> {
  const { files } = bundled;
  if (!(await historyLoads(bundled.records))) {
    const title = JSON.stringify(bundled.records.thread.title);
    throw new UserError(
      `The ${noun}'s thread ${title} has a history that cannot be read: the file was ` + "changed or is damaged.",
    );
  }
  const records = await closeImportedThread(bundled.records, serde);
  const metas = new Map(records.files.map((meta) => [meta.path, meta]));
  const fileMetas: ThreadFileMetaRecord[] = await Promise.all(
    files.map(async (file) => {
      const meta = metas.get(file.path) as ThreadFileMetaRecord;
      return { ...meta, size: file.bytes.byteLength, sha256: await sha256Hex(file.bytes) };
    }),
  );
  const status = records.thread.status === "busy" ? "idle" : records.thread.status;
  return { records: { ...records, thread: { ...records.thread, status }, files: fileMetas }, files };
}

/**
 * An archive the user picked, read whole by `read` after the checks every archive import makes: that it is a file and
 * not over the size limit (before its bytes are read); a reader's refusal becomes the one sentence the user sees.
 */
export async function readArchive<T>(
  archive: Blob | Uint8Array,
  limits: BackupLimits,
  how: { choose: string; noun: string; read: (bytes: Uint8Array) => T },
): Promise<T> {
  if (!(archive instanceof Uint8Array) && !(archive instanceof Blob)) throw new UserError(how.choose);
  if (archive instanceof Blob && archive.size > limits.maxArchiveBytes) {
    throw new UserError(
      `The ${how.noun} is too large (${formatBytes(archive.size)}; at most ${formatBytes(limits.maxArchiveBytes)}).`,
    );
  }
  const bytes = archive instanceof Uint8Array ? archive : new Uint8Array(await archive.arrayBuffer());
  return how.read(bytes);
}
