// LangGraph's checkpointer over Fawn's IndexedDB (docs/architecture.md#d2-storage). Semantics follow MemorySaver; the
// layout follows the Postgres saver: checkpoints without channel values, one record per (channel, version) written only
// for the channels in `newVersions`, pending writes keyed by task and index. Message lists are stored one message per
// record (message-delta.ts). Every put is one transaction; nothing is cached in memory, so tabs share the data.
import type { RunnableConfig } from "@langchain/core/runnables";
import type { IDBPTransaction, StoreNames } from "idb";
import {
  BaseCheckpointSaver,
  TASKS,
  WRITES_IDX_MAP,
  compareWritesSortKeys,
  copyCheckpoint,
  getCheckpointId,
  maxChannelVersion,
  writesSortKey,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  type PendingWrite,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import {
  CHECKPOINT_STORES,
  keyPrefixRange,
  LazyFawnDb,
  type ChannelBlobRecord,
  type ChannelVersionKey,
  type CheckpointMessageRecord,
  type CheckpointRecord,
  type CheckpointWriteRecord,
  type FawnDb,
  type FawnDbSchema,
  type MessageRef,
} from "./fawn-db.ts";
import { hashBytes, isIdentifiedMessageList, planMessageList, type MessageListLink } from "./message-delta.ts";

export type CheckpointStoreName = (typeof CHECKPOINT_STORES)[number];

/** One record the saver wrote, with the size of its serialized payload (keys not counted). */
export interface CheckpointWriteStat {
  store: CheckpointStoreName;
  bytes: number;
}

export type IndexedDbCheckpointSaverOptions = (
  { dbName: string; db?: undefined } | { db: FawnDb; dbName?: undefined }
) & {
  serde?: SerializerProtocol;
  /** Channels holding LangChain message lists, stored one message per record. Default `["messages"]`. */
  messageChannels?: readonly string[];
  /** Called once per record after its transaction committed: for benchmarks and tests. */
  onWrite?: (stat: CheckpointWriteStat) => void;
};

type BlobKey = [string, string, string, ChannelVersionKey];

/** The reading side of the blob store, as both readonly and readwrite transactions offer it. */
interface BlobReader {
  get(key: BlobKey): Promise<ChannelBlobRecord | undefined>;
}

/** A channel value as read inside a transaction, before the serde turns it back into objects. */
type RawValue =
  { kind: "value"; type: string; bytes: Uint8Array } | { kind: "messages"; messages: CheckpointMessageRecord[] };

interface RawTuple {
  record: CheckpointRecord;
  values: [string, RawValue][];
  writes: CheckpointWriteRecord[];
  /** TASKS writes of the parent checkpoint, for checkpoints older than format v4. */
  parentSends?: CheckpointWriteRecord[];
}

/** A channel value serialized before the put transaction opens (the serde is async; transactions are not). */
type PreparedValue =
  | { channel: string; version: ChannelVersionKey; kind: "value"; type: string; bytes: Uint8Array }
  | { channel: string; version: ChannelVersionKey; kind: "messages"; messages: CheckpointMessageRecord[] };

/** The longest chain a message list may have: log2 of any realistic step count, with room to spare. */
const MAX_CHAIN = 64;

const MISSING_THREAD_ID =
  'The passed RunnableConfig is missing a required "thread_id" field in its "configurable" property. When using a ' +
  'checkpointer, you must pass a "thread_id" so the checkpointer knows which conversation thread to persist state ' +
  'for. Example: graph.stream(input, { configurable: { thread_id: "my-thread-id" } })';

function assertStringKey(field: string, value: unknown, allowEmpty = false): asserts value is string {
  if (typeof value !== "string" || (!allowEmpty && value === "")) {
    throw new Error(`Invalid configurable value for key "${field}": expected a non-empty string identifier.`);
  }
}

/** Every key of `store` that starts with `prefix` (keys are arrays; an empty array sorts after every other key). */
function jsonSize(value: unknown): number {
  return JSON.stringify(value).length;
}

/** Reads the chain of a message list from its tip down to its root; undefined when it isn't a complete list. */
async function readChain(
  blobs: BlobReader,
  threadId: string,
  ns: string,
  channel: string,
  version: ChannelVersionKey,
): Promise<MessageListLink[] | undefined> {
  const chain: MessageListLink[] = [];
  let next: ChannelVersionKey | undefined = version;
  while (next !== undefined) {
    if (chain.length >= MAX_CHAIN) return undefined;
    const record: ChannelBlobRecord | undefined = await blobs.get([threadId, ns, channel, next]);
    if (!record || record.kind !== "messages") return undefined;
    chain.push({
      kind: "messages",
      seq: record.seq,
      len: record.len,
      base: record.base,
      refs: record.refs,
      version: next,
    });
    next = record.seq === 0 ? undefined : record.base;
  }
  return chain;
}

export class IndexedDbCheckpointSaver extends BaseCheckpointSaver {
  private readonly connection: LazyFawnDb;
  private readonly messageChannels: ReadonlySet<string>;
  private readonly onWrite?: (stat: CheckpointWriteStat) => void;

  constructor(options: IndexedDbCheckpointSaverOptions) {
    super(options.serde);
    this.connection = new LazyFawnDb(options);
    this.messageChannels = new Set(options.messageChannels ?? ["messages"]);
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
    const value: unknown = current;
    const previous = typeof value === "string" ? Number.parseInt(value, 10) : typeof value === "number" ? value : 0;
    const suffix = Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => byte.toString(16).padStart(2, "0"));
    return `${String(previous + 1).padStart(32, "0")}.${suffix.join("")}` as unknown as number;
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
    return this.toTuple(raw, checkpointId ? config : undefined);
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
      yield await this.toTuple(await this.readDetails(db, record), undefined, metadata);
    }
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const threadId: unknown = config.configurable?.thread_id;
    const ns: unknown = config.configurable?.checkpoint_ns ?? "";
    const parentId: unknown = config.configurable?.checkpoint_id;
    if (threadId === undefined) throw new Error(`Failed to put checkpoint. ${MISSING_THREAD_ID}`);
    assertStringKey("thread_id", threadId);
    assertStringKey("checkpoint_ns", ns, true);
    assertStringKey("checkpoint_id", checkpoint.id);
    if (parentId !== undefined) assertStringKey("checkpoint_id", parentId, true);

    const prepared = copyCheckpoint(checkpoint);
    const values = prepared.channel_values;
    const [[type, bytes], [metadataType, metadataBytes]] = await Promise.all([
      this.serde.dumpsTyped({ ...prepared, channel_values: {} }),
      this.serde.dumpsTyped(metadata),
    ]);
    const channels: PreparedValue[] = await Promise.all(
      Object.entries(newVersions)
        .filter(([channel]) => Object.prototype.hasOwnProperty.call(values, channel) && values[channel] !== undefined)
        .map(([channel, version]) => this.prepareValue(threadId, channel, version, values[channel])),
    );
    const record: CheckpointRecord = {
      thread_id: threadId,
      checkpoint_ns: ns,
      checkpoint_id: checkpoint.id,
      ...(parentId ? { parent_checkpoint_id: parentId } : {}),
      v: prepared.v,
      type,
      checkpoint: bytes,
      metadata_type: metadataType,
      metadata: metadataBytes,
      channel_versions: { ...prepared.channel_versions },
    };

    await this.writeAtomically(
      ["checkpoints", "checkpoint_blobs", "checkpoint_messages"],
      async (tx, requests, stats) => {
        const blobs = tx.objectStore("checkpoint_blobs");
        const messages = tx.objectStore("checkpoint_messages");
        const parent = parentId ? await tx.objectStore("checkpoints").get([threadId, ns, parentId]) : undefined;
        for (const value of channels) {
          const key = { thread_id: threadId, checkpoint_ns: ns, channel: value.channel, version: value.version };
          if (value.kind === "value") {
            requests.push(blobs.put({ ...key, kind: "value", type: value.type, bytes: value.bytes }));
            stats.push({ store: "checkpoint_blobs", bytes: value.bytes.byteLength });
            continue;
          }
          const parentVersion = parent?.channel_versions[value.channel];
          const chain =
            parentVersion === undefined
              ? undefined
              : await readChain(blobs, threadId, ns, value.channel, parentVersion);
          const refs: MessageRef[] = value.messages.map((message) => [message.message_id, message.hash]);
          const plan = planMessageList(refs, chain);
          const byRef = new Map(
            value.messages.map((message) => [`${message.message_id}\u0000${message.hash}`, message]),
          );
          const seen = new Set<string>();
          for (const [id, hash] of plan.unstored) {
            const refKey = `${id}\u0000${hash}`;
            if (seen.has(refKey)) continue;
            seen.add(refKey);
            if ((await messages.getKey([threadId, id, hash])) !== undefined) continue;
            const message = byRef.get(refKey) as CheckpointMessageRecord;
            requests.push(messages.put(message));
            stats.push({ store: "checkpoint_messages", bytes: message.bytes.byteLength });
          }
          requests.push(blobs.put({ ...key, ...plan.record }));
          stats.push({ store: "checkpoint_blobs", bytes: jsonSize(plan.record) });
        }
        requests.push(tx.objectStore("checkpoints").put(record));
        stats.push({
          store: "checkpoints",
          bytes: bytes.byteLength + metadataBytes.byteLength + jsonSize(record.channel_versions),
        });
      },
    );
    return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const threadId: unknown = config.configurable?.thread_id;
    const ns: unknown = config.configurable?.checkpoint_ns ?? "";
    const checkpointId: unknown = config.configurable?.checkpoint_id;
    if (threadId === undefined) throw new Error(`Failed to put writes. ${MISSING_THREAD_ID}`);
    if (checkpointId === undefined) {
      throw new Error(
        'Failed to put writes. The passed RunnableConfig is missing a required "checkpoint_id" field in its "configurable" property.',
      );
    }
    assertStringKey("thread_id", threadId);
    assertStringKey("checkpoint_ns", ns, true);
    assertStringKey("checkpoint_id", checkpointId);
    assertStringKey("task_id", taskId);
    const records: CheckpointWriteRecord[] = await Promise.all(
      writes.map(async ([channel, value], idx) => {
        const [type, bytes] = await this.serde.dumpsTyped(value);
        return {
          thread_id: threadId,
          checkpoint_ns: ns,
          checkpoint_id: checkpointId,
          task_id: taskId,
          idx: WRITES_IDX_MAP[channel] ?? idx,
          task_path: taskPath ?? "",
          channel,
          type,
          bytes,
        };
      }),
    );
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
  }

  /** Serializes one channel value: a message list message by message, anything else whole. */
  private async prepareValue(
    threadId: string,
    channel: string,
    version: ChannelVersionKey,
    value: unknown,
  ): Promise<PreparedValue> {
    if (this.messageChannels.has(channel) && isIdentifiedMessageList(value)) {
      const messages = await Promise.all(
        value.map(async (message): Promise<CheckpointMessageRecord> => {
          const [type, bytes] = await this.serde.dumpsTyped(message);
          return { thread_id: threadId, message_id: message.id, hash: hashBytes(bytes), type, bytes };
        }),
      );
      return { channel, version, kind: "messages", messages };
    }
    const [type, bytes] = await this.serde.dumpsTyped(value);
    return { channel, version, kind: "value", type, bytes };
  }

  /** Reads a checkpoint's channel values, pending writes and (for old formats) its parent's sends, in one transaction. */
  private async readDetails(db: FawnDb, record: CheckpointRecord): Promise<RawTuple> {
    const { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: id, parent_checkpoint_id: parentId } = record;
    const tx = db.transaction(["checkpoint_blobs", "checkpoint_writes", "checkpoint_messages"]);
    const blobs = tx.objectStore("checkpoint_blobs");
    const messages = tx.objectStore("checkpoint_messages");
    const writesStore = tx.objectStore("checkpoint_writes");
    const readValue = async ([channel, version]: [string, ChannelVersionKey]): Promise<
      [string, RawValue] | undefined
    > => {
      const blob = await blobs.get([threadId, ns, channel, version]);
      if (!blob) return undefined;
      if (blob.kind === "value") return [channel, { kind: "value", type: blob.type, bytes: blob.bytes }];
      const chain = await readChain(blobs, threadId, ns, channel, version);
      if (!chain) throw new Error(`Checkpoint storage is damaged: message list ${channel}@${version} is incomplete.`);
      const refs: MessageRef[] = [];
      for (let i = chain.length - 1; i >= 0; i--) refs.push(...(chain[i] as MessageListLink).refs);
      const found = await Promise.all(refs.map(([messageId, hash]) => messages.get([threadId, messageId, hash])));
      if (found.some((message) => message === undefined)) {
        throw new Error(`Checkpoint storage is damaged: a message of ${channel}@${version} is missing.`);
      }
      return [channel, { kind: "messages", messages: found as CheckpointMessageRecord[] }];
    };
    const [values, writes, parentWrites] = await Promise.all([
      Promise.all(Object.entries(record.channel_versions).map(readValue)),
      writesStore.getAll(keyPrefixRange(threadId, ns, id)),
      record.v < 4 && parentId !== undefined ? writesStore.getAll(keyPrefixRange(threadId, ns, parentId)) : undefined,
      tx.done,
    ]);
    return {
      record,
      values: values.filter((value) => value !== undefined),
      writes: sortWrites(writes),
      ...(parentWrites ? { parentSends: sortWrites(parentWrites).filter((write) => write.channel === TASKS) } : {}),
    };
  }

  private async toTuple(
    raw: RawTuple,
    config?: RunnableConfig,
    metadata?: CheckpointMetadata,
  ): Promise<CheckpointTuple> {
    const { record } = raw;
    const checkpoint = (await this.serde.loadsTyped(record.type, record.checkpoint)) as Checkpoint;
    checkpoint.channel_values = {};
    for (const [channel, value] of raw.values) {
      checkpoint.channel_values[channel] =
        value.kind === "value"
          ? await this.serde.loadsTyped(value.type, value.bytes)
          : await Promise.all(value.messages.map((message) => this.serde.loadsTyped(message.type, message.bytes)));
    }
    if (raw.parentSends) {
      checkpoint.channel_values[TASKS] = await Promise.all(
        raw.parentSends.map((write) => this.serde.loadsTyped(write.type, write.bytes)),
      );
      checkpoint.channel_versions ??= {};
      const versions = Object.values(checkpoint.channel_versions);
      checkpoint.channel_versions[TASKS] =
        versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
    }
    const pendingWrites: CheckpointPendingWrite[] = await Promise.all(
      raw.writes.map(async (write): Promise<CheckpointPendingWrite> => [
        write.task_id,
        write.channel,
        await this.serde.loadsTyped(write.type, write.bytes),
      ]),
    );
    const tuple: CheckpointTuple = {
      config: config ?? {
        configurable: {
          thread_id: record.thread_id,
          checkpoint_ns: record.checkpoint_ns,
          checkpoint_id: record.checkpoint_id,
        },
      },
      checkpoint,
      metadata:
        metadata ?? ((await this.serde.loadsTyped(record.metadata_type, record.metadata)) as CheckpointMetadata),
      pendingWrites,
    };
    if (record.parent_checkpoint_id !== undefined) {
      tuple.parentConfig = {
        configurable: {
          thread_id: record.thread_id,
          checkpoint_ns: record.checkpoint_ns,
          checkpoint_id: record.parent_checkpoint_id,
        },
      };
    }
    return tuple;
  }
}

/** Pending writes in the order live execution applies them: (task_path, task_id, idx). */
function sortWrites(writes: CheckpointWriteRecord[]): CheckpointWriteRecord[] {
  return writes
    .map((write) => ({ write, key: writesSortKey(write.task_path, write.task_id, write.idx) }))
    .sort((a, b) => compareWritesSortKeys(a.key, b.key))
    .map(({ write }) => write);
}
