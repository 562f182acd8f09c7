// A whole thread written at once — its summary, its state as one checkpoint, its files — in one transaction, so an
// import is stored entirely or not at all and the thread appears in the list only with everything in place
// (docs/architecture.md#d2-storage, #d8-bundles). The checkpoint is laid out exactly as IndexedDbCheckpointSaver.put
// lays out a first checkpoint (a root message list, one record per message), so the saver reads it and later runs
// continue from it.
import { emptyCheckpoint, type BaseCheckpointSaver, type CheckpointMetadata } from "@langchain/langgraph-checkpoint";
import type { ThreadSummary } from "../protocol/index.ts";
import {
  THREAD_STORES,
  keyPrefixRange,
  type ChannelBlobRecord,
  type CheckpointMessageRecord,
  type CheckpointRecord,
  type FawnDb,
} from "./fawn-db.ts";
import { rootCheckpointRecord } from "./indexeddb-checkpoint-saver.ts";
import { hashBytes, isIdentifiedMessageList, planMessageList } from "./message-delta.ts";
import { assertThreadFilePath, fileRecords, type ThreadFileInput } from "./thread-files.ts";
import { searchRecord } from "./thread-search-index.ts";
import type { ThreadImportStorage } from "./contracts.ts";

/** The channels IndexedDbCheckpointSaver stores one message per record (its default `messageChannels`). */
const MESSAGE_CHANNELS: ReadonlySet<string> = new Set(["messages"]);

/** Refused because another thread already has the id; nothing was written. */
export class ThreadIdTakenError extends Error {
  override name = "ThreadIdTakenError";

  constructor(readonly threadId: string) {
    super(`A thread with id ${threadId} already exists.`);
  }
}

export interface ThreadImport {
  thread: ThreadSummary;
  /** The thread's state: the channel values of its one checkpoint (e.g. `messages`, `artifacts`, `todos`). */
  values: Record<string, unknown>;
  /** Files at their virtual paths under /mnt/user-data. */
  files: readonly ThreadFileInput[];
  /** The messages' text for thread search, indexed in the same transaction (else the next search indexes it). */
  searchText?: string;
}

export class ThreadImporter implements ThreadImportStorage {
  /** `saver` is the checkpointer the Gateway reads threads with: its serializer and versions are used. */
  constructor(
    private readonly db: FawnDb,
    private readonly saver: BaseCheckpointSaver,
  ) {}

  /**
   * Stores the thread, its checkpoint and its files in one transaction. Rejects with ThreadIdTakenError when the
   * thread id is taken, and with the storage's error (e.g. QuotaExceededError) when the write fails; either way
   * nothing is stored. Records a crashed earlier attempt may have left under the id are replaced. Resolves with the
   * id of the thread's checkpoint.
   */
  async write(imported: ThreadImport): Promise<string> {
    const threadId = imported.thread.thread_id;
    for (const file of imported.files) assertThreadFilePath(file.path);
    // Serialize and hash before the transaction opens: it would commit while we awaited.
    const [checkpointRecords, fileRecordPairs] = await Promise.all([
      this.prepareCheckpoint(threadId, imported.values),
      fileRecords(threadId, imported.files),
    ]);
    const tx = this.db.transaction([...THREAD_STORES], "readwrite");
    const done = tx.done;
    done.catch(() => undefined);
    const requests: Promise<unknown>[] = [];
    try {
      const threads = tx.objectStore("threads");
      if ((await threads.getKey(threadId)) !== undefined) throw new ThreadIdTakenError(threadId);
      for (const name of THREAD_STORES) {
        if (name !== "threads") requests.push(tx.objectStore(name).delete(keyPrefixRange(threadId)));
      }
      const blobs = tx.objectStore("checkpoint_blobs");
      const messages = tx.objectStore("checkpoint_messages");
      const files = tx.objectStore("thread_files");
      const metas = tx.objectStore("thread_file_meta");
      for (const record of checkpointRecords.messages) requests.push(messages.put(record));
      for (const record of checkpointRecords.blobs) requests.push(blobs.put(record));
      requests.push(tx.objectStore("checkpoints").put(checkpointRecords.checkpoint));
      for (const [file, meta] of fileRecordPairs) requests.push(files.put(file), metas.put(meta));
      if (imported.searchText !== undefined) {
        requests.push(tx.objectStore("thread_search").put(searchRecord(threadId, imported.searchText)));
      }
      requests.push(threads.add(imported.thread));
      await Promise.all(requests);
    } catch (error) {
      // The requests still queued fail with the abort; their failure is this one.
      for (const request of requests) request.catch(() => undefined);
      if (!tx.error) tx.abort();
      throw error;
    }
    await done;
    return checkpointRecords.checkpoint.checkpoint_id;
  }

  private prepareCheckpoint(threadId: string, values: Record<string, unknown>): Promise<ImportedCheckpoint> {
    return importedCheckpoint(this.saver, threadId, values);
  }
}

/** The records of an imported thread's one checkpoint. */
export interface ImportedCheckpoint {
  checkpoint: CheckpointRecord;
  blobs: ChannelBlobRecord[];
  messages: CheckpointMessageRecord[];
}

/**
 * The records of a thread's state as one root checkpoint, laid out as a saver's first put lays it out, serialized
 * with `saver`'s serde and versions: what every storage writes for an import.
 */
export async function importedCheckpoint(
  saver: BaseCheckpointSaver,
  threadId: string,
  values: Record<string, unknown>,
): Promise<ImportedCheckpoint> {
  const { serde } = saver;
  const checkpoint = emptyCheckpoint();
  const channels = Object.entries(values).filter(([, value]) => value !== undefined);
  for (const [channel] of channels) checkpoint.channel_versions[channel] = saver.getNextVersion(undefined);
  const metadata: CheckpointMetadata = { source: "update", step: 0, parents: {} };
  const blobs: ChannelBlobRecord[] = [];
  const messages: CheckpointMessageRecord[] = [];
  for (const [channel, value] of channels) {
    const key = {
      thread_id: threadId,
      checkpoint_ns: "",
      channel,
      version: checkpoint.channel_versions[channel] as string | number,
    };
    if (MESSAGE_CHANNELS.has(channel) && isIdentifiedMessageList(value)) {
      const records = await Promise.all(
        value.map(async (message): Promise<CheckpointMessageRecord> => {
          const [messageType, messageBytes] = await serde.dumpsTyped(message);
          return {
            thread_id: threadId,
            message_id: message.id,
            hash: hashBytes(messageBytes),
            type: messageType,
            bytes: messageBytes,
          };
        }),
      );
      messages.push(...records);
      const plan = planMessageList(records.map((record) => [record.message_id, record.hash]));
      blobs.push({ ...key, ...plan.record });
    } else {
      const [valueType, valueBytes] = await serde.dumpsTyped(value);
      blobs.push({ ...key, kind: "value", type: valueType, bytes: valueBytes });
    }
  }
  return {
    checkpoint: await rootCheckpointRecord(serde, threadId, checkpoint, metadata),
    blobs,
    messages,
  };
}
