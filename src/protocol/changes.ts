// Cross-tab change notices on a BroadcastChannel: the worker that changed data says so, every tab's UI listens.

export const CHANGES_CHANNEL = "fawn-changes";

export type ChangeNotice =
  | { type: "thread-changed"; thread_id: string }
  | { type: "thread-deleted"; thread_id: string }
  /** Many threads came or went at once (a backup imported, all data deleted): list them all again. */
  | { type: "threads-replaced" }
  | { type: "settings-changed" }
  /** The long-term memory changed (an update learned from a run, or an edit in another tab). */
  | { type: "memory-changed" };

export function isChangeNotice(value: unknown): value is ChangeNotice {
  if (typeof value !== "object" || value === null) return false;
  const notice = value as { type?: unknown; thread_id?: unknown };
  if (notice.type === "settings-changed" || notice.type === "memory-changed" || notice.type === "threads-replaced") {
    return true;
  }
  return (notice.type === "thread-changed" || notice.type === "thread-deleted") && typeof notice.thread_id === "string";
}
