// LangGraph's checkpointer over Fawn's IndexedDB (docs/architecture.md#d2-storage). Semantics follow MemorySaver; the
// layout follows the Postgres saver: checkpoints without channel values, one record per (channel, version) written only
// for the channels in `newVersions`, pending writes keyed by task and index. Message lists are stored one message per
// record (message-delta.ts). Every put is one transaction. What is kept in memory is only what cannot go stale: the
// serialized form of message objects and the list records of versions, which are never rewritten (versions are unique).
import { isBaseMessage, type BaseMessage } from "@langchain/core/messages";
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
import { hashBytes, isIdentifiedMessage, planMessageList, type MessageListLink } from "./message-delta.ts";

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

/** A message serialized by this saver's serde, and what it was serialized from (see `serializeMessage`). */
interface SerializedMessage {
  id: string;
  content: unknown;
  toolCalls: unknown;
  /** `[id, hash of bytes]`, the message's key in `checkpoint_messages` (with the thread id). */
  ref: MessageRef;
  type: string;
  bytes: Uint8Array;
}

/** A channel value serialized before the put transaction opens (the serde is async; transactions are not). */
type PreparedValue =
  | { channel: string; version: ChannelVersionKey; kind: "value"; type: string; bytes: Uint8Array }
  | {
      channel: string;
      version: ChannelVersionKey;
      kind: "messages";
      messages: SerializedMessage[];
      /** `messages`' refs, in order. */
      refs: MessageRef[];
      /** The version whose stored list these messages start with, known from the list last put (see ListMemo). */
      extends?: ChannelVersionKey;
    };

/** The message list this saver last put for a thread's channel: its version, its messages and their forms. */
interface ListMemo {
  version: ChannelVersionKey;
  /** A copy of the list as put (the caller may change its array afterwards), its messages' forms and their refs. */
  items: readonly unknown[];
  forms: readonly SerializedMessage[];
  refs: readonly MessageRef[];
}

/** The longest chain a message list may have: log2 of any realistic step count, with room to spare. */
const MAX_CHAIN = 64;

/**
 * List records kept in memory, most recently used last: enough for the chains of the versions a few threads are at
 * (a chain is at most log2(step) + 1 records), so a put reads no list record back from IndexedDB.
 */
const MAX_CACHED_LINKS = 1024;

/** Message lists remembered (ListMemo): one per thread and channel that runs are writing, a few at once. */
const MAX_LIST_MEMOS = 8;

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

/** The in-memory key of a thread's channel (ListMemo). */
function listKey(threadId: string, ns: string, channel: string): string {
  return `${threadId}\u0000${ns}\u0000${channel}`;
}

/** The in-memory key of a list record: its IndexedDB key as one string. */
function linkKey(threadId: string, ns: string, channel: string, version: ChannelVersionKey): string {
  return `${threadId}\u0000${ns}\u0000${channel}\u0000${typeof version}:${String(version)}`;
}

/**
 * The channel version after `current`, unique across forks: a zero-padded counter (so versions sort) and a random
 * suffix (see IndexedDbCheckpointSaver.getNextVersion).
 */
export function nextChannelVersion(current: unknown): string {
  const previous =
    typeof current === "string" ? Number.parseInt(current, 10) : typeof current === "number" ? current : 0;
  const suffix = Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => byte.toString(16).padStart(2, "0"));
  return `${String(previous + 1).padStart(32, "0")}.${suffix.join("")}`;
}

/**
 * The stored record of a root-namespace checkpoint written outside a run (an import), serialized with `serde`; its
 * channel values go in blobs of their own.
 */
export async function rootCheckpointRecord(
  serde: SerializerProtocol,
  threadId: string,
  checkpoint: Checkpoint,
  metadata: CheckpointMetadata,
  extra: Pick<CheckpointRecord, "parent_checkpoint_id" | "imported"> = {},
): Promise<CheckpointRecord> {
  const [[type, bytes], [metadataType, metadataBytes]] = await Promise.all([
    serde.dumpsTyped(checkpoint),
    serde.dumpsTyped(metadata),
  ]);
  return {
    thread_id: threadId,
    checkpoint_ns: "",
    checkpoint_id: checkpoint.id,
    ...(extra.parent_checkpoint_id !== undefined && { parent_checkpoint_id: extra.parent_checkpoint_id }),
    v: checkpoint.v,
    type,
    checkpoint: bytes,
    metadata_type: metadataType,
    metadata: metadataBytes,
    channel_versions: { ...checkpoint.channel_versions },
    ...(extra.imported && { imported: true }),
  };
}

