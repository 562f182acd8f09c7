// The feedback domain (`gateway.feedback`): "Good reply" / "Bad reply" on a reply, with an optional comment, kept
// with the thread as history notes (a message's last note wins; a note without a rating takes it back), so a backup
// carries it with its thread. DeerFlow keeps one rating per run; Fawn keys it by the reply's message id, and the
// routes (http/feedback-routes.ts) find a run's reply.
import {
  FEEDBACK_COMMENT_MAX,
  isFeedbackRating,
  type ChangeNotice,
  type FeedbackApi,
  type FeedbackCounts,
  type FeedbackInput,
  type MessageFeedback,
  type ThreadDetail,
} from "../protocol/index.ts";
import { newId } from "../shared/ids.ts";
import { UserError } from "../shared/user-error.ts";
import type { StoredEntry, ThreadStorage } from "../storage/index.ts";
import { writing } from "./writes.ts";

type FeedbackNote = Extract<StoredEntry, { kind: "feedback" }>;

/** Each rated reply's feedback, from the thread's notes: the last note of a message wins, in the order given. */
export function feedbackOf(entries: readonly StoredEntry[]): Map<string, MessageFeedback> {
  const feedback = new Map<string, MessageFeedback>();
  for (const entry of entries) {
    if (entry.kind !== "feedback") continue;
    feedback.delete(entry.message_id);
    if (entry.rating === null) continue;
    feedback.set(entry.message_id, {
      message_id: entry.message_id,
      rating: entry.rating,
      ...(entry.comment !== undefined && { comment: entry.comment }),
      at: entry.at,
    });
  }
  return feedback;
}

/**
 * A thread's records without its ratings: a `.fawn` (a share link, Copy to…) carries the thread, not what its owner
 * told Fawn of its replies; a backup keeps them.
 */
export function withoutFeedback<T extends { entries: readonly { entry: StoredEntry }[] }>(records: T): T {
  return { ...records, entries: records.entries.filter((record) => record.entry.kind !== "feedback") };
}

/** The comment as kept (trimmed; empty is none), or the sentence refusing it. */
function cleanComment(comment: unknown): string | undefined {
  if (comment === undefined || comment === null) return undefined;
  if (typeof comment !== "string") throw new UserError("A feedback comment is text.");
  const trimmed = comment.trim();
  if (trimmed.length > FEEDBACK_COMMENT_MAX) {
    throw new UserError(`A feedback comment is at most ${FEEDBACK_COMMENT_MAX} characters.`);
  }
  return trimmed.length > 0 ? trimmed : undefined;
}

export interface FeedbackServiceOptions {
  threads: ThreadStorage;
  /** The thread as it shows (ThreadsService.get): a rated message must be one of its replies. */
  detail: (threadId: string) => Promise<ThreadDetail | undefined>;
  notify: (notice: ChangeNotice) => void;
}

export class FeedbackService implements FeedbackApi {
  constructor(private readonly options: FeedbackServiceOptions) {}

  async set(threadId: string, messageId: string, input: FeedbackInput): Promise<MessageFeedback> {
    if (!isFeedbackRating(input?.rating)) throw new UserError("A reply is rated 1 (good) or -1 (bad).");
    const comment = cleanComment(input.comment);
    await this.reply(threadId, messageId);
    const note: FeedbackNote = {
      kind: "feedback",
      id: newId(),
      message_id: messageId,
      rating: input.rating,
      ...(comment !== undefined && { comment }),
      at: Date.now(),
    };
    await this.write(threadId, note);
    return { message_id: messageId, rating: input.rating, ...(comment !== undefined && { comment }), at: note.at };
  }

  async clear(threadId: string, messageId: string): Promise<void> {
    const entries = await this.entries(threadId);
    if (!feedbackOf(entries).has(messageId)) return;
    await this.write(threadId, { kind: "feedback", id: newId(), message_id: messageId, rating: null, at: Date.now() });
  }

  async list(threadId: string): Promise<MessageFeedback[]> {
    return [...feedbackOf(await this.entries(threadId)).values()];
  }

  async counts(): Promise<FeedbackCounts> {
    const threads = await this.options.threads.list();
    const histories = await this.options.threads.histories(threads.map((thread) => thread.thread_id));
    const counts: FeedbackCounts = { good: 0, bad: 0 };
    for (const { entries } of histories.values()) {
      for (const feedback of feedbackOf(entries).values()) {
        if (feedback.rating === 1) counts.good++;
        else counts.bad++;
      }
    }
    return counts;
  }

  private async entries(threadId: string): Promise<StoredEntry[]> {
    if (!(await this.options.threads.get(threadId))) throw new UserError(`There is no thread with id ${threadId}.`);
    return this.options.threads.entries(threadId);
  }

  /** Refuses anything but a reply the thread shows. */
  private async reply(threadId: string, messageId: string): Promise<void> {
    const thread = await this.options.detail(threadId);
    if (!thread) throw new UserError(`There is no thread with id ${threadId}.`);
    const found = thread.entries.some(
      (entry) => entry.kind === "message" && entry.message.id === messageId && entry.message.type === "ai",
    );
    if (!found) throw new UserError(`The thread has no reply with id ${messageId}.`);
  }

  /** Appends the note; the thread keeps its place in the list (a rating is not news in it). */
  private async write(threadId: string, note: FeedbackNote): Promise<void> {
    const before = await this.options.threads.get(threadId);
    await writing(() => this.options.threads.append(threadId, [note]));
    if (before) await writing(() => this.options.threads.update(threadId, { updated_at: before.updated_at }));
    this.options.notify({ type: "thread-changed", thread_id: threadId });
  }
}
