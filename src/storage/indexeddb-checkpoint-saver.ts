// LangGraph's checkpointer over Fawn's IndexedDB (docs/architecture.md#d2-storage). Semantics follow MemorySaver; the
// layout follows the Postgres saver: checkpoints without channel values, one record per (channel, version) written only
// for the channels in `newVersions`, pending writes keyed by task and index. Message lists are stored one message per
// record; how records are made and read back is checkpoint-codec.ts, and what a put or putWrites prepares before it
// writes is checkpoint-puts.ts, both shared with MemoryCheckpointSaver. Every put is one transaction.
import type { RunnableConfig } from "@langchain/core/runnables";
import type { IDBPTransaction, StoreNames } from "idb";
import {
  BaseCheckpointSaver,
  getCheckpointId,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import {
  CheckpointCodec,
  jsonSize,
  type BlobKey,
  type ChannelPlan,
  type CheckpointReader,
  type CheckpointWriteStat,
  type RawTuple,
} from "./checkpoint-codec.ts";
import { assertStringKey, nextChannelVersion } from "./checkpoint-keys.ts";
import { preparePut, prepareWrites } from "./checkpoint-puts.ts";
import type { CheckpointStorage } from "./contracts.ts";
import {
  CHECKPOINT_STORES,
  keyPrefixRange,
  LazyFawnDb,
  type CheckpointRecord,
  type CheckpointWriteRecord,
  type FawnDb,
  type FawnDbSchema,
} from "./fawn-db.ts";

export type { CheckpointStoreName, CheckpointWriteStat } from "./checkpoint-codec.ts";
export { nextChannelVersion, rootCheckpointRecord } from "./checkpoint-keys.ts";

export type IndexedDbCheckpointSaverOptions = (
  { dbName: string; db?: undefined } | { db: FawnDb; dbName?: undefined }
) & {
  serde?: SerializerProtocol;
  /** Channels holding LangChain message lists, stored one message per record. Default `["messages"]`. */
  messageChannels?: readonly string[];
  /** Called once per record after its transaction committed: for benchmarks and tests. */
  onWrite?: (stat: CheckpointWriteStat) => void;
};

export class IndexedDbCheckpointSaver extends BaseCheckpointSaver implements CheckpointStorage {
  private readonly connection: LazyFawnDb;
  private readonly onWrite?: (stat: CheckpointWriteStat) => void;
  private readonly codec: CheckpointCodec;

  constructor(options: IndexedDbCheckpointSaverOptions) {
    super(options.serde);
    this.connection = new LazyFawnDb(options);
    this.codec = new CheckpointCodec(this.serde, options.messageChannels);
    this.onWrite = options.onWrite;
  }

  private database(): Promise<FawnDb> {
    return this.connection.get();
  }

  /** Closes the connection when this saver opened it (a `db` passed in belongs to the caller). */
  close(): Promise<void> {
    return this.connection.close();
  }

  /**
   * Channel versions unique across forks: a zero-padded counter (so versions sort) and a random suffix. With plain
   * integers, a run forked from an older checkpoint would reuse a version number and overwrite the value the newer
   * checkpoints of the other branch read (channel values are keyed by version).
   *
   * LangGraph's runtime compares string versions (its base class asks savers to override this method "to use string
   * versions"), but `compile({ checkpointer })` is typed for number versions only, hence the cast.
   */
  override getNextVersion(current: number | undefined): number {
    return nextChannelVersion(current) as unknown as number;
  }

  /** Whether the checkpoint came in an imported thread (a run never resumes from one); false when it is not stored. */
  async isImported(threadId: string, checkpointId: string): Promise<boolean> {
    const db = await this.database();
    const record = await db.get("checkpoints", [threadId, "", checkpointId]);
    return record?.imported === true;
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId: unknown = config.configurable?.thread_id;
    const ns: unknown = config.configurable?.checkpoint_ns ?? "";
    const checkpointId = getCheckpointId(config);
    if (threadId === undefined) return undefined;
    assertStringKey("thread_id", threadId);
    assertStringKey("checkpoint_ns", ns, true);
    const db = await this.database();
    let record: CheckpointRecord | undefined;
    if (checkpointId) {
      record = await db.get("checkpoints", [threadId, ns, checkpointId]);
    } else {
      const cursor = await db.transaction("checkpoints").store.openCursor(keyPrefixRange(threadId, ns), "prev");
      record = cursor?.value;
    }
    if (!record) return undefined;
    const raw = await this.readDetails(db, record);
    return this.codec.toTuple(raw, checkpointId ? config : undefined);
  }

  /** The id of the thread's newest checkpoint in the root namespace (undefined: none), read from its key alone. */
  async latestCheckpointId(threadId: string): Promise<string | undefined> {
    const db = await this.database();
    const cursor = await db.transaction("checkpoints").store.openKeyCursor(keyPrefixRange(threadId, ""), "prev");
    return cursor?.key[2];
  }

  /** The checkpoint with no parent in the thread's root namespace: its first (undefined: none). */
  async rootCheckpointId(threadId: string): Promise<string | undefined> {
    const db = await this.database();
    const cursor = await db.transaction("checkpoints").store.openCursor(keyPrefixRange(threadId, ""));
    return cursor?.value.parent_checkpoint_id === undefined ? cursor?.key[2] : undefined;
  }

  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const { before, filter } = options ?? {};
    let limit = options?.limit;
    const threadId: unknown = config.configurable?.thread_id;
    const ns: unknown = config.configurable?.checkpoint_ns;
    const onlyId: unknown = config.configurable?.checkpoint_id;
    const beforeId: unknown = before?.configurable?.checkpoint_id;
    if (threadId !== undefined) assertStringKey("thread_id", threadId, true);
    if (ns !== undefined) assertStringKey("checkpoint_ns", ns, true);
    const db = await this.database();
    const range = threadId ? (ns !== undefined ? keyPrefixRange(threadId, ns) : keyPrefixRange(threadId)) : undefined;
    const keys = (await db.getAllKeys("checkpoints", range)).filter(([, keyNs]) => ns === undefined || keyNs === ns);
    // Key order is (thread, namespace, id) ascending; MemorySaver yields each namespace's checkpoints newest first.
    const ordered: typeof keys = [];
    let group: typeof keys = [];
    for (const key of keys) {
      const last = group[group.length - 1];
      if (last && (last[0] !== key[0] || last[1] !== key[1])) {
        ordered.push(...group.reverse());
        group = [];
      }
      group.push(key);
    }
    ordered.push(...group.reverse());

    for (const key of ordered) {
      const id = key[2];
      if (onlyId && id !== onlyId) continue;
      if (typeof beforeId === "string" && beforeId && id >= beforeId) continue;
      const record = await db.get("checkpoints", key);
      if (!record) continue; // deleted since the keys were read
      const metadata = (await this.serde.loadsTyped(record.metadata_type, record.metadata)) as CheckpointMetadata;
      if (filter && !Object.entries(filter).every(([k, v]) => (metadata as Record<string, unknown>)[k] === v)) continue;
      if (limit !== undefined) {
        if (limit <= 0) break;
        limit -= 1;
      }
      yield await this.codec.toTuple(await this.readDetails(db, record), undefined, metadata);
    }
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const { threadId, ns, parentId, record, values, channels } = await preparePut(
      this.serde,
      this.codec,
      config,
      checkpoint,
      metadata,
      newVersions,
    );

    let plan: ChannelPlan | undefined;
    await this.writeAtomically(
      ["checkpoints", "checkpoint_blobs", "checkpoint_messages"],
      async (tx, requests, stats) => {
        const blobs = tx.objectStore("checkpoint_blobs");
        const messages = tx.objectStore("checkpoint_messages");
        const parent = parentId ? await tx.objectStore("checkpoints").get([threadId, ns, parentId]) : undefined;
        const reader = {
          get: (key: BlobKey) => blobs.get(key),
          hasMessage: async (key: [string, string, string]) => (await messages.getKey(key)) !== undefined,
        };
        plan = await this.codec.planChannels(reader, threadId, ns, parent, channels, values);
        for (const planned of plan.records) {
          requests.push(
            planned.store === "checkpoint_blobs" ? blobs.put(planned.record) : messages.put(planned.record),
          );
          stats.push({ store: planned.store, bytes: planned.bytes });
        }
        requests.push(tx.objectStore("checkpoints").put(record));
        stats.push({
          store: "checkpoints",
          bytes: record.checkpoint.byteLength + record.metadata.byteLength + jsonSize(record.channel_versions),
        });
      },
    );
    // Committed: the records are now what IndexedDB holds under these keys.
    if (plan) this.codec.remember(plan);
    return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const { threadId, ns, checkpointId, records } = await prepareWrites(this.serde, config, writes, taskId, taskPath);
    await this.writeAtomically(["checkpoint_writes"], async (tx, requests, stats) => {
      const store = tx.objectStore("checkpoint_writes");
      for (const record of records) {
        // A regular write already stored for this task and index stays; special channels (errors, interrupts, …)
        // have fixed negative indices and replace what was there — as in MemorySaver.
        if (record.idx >= 0) {
          const existing = await store.getKey([threadId, ns, checkpointId, taskId, record.idx]);
          if (existing !== undefined) continue;
        }
        requests.push(store.put(record));
        stats.push({ store: "checkpoint_writes", bytes: record.bytes.byteLength });
      }
    });
  }

  /**
   * Runs `fill` in one readwrite transaction: it queues requests and records what it writes. Any failure aborts the
   * transaction, so nothing is written; the write stats are reported after the commit.
   */
  private async writeAtomically<Names extends StoreNames<FawnDbSchema>[]>(
    names: Names,
    fill: (
      tx: IDBPTransaction<FawnDbSchema, Names, "readwrite">,
      requests: Promise<unknown>[],
      stats: CheckpointWriteStat[],
    ) => Promise<void>,
  ): Promise<void> {
    const db = await this.database();
    const tx = db.transaction(names, "readwrite");
    const done = tx.done;
    done.catch(() => undefined); // awaited below; a failed request must not also surface as an unhandled rejection
    const requests: Promise<unknown>[] = [];
    const stats: CheckpointWriteStat[] = [];
    try {
      await fill(tx, requests, stats);
      await Promise.all(requests);
    } catch (error) {
      if (!tx.error) tx.abort();
      throw error;
    }
    await done;
    for (const stat of stats) this.onWrite?.(stat);
  }

  /** Removes every checkpoint, channel value, pending write and message of the thread, in one transaction. */
  async deleteThread(threadId: string): Promise<void> {
    assertStringKey("thread_id", threadId, true);
    const db = await this.database();
    const tx = db.transaction([...CHECKPOINT_STORES], "readwrite");
    await Promise.all([
      ...CHECKPOINT_STORES.map((name) => tx.objectStore(name).delete(keyPrefixRange(threadId))),
      tx.done,
    ]);
    this.codec.forgetThread(threadId);
  }

  /** Reads a checkpoint's channel values, pending writes and (for old formats) its parent's sends, in one transaction. */
  private async readDetails(db: FawnDb, record: CheckpointRecord): Promise<RawTuple> {
    const tx = db.transaction(["checkpoint_blobs", "checkpoint_writes", "checkpoint_messages"]);
    const blobs = tx.objectStore("checkpoint_blobs");
    const messages = tx.objectStore("checkpoint_messages");
    const writes = tx.objectStore("checkpoint_writes");
    const reader: CheckpointReader = {
      get: (key) => blobs.get(key),
      message: (key) => messages.get(key),
      writes: (threadId, ns, checkpointId): Promise<CheckpointWriteRecord[]> =>
        writes.getAll(keyPrefixRange(threadId, ns, checkpointId)),
    };
    const [raw] = await Promise.all([this.codec.readDetails(reader, record), tx.done]);
    return raw;
  }
}
