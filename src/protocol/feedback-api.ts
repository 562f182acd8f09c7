// The feedback domain's contract (`gateway.feedback`): "Good reply" / "Bad reply" on a reply, with an optional
// comment (DeerFlow's run feedback: `PUT|GET|DELETE /api/threads/{id}/runs/{run_id}/feedback`), kept with the thread.

/** DeerFlow's rating: +1 a good reply, -1 a bad one. */
export type FeedbackRating = 1 | -1;

/** The longest comment kept, in characters. */
export const FEEDBACK_COMMENT_MAX = 2000;

/** The user's feedback on one reply (an AI message of the thread), the last given. */
export interface MessageFeedback {
  message_id: string;
  rating: FeedbackRating;
  /** What the user wrote with it; absent when they skipped the comment. */
  comment?: string;
  /** When it was given (ms since the epoch). */
  at: number;
}

export interface FeedbackInput {
  rating: FeedbackRating;
  /** Trimmed; empty means none. At most FEEDBACK_COMMENT_MAX characters. */
  comment?: string;
}

/** Settings → Data's count: replies rated good and bad, over every thread. */
export interface FeedbackCounts {
  good: number;
  bad: number;
}

export interface FeedbackApi {
  /**
   * Rates a reply of the thread (an AI message it shows), replacing any earlier rating of it. Rejects with one
   * sentence for an unknown thread or message, a rating other than 1 or -1, or a comment too long.
   */
  set(threadId: string, messageId: string, input: FeedbackInput): Promise<MessageFeedback>;
  /** Takes the rating of a reply back; nothing happens when it has none. */
  clear(threadId: string, messageId: string): Promise<void>;
  /** The thread's feedback, one per rated reply, in the order given. */
  list(threadId: string): Promise<MessageFeedback[]>;
  /** How many replies are rated good and bad in every thread. */
  counts(): Promise<FeedbackCounts>;
}

/** Whether `value` is a rating (as the routes and a backup's records are read). */
export function isFeedbackRating(value: unknown): value is FeedbackRating {
  return value === 1 || value === -1;
}
