// LangGraph's checkpointer held in memory (CheckpointStorage of contracts.ts): the records IndexedDbCheckpointSaver
// writes, made and read by the same codec (checkpoint-codec.ts), in memory tables. Semantics follow MemorySaver, as
// the IndexedDB saver's do; both pass LangGraph's checkpoint validation suite and storage-contract.ts.
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
import type { MemoryTables } from "./memory-tables.ts";

type CheckpointKey = [string, string, string];

export class MemoryCheckpointSaver extends BaseCheckpointSaver implements CheckpointStorage {
  private readonly codec: CheckpointCodec;

  constructor(
    private readonly tables: MemoryTables,
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
    return this.tables.read((tx) => tx.get("checkpoints", [threadId, "", checkpointId])?.imported === true);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId: unknown = config.configurable?.thread_id;
    const ns: unknown = config.configurable?.checkpoint_ns ?? "";
    const checkpointId = getCheckpointId(config);
    if (threadId === undefined) return undefined;
    assertStringKey("thread_id", threadId);
    assertStringKey("checkpoint_ns", ns, true);
    const record = this.tables.read((tx) =>
      checkpointId ? tx.get("checkpoints", [threadId, ns, checkpointId]) : tx.all("checkpoints", [threadId, ns]).at(-1),
    );
    if (!record) return undefined;
    return this.codec.toTuple(await this.readDetails(record), checkpointId ? config : undefined);
  }

  async latestCheckpointId(threadId: string): Promise<string | undefined> {
    const key = this.tables.read((tx) => tx.keys("checkpoints", [threadId, ""]).at(-1)) as CheckpointKey | undefined;
    return key?.[2];
  }

  async rootCheckpointId(threadId: string): Promise<string | undefined> {
    const first = this.tables.read((tx) => tx.all("checkpoints", [threadId, ""])[0]);
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
    const keys = (this.tables.read((tx) => tx.keys("checkpoints", prefix)) as CheckpointKey[]).filter(
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
      const record = this.tables.read((tx) => tx.get("checkpoints", key));
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
    const parent = parentId ? this.tables.read((tx) => tx.get("checkpoints", [threadId, ns, parentId])) : undefined;
    // Read first (the codec reads asynchronously), then written in one synchronous transaction: all of it or none.
    const plan = await this.codec.planChannels(
      {
        get: async (key) => this.tables.read((tx) => tx.get("checkpoint_blobs", key)),
        hasMessage: async (key) => this.tables.read((tx) => tx.has("checkpoint_messages", key)),
      },
      threadId,
      ns,
      parent,
      channels,
      values,
    );
    this.tables.write((tx) => {
      for (const planned of plan.records) {
        if (planned.store === "checkpoint_blobs") tx.put("checkpoint_blobs", planned.record);
        else tx.put("checkpoint_messages", planned.record);
      }
      tx.put("checkpoints", record);
    });
    this.codec.remember(plan);
    return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const { threadId, ns, checkpointId, records } = await prepareWrites(this.serde, config, writes, taskId, taskPath);
    this.tables.write((tx) => {
      for (const record of records) {
        // A regular write already stored for this task and index stays; special channels replace (as MemorySaver).
        if (record.idx >= 0 && tx.has("checkpoint_writes", [threadId, ns, checkpointId, taskId, record.idx])) continue;
        tx.put("checkpoint_writes", record);
      }
    });
  }

  async deleteThread(threadId: string): Promise<void> {
    assertStringKey("thread_id", threadId, true);
    this.tables.write((tx) => {
      for (const name of CHECKPOINT_STORES) tx.deleteWhere(name, [threadId]);
    });
    this.codec.forgetThread(threadId);
  }

  private readDetails(record: CheckpointRecord): Promise<RawTuple> {
    const reader: CheckpointReader = {
      get: async (key) => this.tables.read((tx) => tx.get("checkpoint_blobs", key)),
      message: async (key) => this.tables.read((tx) => tx.get("checkpoint_messages", key)),
      writes: async (threadId, ns, checkpointId) =>
        this.tables.read((tx) => tx.all("checkpoint_writes", [threadId, ns, checkpointId])),
    };
    return this.codec.readDetails(reader, record);
  }
}
