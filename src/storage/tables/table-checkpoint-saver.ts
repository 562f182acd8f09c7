// LangGraph's checkpointer over Fawn's tables (CheckpointStorage of contracts.ts): the records IndexedDbCheckpointSaver
// writes, made and read by the same codec (checkpoint-codec.ts). Semantics follow MemorySaver, as the IndexedDB
// saver's do; over memory and over Postgres it passes LangGraph's checkpoint validation suite and storage-contract.ts.
import type { RunnableConfig } from "@langchain/core/runnables";
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
import { CheckpointCodec, type CheckpointReader, type RawTuple } from "../checkpoint-codec.ts";
import { assertStringKey, nextChannelVersion } from "../checkpoint-keys.ts";
import { preparePut, prepareWrites } from "../checkpoint-puts.ts";
import type { CheckpointStorage } from "../contracts.ts";
import { CHECKPOINT_STORES, type CheckpointRecord } from "../fawn-db.ts";
import type { Key, StoreValue, Tables } from "./tables.ts";

type CheckpointKey = [string, string, string];

const ignoreConstraintError = (error: unknown) => {
  if (!(error instanceof DOMException && error.name === "ConstraintError")) throw error;
};

export class TableCheckpointSaver extends BaseCheckpointSaver implements CheckpointStorage {
  private readonly codec: CheckpointCodec;

  constructor(
    private readonly tables: Tables,
    options: { serde?: SerializerProtocol; messageChannels?: readonly string[] } = {},
  ) {
    super(options.serde);
    this.codec = new CheckpointCodec(this.serde, options.messageChannels);
  }

  /** String versions unique across forks, as IndexedDbCheckpointSaver's (see there). */
  override getNextVersion(current: number | undefined): number {
    return nextChannelVersion(current) as unknown as number;
  }

  async isImported(threadId: string, checkpointId: string): Promise<boolean> {
    return (await this.tables.read((tx) => tx.get("checkpoints", [threadId, "", checkpointId])))?.imported === true;
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId: unknown = config.configurable?.thread_id;
    const ns: unknown = config.configurable?.checkpoint_ns ?? "";
    const checkpointId = getCheckpointId(config);
    if (threadId === undefined) return undefined;
    assertStringKey("thread_id", threadId);
    assertStringKey("checkpoint_ns", ns, true);
    const record = await this.tables.read(async (tx) =>
      checkpointId
        ? tx.get("checkpoints", [threadId, ns, checkpointId])
        : (await tx.all("checkpoints", [threadId, ns], { reverse: true, limit: 1 }))[0],
    );
    if (!record) return undefined;
    return this.codec.toTuple(await this.readDetails(record), checkpointId ? config : undefined);
  }

  async latestCheckpointId(threadId: string): Promise<string | undefined> {
    const [key] = await this.tables.read((tx) => tx.keys("checkpoints", [threadId, ""], { reverse: true, limit: 1 }));
    return (key as CheckpointKey | undefined)?.[2];
  }

  async rootCheckpointId(threadId: string): Promise<string | undefined> {
    const [first] = await this.tables.read((tx) => tx.all("checkpoints", [threadId, ""], { limit: 1 }));
    return first?.parent_checkpoint_id === undefined ? first?.checkpoint_id : undefined;
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
    const prefix = threadId ? (ns !== undefined ? [threadId, ns] : [threadId]) : undefined;
    const keys = ((await this.tables.read((tx) => tx.keys("checkpoints", prefix))) as CheckpointKey[]).filter(
      ([, keyNs]) => ns === undefined || keyNs === ns,
    );
    // Key order is (thread, namespace, id) ascending; MemorySaver yields each namespace's checkpoints newest first.
    const ordered: CheckpointKey[] = [];
    let group: CheckpointKey[] = [];
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
      const record = await this.tables.read((tx) => tx.get("checkpoints", key));
      if (!record) continue; // deleted since the keys were read
      const metadata = (await this.serde.loadsTyped(record.metadata_type, record.metadata)) as CheckpointMetadata;
      if (filter && !Object.entries(filter).every(([k, v]) => (metadata as Record<string, unknown>)[k] === v)) continue;
      if (limit !== undefined) {
        if (limit <= 0) break;
        limit -= 1;
      }
      yield await this.codec.toTuple(await this.readDetails(record), undefined, metadata);
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
    const parent = parentId
      ? await this.tables.read((tx) => tx.get("checkpoints", [threadId, ns, parentId]))
      : undefined;
    // Read first, then written in one transaction: all of it or none. (Stored records are never rewritten, so what
    // was read stays true.)
    const messages = this.batchedGets("checkpoint_messages");
    const plan = await this.codec.planChannels(
      {
        get: this.batchedGets("checkpoint_blobs"),
        hasMessage: async (key) => (await messages(key)) !== undefined,
      },
      threadId,
      ns,
      parent,
      channels,
      values,
    );
    await this.tables.write(async (tx) => {
      for (const planned of plan.records) {
        if (planned.store === "checkpoint_blobs") await tx.put("checkpoint_blobs", planned.record);
        else await tx.put("checkpoint_messages", planned.record);
      }
      await tx.put("checkpoints", record);
    });
    this.codec.remember(plan);
    return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const { records } = await prepareWrites(this.serde, config, writes, taskId, taskPath);
    await this.tables.write(async (tx) => {
      for (const record of records) {
        // A regular write already stored for this task and index stays (an add that finds it refuses, changing
        // nothing: one statement, not a read and a write); special channels replace (as MemorySaver).
        if (record.idx < 0) await tx.put("checkpoint_writes", record);
        else await tx.add("checkpoint_writes", record).catch(ignoreConstraintError);
      }
    });
  }

  async deleteThread(threadId: string): Promise<void> {
    assertStringKey("thread_id", threadId, true);
    await this.tables.write(async (tx) => {
      for (const name of CHECKPOINT_STORES) await tx.deleteWhere(name, [threadId]);
    });
    this.codec.forgetThread(threadId);
  }

  private readDetails(record: CheckpointRecord): Promise<RawTuple> {
    const reader: CheckpointReader = {
      get: this.batchedGets("checkpoint_blobs"),
      message: this.batchedGets("checkpoint_messages"),
      writes: (threadId, ns, checkpointId) =>
        this.tables.read((tx) => tx.all("checkpoint_writes", [threadId, ns, checkpointId])),
    };
    return this.codec.readDetails(reader, record);
  }

  /** A get whose calls made in one tick (the codec's Promise.all over a list's messages) are one read of them all. */
  private batchedGets<Name extends "checkpoint_blobs" | "checkpoint_messages">(
    name: Name,
  ): (key: Key) => Promise<StoreValue<Name> | undefined> {
    let batch: {
      key: Key;
      resolve: (value: StoreValue<Name> | undefined) => void;
      reject: (error: unknown) => void;
    }[] = [];
    const flush = () => {
      const taken = batch;
      batch = [];
      this.tables
        .read((tx) =>
          tx.getMany(
            name,
            taken.map((call) => call.key),
          ),
        )
        .then(
          (values) => taken.forEach((call, index) => call.resolve(values[index])),
          (error: unknown) => taken.forEach((call) => call.reject(error)),
        );
    };
    return (key) =>
      new Promise((resolve, reject) => {
        if (batch.length === 0) queueMicrotask(flush);
        batch.push({ key, resolve, reject });
      });
  }
}
