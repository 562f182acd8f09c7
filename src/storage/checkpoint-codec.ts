// The storage-agnostic half of Fawn's checkpointer (docs/architecture.md#d2-storage): how checkpoints, channel values
// and messages become records and back. Message lists are stored one message per record (message-delta.ts); what is
// kept in memory is only what cannot go stale: the serialized form of message objects and the list records of
// versions, which are never rewritten (versions are unique). IndexedDbCheckpointSaver and MemoryCheckpointSaver store
// these records, each in its own way, so a thread moves between them unchanged.
import { isBaseMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  TASKS,
  compareWritesSortKeys,
  maxChannelVersion,
  writesSortKey,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import type {
  CHECKPOINT_STORES,
  ChannelBlobRecord,
  ChannelVersionKey,
  CheckpointMessageRecord,
  CheckpointRecord,
  CheckpointWriteRecord,
  MessageRef,
} from "./fawn-db.ts";
import { recordCheckpointDecode } from "./checkpoint-decodes.ts";
import { linkKey, listKey, nextChannelVersion } from "./checkpoint-keys.ts";
import { hashBytes, isIdentifiedMessage, planMessageList, type MessageListLink } from "./message-delta.ts";

export type CheckpointStoreName = (typeof CHECKPOINT_STORES)[number];

/** One record the saver wrote, with the size of its serialized payload (keys not counted). */
export interface CheckpointWriteStat {
  store: CheckpointStoreName;
  bytes: number;
}

export type BlobKey = [string, string, string, ChannelVersionKey];

/** The reading side of the blob store, as both readonly and readwrite transactions offer it. */
export interface BlobReader {
  get(key: BlobKey): Promise<ChannelBlobRecord | undefined>;
}

/** What reading a checkpoint's details needs from the store, inside one read (see CheckpointCodec.readDetails). */
export interface CheckpointReader extends BlobReader {
  message(key: [threadId: string, messageId: string, hash: string]): Promise<CheckpointMessageRecord | undefined>;
  /** The pending writes of one checkpoint, in any order. */
  writes(threadId: string, ns: string, checkpointId: string): Promise<CheckpointWriteRecord[]>;
}

/** What planning a put needs from the store, inside its transaction (see CheckpointCodec.planChannels). */
export interface ChannelPlanReader extends BlobReader {
  hasMessage(key: [threadId: string, messageId: string, hash: string]): Promise<boolean>;
}

/** A record a put writes besides its checkpoint, in the order it is written, with its stat. */
export type PlannedRecord =
  | { store: "checkpoint_blobs"; record: ChannelBlobRecord; bytes: number }
  | { store: "checkpoint_messages"; record: CheckpointMessageRecord; bytes: number };

/** The records of a put's channel values, and what the codec remembers once they are committed (`remember`). */
export interface ChannelPlan {
  records: PlannedRecord[];
  written: [string, MessageListLink | undefined][];
  memos: [string, ListMemo][];
}

/** A channel value as read inside a transaction, before the serde turns it back into objects. */
export type RawValue =
  { kind: "value"; type: string; bytes: Uint8Array } | { kind: "messages"; messages: CheckpointMessageRecord[] };

export interface RawTuple {
  record: CheckpointRecord;
  values: [string, RawValue][];
  writes: CheckpointWriteRecord[];
  /** TASKS writes of the parent checkpoint, for checkpoints older than format v4. */
  parentSends?: CheckpointWriteRecord[];
}

/** A message serialized by this saver's serde, and what it was serialized from (see `serializeMessage`). */
export interface SerializedMessage {
  id: string;
  content: unknown;
  toolCalls: unknown;
  /** `[id, hash of bytes]`, the message's key in `checkpoint_messages` (with the thread id). */
  ref: MessageRef;
  type: string;
  bytes: Uint8Array;
}

/** A channel value serialized before the put transaction opens (the serde is async; transactions are not). */
export type PreparedValue =
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
export interface ListMemo {
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
export const MAX_LIST_MEMOS = 8;

/** The size of a record written as JSON, for write stats. */
export function jsonSize(value: unknown): number {
  return JSON.stringify(value).length;
}

/** Turns checkpoints into records and back, remembering what cannot go stale (see the header). */
export class CheckpointCodec {
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
  private readonly messageChannels: ReadonlySet<string>;

  constructor(
    private readonly serde: SerializerProtocol,
    messageChannels: readonly string[] = ["messages"],
  ) {
    this.messageChannels = new Set(messageChannels);
  }

  /** Keeps a list record in memory as the most recently used, dropping the least recently used past the limit. */
  cacheLink(key: string, link: MessageListLink): void {
    this.links.delete(key);
    this.links.set(key, link);
    if (this.links.size > MAX_CACHED_LINKS) this.links.delete(this.links.keys().next().value as string);
  }

  /**
   * Reads the chain of a message list from its tip down to its root, from memory where it can; undefined when it
   * isn't a complete list.
   */
  async readChain(
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
  knownForm(message: BaseMessage & { id: string }): SerializedMessage | undefined {
    const known = this.serialized.get(message);
    return known && this.unchanged(message, known) ? known : undefined;
  }

  /** Whether `message` still has the id, content and tool calls it had when `form` was made of it. */
  unchanged(message: unknown, form: SerializedMessage | undefined): boolean {
    const fields = message as { id?: unknown; content?: unknown; tool_calls?: unknown };
    return (
      form !== undefined &&
      form.id === fields.id &&
      form.content === fields.content &&
      form.toolCalls === fields.tool_calls
    );
  }

  /** Serializes and hashes a message, and remembers the result for the message object. */
  async serializeMessage(message: BaseMessage & { id: string }): Promise<SerializedMessage> {
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
  async prepareValue(
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

  /**
   * Reads a checkpoint's channel values, pending writes and (for old formats) its parent's sends through `reader`,
   * which a store answers from one read transaction.
   */
  async readDetails(reader: CheckpointReader, record: CheckpointRecord): Promise<RawTuple> {
    const { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: id, parent_checkpoint_id: parentId } = record;
    const readValue = async ([channel, version]: [string, ChannelVersionKey]): Promise<
      [string, RawValue] | undefined
    > => {
      const blob = await reader.get([threadId, ns, channel, version]);
      if (!blob) return undefined;
      if (blob.kind === "value") return [channel, { kind: "value", type: blob.type, bytes: blob.bytes }];
      const chain = await this.readChain(reader, threadId, ns, channel, version);
      if (!chain) throw new Error(`Checkpoint storage is damaged: message list ${channel}@${version} is incomplete.`);
      const refs: MessageRef[] = [];
      for (let i = chain.length - 1; i >= 0; i--) refs.push(...(chain[i] as MessageListLink).refs);
      const found = await Promise.all(refs.map(([messageId, hash]) => reader.message([threadId, messageId, hash])));
      if (found.some((message) => message === undefined)) {
        throw new Error(`Checkpoint storage is damaged: a message of ${channel}@${version} is missing.`);
      }
      return [channel, { kind: "messages", messages: found as CheckpointMessageRecord[] }];
    };
    const [values, writes, parentWrites] = await Promise.all([
      Promise.all(Object.entries(record.channel_versions).map(readValue)),
      reader.writes(threadId, ns, id),
      record.v < 4 && parentId !== undefined ? reader.writes(threadId, ns, parentId) : undefined,
    ]);
    return {
      record,
      values: values.filter((value) => value !== undefined),
      writes: sortWrites(writes),
      ...(parentWrites ? { parentSends: sortWrites(parentWrites).filter((write) => write.channel === TASKS) } : {}),
    };
  }

  /**
   * The records a put writes for its channel values, in order, read against the store through `reader` inside the
   * put's transaction: a message list is stored as a delta of its parent checkpoint's list where it extends it, and a
   * message already stored (by id and content hash) is not written again.
   */
  async planChannels(
    reader: ChannelPlanReader,
    threadId: string,
    ns: string,
    parent: CheckpointRecord | undefined,
    channels: readonly PreparedValue[],
    values: Record<string, unknown>,
  ): Promise<ChannelPlan> {
    const plan: ChannelPlan = { records: [], written: [], memos: [] };
    const seen = new Set<string>();
    for (const value of channels) {
      const key = { thread_id: threadId, checkpoint_ns: ns, channel: value.channel, version: value.version };
      const cacheKey = linkKey(threadId, ns, value.channel, value.version);
      if (value.kind === "value") {
        const record: ChannelBlobRecord = { ...key, kind: "value", type: value.type, bytes: value.bytes };
        plan.records.push({ store: "checkpoint_blobs", record, bytes: value.bytes.byteLength });
        plan.written.push([cacheKey, undefined]);
        continue;
      }
      const parentVersion = parent?.channel_versions[value.channel];
      const chain =
        parentVersion === undefined
          ? undefined
          : await this.readChain(reader, threadId, ns, value.channel, parentVersion);
      const list = planMessageList(value.refs, chain, value.extends !== undefined && value.extends === parentVersion);
      for (const message of value.messages.slice(list.unstoredFrom)) {
        const [id, hash] = message.ref;
        const refKey = `${id}\u0000${hash}`;
        if (seen.has(refKey)) continue;
        seen.add(refKey);
        if (await reader.hasMessage([threadId, id, hash])) continue;
        plan.records.push({
          store: "checkpoint_messages",
          record: { thread_id: threadId, message_id: id, hash, type: message.type, bytes: message.bytes },
          bytes: message.bytes.byteLength,
        });
      }
      plan.records.push({
        store: "checkpoint_blobs",
        record: { ...key, ...list.record },
        bytes: jsonSize(list.record),
      });
      plan.written.push([cacheKey, { ...list.record, version: value.version }]);
      plan.memos.push([
        listKey(threadId, ns, value.channel),
        {
          version: value.version,
          items: [...(values[value.channel] as unknown[])],
          forms: value.messages,
          refs: value.refs,
        },
      ]);
    }
    return plan;
  }

  /** Remembers what a put wrote, once its transaction committed: the records are now what the store holds. */
  remember(plan: ChannelPlan): void {
    for (const [cacheKey, link] of plan.written) {
      if (link) this.cacheLink(cacheKey, link);
      else this.links.delete(cacheKey);
    }
    for (const [key, memo] of plan.memos) {
      this.lists.delete(key);
      this.lists.set(key, memo);
      if (this.lists.size > MAX_LIST_MEMOS) this.lists.delete(this.lists.keys().next().value as string);
    }
  }

  /** Forgets what is remembered of a deleted thread. */
  forgetThread(threadId: string): void {
    const prefix = `${threadId}\u0000`;
    for (const key of [...this.links.keys()]) if (key.startsWith(prefix)) this.links.delete(key);
    for (const key of [...this.lists.keys()]) if (key.startsWith(prefix)) this.lists.delete(key);
  }

  /** A stored message as an object, remembered as serialized (a put of the same object does not serialize it again). */
  async loadMessage(record: CheckpointMessageRecord): Promise<unknown> {
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

  /** The checkpoint as objects: every channel value and message revived by the serde (a decode, counted). */
  async toTuple(raw: RawTuple, config?: RunnableConfig, metadata?: CheckpointMetadata): Promise<CheckpointTuple> {
    const start = globalThis.performance?.now() ?? 0;
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
        versions.length > 0 ? maxChannelVersion(...versions) : (nextChannelVersion(undefined) as unknown as number);
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
    recordCheckpointDecode(start, {
      thread_id: record.thread_id,
      checkpoint_id: record.checkpoint_id,
      messages: raw.values.reduce(
        (count, [, value]) => count + (value.kind === "messages" ? value.messages.length : 0),
        0,
      ),
    });
    return tuple;
  }
}

/** Pending writes in the order live execution applies them: (task_path, task_id, idx). */
export function sortWrites(writes: CheckpointWriteRecord[]): CheckpointWriteRecord[] {
  return writes
    .map((write) => ({ write, key: writesSortKey(write.task_path, write.task_id, write.idx) }))
    .sort((a, b) => compareWritesSortKeys(a.key, b.key))
    .map(({ write }) => write);
}
