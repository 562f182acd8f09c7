// What the user sees of a thread: its messages (from the latest checkpoint) with the notes kept beside them.
import type { ThreadEntry, WireMessage } from "../protocol/index.ts";
import type { StoredEntry } from "../storage/index.ts";

/**
 * Merges stored entries and the checkpoint's messages into the thread's history, in order. Without a checkpoint
 * (threads from before checkpoints) the stored entries are the history. With one, stored message entries are the
 * same messages the first checkpointed run was seeded with, so only their errors and stopped marks are kept, each
 * placed after as many messages as preceded it.
 */
export function composeHistory(
  stored: readonly StoredEntry[],
  messages: readonly WireMessage[] | undefined,
): ThreadEntry[] {
  if (messages === undefined) {
    return stored.filter((entry): entry is ThreadEntry => entry.kind === "message" || entry.kind === "error");
  }
  const errorsAfter = new Map<number, ThreadEntry[]>();
  const stopped = new Set<string>();
  let seen = 0;
  for (const entry of stored) {
    if (entry.kind === "message") {
      seen++;
      if (entry.stopped) stopped.add(entry.message.id);
    } else if (entry.kind === "stopped") {
      stopped.add(entry.message_id);
    } else if (entry.kind === "feedback") {
      continue; // Ratings are read on their own (feedbackOf), never shown as entries.
    } else if (entry.kind === "sandbox-command") {
      continue; // The sandbox log is read on its own (threads.sandboxLog), never shown in the conversation.
    } else {
      const after = entry.kind === "run-error" ? entry.after : seen;
      const error: ThreadEntry = { kind: "error", id: entry.id, error: entry.error, at: entry.at };
      errorsAfter.set(after, [...(errorsAfter.get(after) ?? []), error]);
    }
  }
  const history: ThreadEntry[] = [];
  messages.forEach((message, index) => {
    history.push(...(errorsAfter.get(index) ?? []));
    history.push(stopped.has(message.id) ? { kind: "message", message, stopped: true } : { kind: "message", message });
  });
  for (const [after, errors] of [...errorsAfter].sort(([a], [b]) => a - b)) {
    if (after >= messages.length) history.push(...errors);
  }
  return history;
}
