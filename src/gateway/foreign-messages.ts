// Every message a stored thread holds, by id, wherever its records keep it (one record per message, a channel value,
// a pending write, a checkpoint, a note): what "Continue this thread" marks as another person's.
import { isBaseMessage } from "@langchain/core/messages";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import type { ThreadBackup } from "../storage/index.ts";

const serde = new JsonPlusSerializer();

/** The most values one walk looks at: a thread's records are bounded by the bundle limits long before this. */
const MAX_VISITED = 5_000_000;

/** Adds the id of every message in `value` (at any depth of arrays and plain objects) to `ids`. */
function collect(value: unknown, ids: Set<string>, seen: Set<object>): void {
  const stack: unknown[] = [value];
  while (stack.length > 0 && seen.size < MAX_VISITED) {
    const next = stack.pop();
    if (typeof next !== "object" || next === null || seen.has(next)) continue;
    seen.add(next);
    if (isBaseMessage(next)) {
      if (typeof next.id === "string") ids.add(next.id);
      continue;
    }
    if (next instanceof Uint8Array) continue;
    stack.push(...(Array.isArray(next) ? next : Object.values(next)));
  }
}

/** The ids of every message in the thread's records: all of its versions, its pending writes and its stored notes. */
export async function storedMessageIds(records: ThreadBackup): Promise<string[]> {
  const ids = new Set<string>();
  const seen = new Set<object>();
  const typed: [string, Uint8Array][] = [
    ...records.checkpoints.map((record): [string, Uint8Array] => [record.type, record.checkpoint]),
    ...records.checkpoint_blobs.flatMap((blob): [string, Uint8Array][] =>
      blob.kind === "value" ? [[blob.type, blob.bytes]] : [],
    ),
    ...records.checkpoint_writes.map((write): [string, Uint8Array] => [write.type, write.bytes]),
    ...records.checkpoint_messages.map((message): [string, Uint8Array] => [message.type, message.bytes]),
  ];
  for (const [type, bytes] of typed) collect(await serde.loadsTyped(type, bytes), ids, seen);
  for (const record of records.checkpoint_messages) ids.add(record.message_id);
  for (const record of records.entries) {
    const entry = record.entry as { kind?: unknown; message?: { id?: unknown } };
    if (entry.kind === "message" && typeof entry.message?.id === "string") ids.add(entry.message.id);
  }
  return [...ids];
}