export class IndexedDbCheckpointSaver extends BaseCheckpointSaver {
  private readonly connection: LazyFawnDb;
  private readonly messageChannels: ReadonlySet<string>;
  private readonly onWrite?: (stat: CheckpointWriteStat) => void;
  /**
   * Each message object's serialized form, so a step serializes and hashes only the messages it added: LangGraph
   * keeps the objects of unchanged messages from step to step and replaces a message (by id) to change it.
   */
  private readonly serialized = new WeakMap<object, SerializedMessage>();
  /** List records by `linkKey`, as stored (see MAX_CACHED_LINKS). */
  private readonly links = new Map<string, MessageListLink>();
  /**
   * The list last put per thread and channel, by `listKey`: the next step's list starts with the same message objects,
   * which then need no look-up, no check and no comparison with the stored list, so a step costs what it appended.
   */
  private readonly lists = new Map<string, ListMemo>();

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
        .map(([channel, version]) => this.prepareValue(threadId, ns, channel, version, values[channel])),
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

    const written: [string, MessageListLink | undefined][] = [];
    const memos: [string, ListMemo][] = [];
    await this.writeAtomically(
      ["checkpoints", "checkpoint_blobs", "checkpoint_messages"],
      async (tx, requests, stats) => {
        const blobs = tx.objectStore("checkpoint_blobs");
        const messages = tx.objectStore("checkpoint_messages");
        const parent = parentId ? await tx.objectStore("checkpoints").get([threadId, ns, parentId]) : undefined;
        for (const value of channels) {
          const key = { thread_id: threadId, checkpoint_ns: ns, channel: value.channel, version: value.version };
          const cacheKey = linkKey(threadId, ns, value.channel, value.version);
          if (value.kind === "value") {
            requests.push(blobs.put({ ...key, kind: "value", type: value.type, bytes: value.bytes }));
            stats.push({ store: "checkpoint_blobs", bytes: value.bytes.byteLength });
            written.push([cacheKey, undefined]);
            continue;
          }
          const parentVersion = parent?.channel_versions[value.channel];
          const chain =
            parentVersion === undefined
              ? undefined
              : await this.readChain(blobs, threadId, ns, value.channel, parentVersion);
          const plan = planMessageList(
            value.refs,
            chain,
            value.extends !== undefined && value.extends === parentVersion,
          );
          const seen = new Set<string>();
          for (const message of value.messages.slice(plan.unstoredFrom)) {
            const [id, hash] = message.ref;
            const refKey = `${id}\u0000${hash}`;
            if (seen.has(refKey)) continue;
            seen.add(refKey);
            if ((await messages.getKey([threadId, id, hash])) !== undefined) continue;
            requests.push(
              messages.put({ thread_id: threadId, message_id: id, hash, type: message.type, bytes: message.bytes }),
            );
            stats.push({ store: "checkpoint_messages", bytes: message.bytes.byteLength });
          }
          requests.push(blobs.put({ ...key, ...plan.record }));
          stats.push({ store: "checkpoint_blobs", bytes: jsonSize(plan.record) });
          written.push([cacheKey, { ...plan.record, version: value.version }]);
          memos.push([
            listKey(threadId, ns, value.channel),
            {
              version: value.version,
              items: [...(values[value.channel] as unknown[])],
              forms: value.messages,
              refs: value.refs,
            },
          ]);
        }
        requests.push(tx.objectStore("checkpoints").put(record));
        stats.push({
          store: "checkpoints",
          bytes: bytes.byteLength + metadataBytes.byteLength + jsonSize(record.channel_versions),
        });
      },
    );
    // Committed: the records are now what IndexedDB holds under these keys.
    for (const [cacheKey, link] of written) {
      if (link) this.cacheLink(cacheKey, link);
      else this.links.delete(cacheKey);
    }
    for (const [key, memo] of memos) {
      this.lists.delete(key);
      this.lists.set(key, memo);
      if (this.lists.size > MAX_LIST_MEMOS) this.lists.delete(this.lists.keys().next().value as string);
    }
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
    const prefix = `${threadId}\u0000`;
    for (const key of [...this.links.keys()]) if (key.startsWith(prefix)) this.links.delete(key);
    for (const key of [...this.lists.keys()]) if (key.startsWith(prefix)) this.lists.delete(key);
  }

  /** Keeps a list record in memory as the most recently used, dropping the least recently used past the limit. */
  private cacheLink(key: string, link: MessageListLink): void {
    this.links.delete(key);
    this.links.set(key, link);
    if (this.links.size > MAX_CACHED_LINKS) this.links.delete(this.links.keys().next().value as string);
  }

  /**
   * Reads the chain of a message list from its tip down to its root, from memory where it can; undefined when it
   * isn't a complete list.
   */
  private async readChain(
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
      const key = linkKey(threadId, ns, channel, next);
      let link = this.links.get(key);
      if (!link) {
        const record: ChannelBlobRecord | undefined = await blobs.get([threadId, ns, channel, next]);
        if (!record || record.kind !== "messages") return undefined;
        link = {
          kind: "messages",
          seq: record.seq,
          len: record.len,
          base: record.base,
          refs: record.refs,
          version: next,
        };
      }
      this.cacheLink(key, link);
      chain.push(link);
      next = link.seq === 0 ? undefined : link.base;
    }
    return chain;
  }

  /**
   * The serialized form this saver made of a message object, if it still fits: the object's id, content and tool calls
   * must be the ones it was serialized from (LangGraph replaces a message to change it; a message edited deeper in
   * place, e.g. inside its content blocks, is not noticed).
   */
  private knownForm(message: BaseMessage & { id: string }): SerializedMessage | undefined {
    const known = this.serialized.get(message);
    return known && this.unchanged(message, known) ? known : undefined;
  }

  /** Whether `message` still has the id, content and tool calls it had when `form` was made of it. */
  private unchanged(message: unknown, form: SerializedMessage | undefined): boolean {
    const fields = message as { id?: unknown; content?: unknown; tool_calls?: unknown };
    return (
      form !== undefined &&
      form.id === fields.id &&
      form.content === fields.content &&
      form.toolCalls === fields.tool_calls
    );
  }

  /** Serializes and hashes a message, and remembers the result for the message object. */
  private async serializeMessage(message: BaseMessage & { id: string }): Promise<SerializedMessage> {
    const [type, bytes] = await this.serde.dumpsTyped(message);
    const serialized: SerializedMessage = {
      id: message.id,
      content: message.content,
      toolCalls: (message as { tool_calls?: unknown }).tool_calls,
      ref: [message.id, hashBytes(bytes)],
      type,
      bytes,
    };
    this.serialized.set(message, serialized);
    return serialized;
  }

  /**
   * Serializes one channel value: a message list message by message (only the messages this saver has not serialized
   * yet, so a step costs what it appended), anything else whole.
   */
  private async prepareValue(
    threadId: string,
    ns: string,
    channel: string,
    version: ChannelVersionKey,
    value: unknown,
  ): Promise<PreparedValue> {
    if (this.messageChannels.has(channel) && Array.isArray(value) && value.length > 0) {
      // The messages the list last put for this channel starts with, when this list still holds the same objects.
      const memo = this.lists.get(listKey(threadId, ns, channel));
      let kept = 0;
      if (memo) {
        const most = Math.min(memo.forms.length, value.length);
        while (kept < most && value[kept] === memo.items[kept] && this.unchanged(value[kept], memo.forms[kept])) {
          kept++;
        }
      }
      const rest: unknown[] = value.slice(kept);
      if (rest.every(isIdentifiedMessage)) {
        const forms: (SerializedMessage | undefined)[] = memo ? memo.forms.slice(0, kept) : [];
        const missing: Promise<void>[] = [];
        for (const message of rest as (BaseMessage & { id: string })[]) {
          const index = forms.length;
          const known = this.knownForm(message);
          forms.push(known);
          if (!known) missing.push(this.serializeMessage(message).then((form) => void (forms[index] = form)));
        }
        await Promise.all(missing);
        const refs = memo ? memo.refs.slice(0, kept) : [];
        for (let index = kept; index < forms.length; index++) refs.push((forms[index] as SerializedMessage).ref);
        return {
          channel,
          version,
          kind: "messages",
          messages: forms as SerializedMessage[],
          refs,
          ...(memo && kept === memo.forms.length && { extends: memo.version }),
        };
      }
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
      const chain = await this.readChain(blobs, threadId, ns, channel, version);
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

  /** A stored message as an object, remembered as serialized (a put of the same object does not serialize it again). */
  private async loadMessage(record: CheckpointMessageRecord): Promise<unknown> {
    const message: unknown = await this.serde.loadsTyped(record.type, record.bytes);
    if (isBaseMessage(message) && message.id === record.message_id) {
      this.serialized.set(message, {
        id: record.message_id,
        content: message.content,
        toolCalls: (message as { tool_calls?: unknown }).tool_calls,
        ref: [record.message_id, record.hash],
        type: record.type,
        bytes: record.bytes,
      });
    }
    return message;
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
          : await Promise.all(value.messages.map((message) => this.loadMessage(message)));
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
