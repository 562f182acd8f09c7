// What both of Fawn's checkpointers (IndexedDB and memory) do before they write: LangGraph's config checks, the
// checkpoint record and its channel values serialized (put), the pending-write records (putWrites). Each saver then
// writes them in one transaction of its own kind.
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  WRITES_IDX_MAP,
  copyCheckpoint,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointMetadata,
  type PendingWrite,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import type { CheckpointCodec, PreparedValue } from "./checkpoint-codec.ts";
import { assertStringKey, MISSING_THREAD_ID } from "./checkpoint-keys.ts";
import type { CheckpointRecord, CheckpointWriteRecord } from "./fawn-db.ts";

/** A checkpoint ready to write: its keys, its record (without channel values) and its changed channels serialized. */
export interface PreparedPut {
  threadId: string;
  ns: string;
  parentId: string | undefined;
  record: CheckpointRecord;
  values: Checkpoint["channel_values"];
  channels: PreparedValue[];
}

/** Checks `put`'s config and serializes the checkpoint and the channels in `newVersions` that hold a value. */
export async function preparePut(
  serde: SerializerProtocol,
  codec: CheckpointCodec,
  config: RunnableConfig,
  checkpoint: Checkpoint,
  metadata: CheckpointMetadata,
  newVersions: ChannelVersions,
): Promise<PreparedPut> {
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
    serde.dumpsTyped({ ...prepared, channel_values: {} }),
    serde.dumpsTyped(metadata),
  ]);
  const channels: PreparedValue[] = await Promise.all(
    Object.entries(newVersions)
      .filter(([channel]) => Object.prototype.hasOwnProperty.call(values, channel) && values[channel] !== undefined)
      .map(([channel, version]) => codec.prepareValue(threadId, ns, channel, version, values[channel])),
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
  return { threadId, ns, parentId: parentId || undefined, record, values, channels };
}

/** Checks `putWrites`' config and serializes the writes, each with LangGraph's index (special channels' fixed ones). */
export async function prepareWrites(
  serde: SerializerProtocol,
  config: RunnableConfig,
  writes: PendingWrite[],
  taskId: string,
  taskPath?: string,
): Promise<{ threadId: string; ns: string; checkpointId: string; records: CheckpointWriteRecord[] }> {
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
  const records = await Promise.all(
    writes.map(async ([channel, value], idx): Promise<CheckpointWriteRecord> => {
      const [type, bytes] = await serde.dumpsTyped(value);
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
  return { threadId, ns, checkpointId, records };
}
