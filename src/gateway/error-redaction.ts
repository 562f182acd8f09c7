// A failed step's error as LangGraph keeps it, a pending write on channel `__error__`, may quote a key a provider
// echoed back. It is redacted before it is stored (the checkpointer a run uses) and, for threads stored before that,
// again before a thread leaves in a backup or a .fawn (docs/architecture.md#d6-models-and-keys).
import {
  ERROR,
  JsonPlusSerializer,
  type BaseCheckpointSaver,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";
import type { ThreadBackup } from "../storage/index.ts";

type Redact = (text: string) => string;

/** Every string inside `value` redacted. */
function redactedValue(value: unknown, redact: Redact): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactedValue(item, redact));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactedValue(item, redact)]));
}

/** The checkpointer, with the error of a failed step redacted before it is stored. */
export function redactingErrors(checkpointer: BaseCheckpointSaver, redact: Redact): BaseCheckpointSaver {
  const wrapped = Object.create(checkpointer) as BaseCheckpointSaver;
  wrapped.putWrites = (config, writes, taskId, ...rest: unknown[]) =>
    (checkpointer.putWrites as (...args: unknown[]) => Promise<void>).call(
      checkpointer,
      config,
      writes.map(([channel, value]): PendingWrite => [
        channel,
        channel === ERROR ? redactedValue(value, redact) : value,
      ]),
      taskId,
      ...rest,
    );
  return wrapped;
}

const serde = new JsonPlusSerializer();

/** The thread's records with every stored step error redacted (records without one are returned as they are). */
export async function withErrorsRedacted(records: ThreadBackup, redact: Redact): Promise<ThreadBackup> {
  if (!records.checkpoint_writes.some((write) => write.channel === ERROR)) return records;
  const writes = await Promise.all(
    records.checkpoint_writes.map(async (write) => {
      if (write.channel !== ERROR) return write;
      const [type, bytes] = await serde.dumpsTyped(
        redactedValue(await serde.loadsTyped(write.type, write.bytes), redact),
      );
      return { ...write, type, bytes };
    }),
  );
  return { ...records, checkpoint_writes: writes };
}
