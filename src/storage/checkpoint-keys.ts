// The keys and checks Fawn's checkpointers share (checkpoint-codec.ts): string channel versions unique across forks,
// LangGraph's config checks with its own messages, and the record of a checkpoint written outside a run (an import).
import type { Checkpoint, CheckpointMetadata, SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { ChannelVersionKey, CheckpointRecord } from "./fawn-db.ts";

export const MISSING_THREAD_ID =
  'The passed RunnableConfig is missing a required "thread_id" field in its "configurable" property. When using a ' +
  'checkpointer, you must pass a "thread_id" so the checkpointer knows which conversation thread to persist state ' +
  'for. Example: graph.stream(input, { configurable: { thread_id: "my-thread-id" } })';

export function assertStringKey(field: string, value: unknown, allowEmpty = false): asserts value is string {
  if (typeof value !== "string" || (!allowEmpty && value === "")) {
    throw new Error(`Invalid configurable value for key "${field}": expected a non-empty string identifier.`);
  }
}

/** The in-memory key of a thread's channel (ListMemo). */
export function listKey(threadId: string, ns: string, channel: string): string {
  return `${threadId}\u0000${ns}\u0000${channel}`;
}

/** The in-memory key of a list record: its IndexedDB key as one string. */
export function linkKey(threadId: string, ns: string, channel: string, version: ChannelVersionKey): string {
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
