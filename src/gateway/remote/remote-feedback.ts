// A server workspace's feedback domain (`gateway.feedback` in a server workspace): "Good reply" / "Bad reply" through
// DeerFlow's run feedback routes (`PUT|DELETE /api/threads/{id}/runs/{run_id}/feedback`), which a Fawn server answers
// too. The routes rate a run; the reply's run is found in the thread's history feed (`GET …/messages/page`, whose rows
// name their run and carry the run's feedback on its last reply). A LangGraph-only server has neither: one sentence.
import { z } from "zod";
import {
  FEEDBACK_COMMENT_MAX,
  type FeedbackApi,
  type FeedbackCounts,
  type FeedbackInput,
  type MessageFeedback,
} from "../../protocol/index.ts";
import { UserError } from "../../shared/user-error.ts";
import type { RemoteContext } from "./remote-context.ts";
import { seg, type ServerFetch } from "./server-urls.ts";

const FEATURE = "Feedback";
/** DeerFlow's largest page of the history feed, and how many pages are read at most to find a reply. */
const PAGE_LIMIT = 200;
const MAX_PAGES = 25;

/** DeerFlow answers +1/-1; its grouped read has been seen to say "up"/"down". */
const rating = z
  .union([z.literal(1), z.literal(-1), z.literal("up"), z.literal("down")])
  .transform((value) => (value === 1 || value === "up" ? (1 as const) : (-1 as const)));

const rowFeedback = z
  .object({ rating, comment: z.string().max(FEEDBACK_COMMENT_MAX).nullish() })
  .nullish()
  .catch(null);

const pageSchema = z.object({
  data: z
    .array(
      z.object({
        run_id: z.string().max(1000).nullish(),
        content: z.object({ id: z.string().max(1000).nullish() }).passthrough(),
        feedback: rowFeedback,
      }),
    )
    .max(PAGE_LIMIT),
  has_more: z.boolean().optional(),
  next_before_seq: z.number().int().nullish(),
});

const feedbackAnswer = z.object({
  rating,
  comment: z.string().max(FEEDBACK_COMMENT_MAX).nullish(),
  created_at: z.string().max(100).optional(),
});

type Row = z.infer<typeof pageSchema>["data"][number];

export class RemoteFeedback implements FeedbackApi {
  constructor(private readonly remote: RemoteContext) {}

  private rest(): ServerFetch {
    if (!this.remote.rest || this.remote.server.kind === "langgraph") throw this.remote.unavailable(FEATURE);
    return this.remote.rest;
  }

  /** The thread's history feed, newest page first, until `stop` says a row is the one sought. */
  private async rows(threadId: string, stop?: (row: Row) => boolean): Promise<Row[]> {
    const rest = this.rest();
    const rows: Row[] = [];
    let before: number | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = `limit=${PAGE_LIMIT}${before === undefined ? "" : `&before_seq=${before}`}`;
      const answer = await this.remote.restJson(
        rest,
        `/threads/${seg(threadId)}/messages/page?${query}`,
        pageSchema,
        "a thread's messages",
      );
      rows.push(...answer.data);
      if (stop && answer.data.some(stop)) break;
      if (!answer.has_more || answer.next_before_seq == null) break;
      before = answer.next_before_seq;
    }
    return rows;
  }

  private async runOf(threadId: string, messageId: string): Promise<string> {
    const rows = await this.rows(threadId, (row) => row.content.id === messageId);
    const runId = rows.find((row) => row.content.id === messageId)?.run_id;
    if (!runId) throw new UserError(`The thread has no reply with id ${messageId} on ${this.remote.connection.label}.`);
    return runId;
  }

  private path(threadId: string, runId: string): string {
    return `/threads/${seg(threadId)}/runs/${seg(runId)}/feedback`;
  }

  async set(threadId: string, messageId: string, input: FeedbackInput): Promise<MessageFeedback> {
    const comment = input.comment?.trim();
    const runId = await this.runOf(threadId, messageId);
    const answer = await this.remote.restJson(this.rest(), this.path(threadId, runId), feedbackAnswer, "feedback", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rating: input.rating, comment: comment || null }),
    });
    this.remote.notify({ type: "thread-changed", thread_id: threadId });
    const at = answer.created_at ? Date.parse(answer.created_at) : NaN;
    return {
      message_id: messageId,
      rating: answer.rating,
      ...(answer.comment && { comment: answer.comment }),
      at: Number.isFinite(at) ? at : Date.now(),
    };
  }

  async clear(threadId: string, messageId: string): Promise<void> {
    const runId = await this.runOf(threadId, messageId);
    const response = await this.rest()(this.path(threadId, runId), { method: "DELETE" });
    // DeerFlow answers 404 when the run has no feedback: nothing to take back.
    if (response.status !== 404) await this.remote.refusal(response);
    this.remote.notify({ type: "thread-changed", thread_id: threadId });
  }

  async list(threadId: string): Promise<MessageFeedback[]> {
    const rows = await this.rows(threadId);
    return rows.flatMap((row) =>
      row.feedback && row.content.id
        ? [
            {
              message_id: row.content.id,
              rating: row.feedback.rating,
              ...(row.feedback.comment && { comment: row.feedback.comment }),
              at: 0,
            },
          ]
        : [],
    );
  }

  async counts(): Promise<FeedbackCounts> {
    throw this.remote.unavailable("Counting feedback over every thread");
  }
}
