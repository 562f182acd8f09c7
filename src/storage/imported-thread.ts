// A thread that came from elsewhere (a `.fawn`, a share link, a backup), made safe to store before it is written: its
// history is marked as written elsewhere, its runs as not this browser's, and a tool call its shown step left without
// a result is closed as cancelled, in a new checkpoint laid out as IndexedDbCheckpointSaver lays one out. Another
// model's calls never run here: "Continue" resumes only runs this browser made, from checkpoints it wrote.
import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { emptyCheckpoint, type CheckpointMetadata, type SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { CANCELLED_ON_IMPORT, unansweredToolCalls, type ToolCallsMessage } from "../protocol/index.ts";
import { newId } from "../shared/ids.ts";
import type { ThreadBackup } from "./backup-store.ts";
import type {
  ChannelBlobRecord,
  ChannelVersionKey,
  CheckpointMessageRecord,
  CheckpointRecord,
  MessageListBlob,
  MessageRef,
} from "./fawn-db.ts";
import { nextChannelVersion, rootCheckpointRecord } from "./indexeddb-checkpoint-saver.ts";
import { hashBytes, isCompleteChain, isIdentifiedMessage, planMessageList, refsOfChain } from "./message-delta.ts";

const MESSAGES = "messages";

/** Channels that only route the graph (`branch:to:…`, `__start__`): a closing checkpoint carries none, so nothing is pending. */
function routesOnly(channel: string): boolean {
  return channel.startsWith("branch:") || channel.startsWith("__");
}

const versionKey = (channel: string, version: ChannelVersionKey) => `${channel}\u0000${typeof version}:${version}`;

/** The stored thread's values at one checkpoint, read from its records in memory. */
class ImportedHistory {
  private readonly blobs = new Map<string, ChannelBlobRecord>();
  private readonly messages = new Map<string, CheckpointMessageRecord>();

  constructor(
    records: ThreadBackup,
    private readonly serde: SerializerProtocol,
  ) {
    for (const blob of records.checkpoint_blobs) {
      if (blob.checkpoint_ns === "") this.blobs.set(versionKey(blob.channel, blob.version), blob);
    }
    for (const message of records.checkpoint_messages) {
      this.messages.set(`${message.message_id}\u0000${message.hash}`, message);
    }
  }

  blob(channel: string, version: ChannelVersionKey | undefined): ChannelBlobRecord | undefined {
    return version === undefined ? undefined : this.blobs.get(versionKey(channel, version));
  }

  /** The message list at `version`: its messages, and their refs when it is stored one message per record. */
  async messageList(
    version: ChannelVersionKey | undefined,
  ): Promise<{ messages: unknown[]; refs?: MessageRef[] } | undefined> {
    const tip = this.blob(MESSAGES, version);
    if (!tip) return undefined;
    if (tip.kind === "value") {
      const value: unknown = await this.serde.loadsTyped(tip.type, tip.bytes);
      return Array.isArray(value) ? { messages: value } : undefined;
    }
    const chain: MessageListBlob[] = [tip];
    for (let link: MessageListBlob = tip; link.seq !== 0 && chain.length <= 64;) {
      const base = this.blob(MESSAGES, link.base);
      if (base?.kind !== "messages") return undefined;
      chain.push(base);
      link = base;
    }
    if (!isCompleteChain(chain)) return undefined;
    const refs = refsOfChain(chain);
    const messages: unknown[] = [];
    for (const [id, hash] of refs) {
      const record = this.messages.get(`${id}\u0000${hash}`);
      if (!record) return undefined;
      messages.push(await this.serde.loadsTyped(record.type, record.bytes));
    }
    return { messages, refs };
  }
}

interface Closing {
  checkpoint: CheckpointRecord;
  blobs: ChannelBlobRecord[];
  messages: CheckpointMessageRecord[];
}

/** A child of `parent` holding its state with each of `calls` answered as cancelled; undefined when none is open. */
async function closingCheckpoint(
  parent: CheckpointRecord,
  history: ImportedHistory,
  serde: SerializerProtocol,
): Promise<Closing | undefined> {
  const version = parent.channel_versions[MESSAGES];
  const list = await history.messageList(version);
  if (!list) return undefined;
  const calls = unansweredToolCalls(list.messages.filter(isToolCallsMessage));
  if (calls.length === 0) return undefined;

  const threadId = parent.thread_id;
  const results = calls.map(
    (call) =>
      new ToolMessage({
        id: newId(),
        content: CANCELLED_ON_IMPORT,
        tool_call_id: call.id,
        name: call.name,
        status: "error",
      }),
  );
  const checkpoint = emptyCheckpoint();
  for (const [channel, channelVersion] of Object.entries(parent.channel_versions)) {
    if (channel !== MESSAGES && !routesOnly(channel) && history.blob(channel, channelVersion)) {
      checkpoint.channel_versions[channel] = channelVersion;
    }
  }
  const newVersion = nextChannelVersion(version);
  checkpoint.channel_versions[MESSAGES] = newVersion;
  const key = { thread_id: threadId, checkpoint_ns: "", channel: MESSAGES, version: newVersion };
  const blobs: ChannelBlobRecord[] = [];
  const messages: CheckpointMessageRecord[] = [];
  if (list.refs && results.every(isIdentifiedMessage)) {
    const added = await Promise.all(
      results.map(async (message): Promise<CheckpointMessageRecord> => {
        const [type, bytes] = await serde.dumpsTyped(message);
        return { thread_id: threadId, message_id: message.id as string, hash: hashBytes(bytes), type, bytes };
      }),
    );
    messages.push(...added);
    const refs: MessageRef[] = [...list.refs, ...added.map((record): MessageRef => [record.message_id, record.hash])];
    blobs.push({ ...key, ...planMessageList(refs).record });
  } else {
    const [type, bytes] = await serde.dumpsTyped([...list.messages, ...results]);
    blobs.push({ ...key, kind: "value", type, bytes });
  }

  const parentMetadata = (await serde.loadsTyped(parent.metadata_type, parent.metadata).catch(() => ({}))) as {
    step?: unknown;
  };
  const step = typeof parentMetadata.step === "number" ? parentMetadata.step + 1 : 0;
  const metadata: CheckpointMetadata = { source: "update", step, parents: {} };
  return {
    checkpoint: await rootCheckpointRecord(serde, threadId, checkpoint, metadata, {
      parent_checkpoint_id: parent.checkpoint_id,
      imported: true,
    }),
    blobs,
    messages,
  };
}

function isToolCallsMessage(value: unknown): value is ToolCallsMessage & BaseMessage {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

/**
 * The records of a thread from elsewhere, ready to store: every checkpoint marked `imported`, every run marked
 * `imported` (and a run still marked running, interrupted), and the tool calls left without a result at the step the
 * thread shows, or at a version's last step, answered as cancelled (CANCELLED_ON_IMPORT, status "error") in a new
 * checkpoint that leaves nothing pending; the thread and the runs that ended there move to it.
 */
export async function closeImportedThread(records: ThreadBackup, serde: SerializerProtocol): Promise<ThreadBackup> {
  const history = new ImportedHistory(records, serde);
  const checkpoints: CheckpointRecord[] = records.checkpoints.map((record) => ({ ...record, imported: true }));
  const root = checkpoints.filter((record) => record.checkpoint_ns === "");
  const byId = new Map(root.map((record) => [record.checkpoint_id, record]));
  const latest = (ids: Iterable<string>) =>
    [...ids].reduce<string | undefined>((max, id) => (max === undefined || id > max ? id : max), undefined);
  const head = records.thread.head ?? latest(byId.keys());

  // The steps a reader can be shown: the thread's, and the last of each run's version that no later turn follows.
  const bases = new Set(records.runs.flatMap((run) => (run.base === undefined ? [] : [run.base])));
  const ends = records.runs.flatMap((run) => (run.end === undefined || bases.has(run.end) ? [] : [run.end]));
  const targets = [...new Set([...(head === undefined ? [] : [head]), ...ends])];
  const closed = new Map<string, string>();
  const blobs = [...records.checkpoint_blobs];
  const messages = [...records.checkpoint_messages];
  for (const id of targets) {
    const parent = byId.get(id);
    if (!parent) continue;
    const closing = await closingCheckpoint(parent, history, serde);
    if (!closing) continue;
    closed.set(id, closing.checkpoint.checkpoint_id);
    checkpoints.push(closing.checkpoint);
    blobs.push(...closing.blobs);
    messages.push(...closing.messages);
  }

  const runs = records.runs.map((run) => {
    const end = run.end !== undefined && !bases.has(run.end) ? (closed.get(run.end) ?? run.end) : run.end;
    return {
      ...run,
      ...(end !== undefined && { end }),
      status: run.status === "running" ? ("interrupted" as const) : run.status,
      imported: true,
    };
  });
  const shown = head === undefined ? undefined : (closed.get(head) ?? head);
  const newest = latest(checkpoints.filter((record) => record.checkpoint_ns === "").map((r) => r.checkpoint_id));
  const { head: _head, ...thread } = records.thread;
  return {
    ...records,
    thread: shown !== undefined && shown !== newest ? { ...thread, head: shown } : thread,
    runs,
    checkpoints,
    checkpoint_blobs: blobs,
    checkpoint_messages: messages,
  };
}

/**
 * The channel values of the thread's root-namespace checkpoint `checkpointId` (its newest when undefined), read from
 * its records in memory as IndexedDbCheckpointSaver reads them from storage: a shared thread shows from these before
 * it is imported. Undefined when there is no such checkpoint; a channel whose records are incomplete is left out.
 */
export async function checkpointValuesOf(
  records: ThreadBackup,
  serde: SerializerProtocol,
  checkpointId?: string,
): Promise<Record<string, unknown> | undefined> {
  const root = records.checkpoints.filter((record) => record.checkpoint_ns === "");
  const checkpoint =
    checkpointId === undefined
      ? root.reduce<CheckpointRecord | undefined>(
          (newest, record) => (!newest || record.checkpoint_id > newest.checkpoint_id ? record : newest),
          undefined,
        )
      : root.find((record) => record.checkpoint_id === checkpointId);
  if (!checkpoint) return undefined;
  const history = new ImportedHistory(records, serde);
  const values: Record<string, unknown> = {};
  for (const [channel, version] of Object.entries(checkpoint.channel_versions)) {
    const blob = history.blob(channel, version);
    if (!blob) continue;
    if (blob.kind === "value") values[channel] = await serde.loadsTyped(blob.type, blob.bytes);
    else if (channel === MESSAGES) {
      const list = await history.messageList(version);
      if (list) values[channel] = list.messages;
    }
  }
  return values;
}
