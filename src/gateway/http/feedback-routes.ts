// DeerFlow's run feedback routes (`routers/feedback.py`): `PUT|POST|GET|DELETE /api/threads/:id/runs/:run_id/feedback`
// and `GET …/feedback/stats`, over the feedback domain. DeerFlow keeps one rating per run and shows it on the run's
// last reply; Fawn keeps it on that reply (the last AI message of the turn the run added, as the thread shows it), so
// a run is rated through its reply and `feedback_id` is the reply's message id. Ratings are DeerFlow's +1 and -1.
import { z } from "zod";
import { FEEDBACK_COMMENT_MAX, type MessageFeedback } from "../../protocol/index.ts";
import type { Gateway } from "../create-gateway.ts";
import { findThread, json, readJson, RouteProblem, type RouteGroup } from "./route-kit.ts";

const feedbackBody = z.object({
  rating: z.number(),
  comment: z.string().max(FEEDBACK_COMMENT_MAX).nullish(),
  message_id: z.string().max(1000).nullish(),
});

/** DeerFlow's FeedbackResponse for a reply's feedback. */
function feedbackResponse(threadId: string, runId: string, feedback: MessageFeedback) {
  return {
    feedback_id: feedback.message_id,
    run_id: runId,
    thread_id: threadId,
    user_id: null,
    message_id: feedback.message_id,
    rating: feedback.rating,
    comment: feedback.comment ?? null,
    created_at: new Date(feedback.at).toISOString(),
  };
}

/**
 * The id of the reply run `runId` added to the thread: the last AI message of its turn, when the thread shows that
 * run's version of the turn. A 404 naming the run otherwise.
 */
export async function replyOfRun(gateway: Gateway, threadId: string, runId: string): Promise<string> {
  const thread = await findThread(gateway, threadId);
  const runs = await gateway.runs.list(threadId);
  const run = runs.find((candidate) => candidate.run_id === runId);
  if (!run) throw new RouteProblem(404, `Run ${runId} not found in thread ${threadId}.`);
  const shown = runs.findLast((candidate) => candidate.user_message_id === run.user_message_id);
  let inTurn = false;
  let reply: string | undefined;
  if (shown?.run_id === runId) {
    for (const entry of thread.entries) {
      if (entry.kind !== "message") continue;
      if (entry.message.type === "human") {
        if (inTurn) break;
        inTurn = entry.message.id === run.user_message_id;
      } else if (inTurn && entry.message.type === "ai") reply = entry.message.id;
    }
  }
  if (reply === undefined) throw new RouteProblem(404, `Run ${runId} has no reply the thread shows.`);
  return reply;
}

export const feedbackRoutes: RouteGroup = (app, gateway) => {
  const path = "/api/threads/:thread_id/runs/:run_id/feedback";
  const rate = async (request: Request, threadId: string, runId: string) => {
    const body = await readJson(request, feedbackBody);
    if (body.rating !== 1 && body.rating !== -1) throw new RouteProblem(400, "rating must be +1 or -1");
    const messageId = await replyOfRun(gateway, threadId, runId);
    const feedback = await gateway.feedback.set(threadId, messageId, {
      rating: body.rating,
      ...(body.comment != null && { comment: body.comment }),
    });
    return json(feedbackResponse(threadId, runId, feedback));
  };
  /** The run's feedback: none, or its reply's. */
  const ofRun = async (threadId: string, runId: string) => {
    const messageId = await replyOfRun(gateway, threadId, runId);
    const feedback = (await gateway.feedback.list(threadId)).find((item) => item.message_id === messageId);
    return { messageId, feedback };
  };

  app.put(path, (c) => rate(c.req.raw, c.req.param("thread_id"), c.req.param("run_id")));
  // DeerFlow's POST creates a row per call; Fawn keeps one rating per reply, so it answers as PUT does.
  app.post(path, (c) => rate(c.req.raw, c.req.param("thread_id"), c.req.param("run_id")));
  app.get(path, async (c) => {
    const threadId = c.req.param("thread_id");
    const runId = c.req.param("run_id");
    const { feedback } = await ofRun(threadId, runId);
    return json(feedback ? [feedbackResponse(threadId, runId, feedback)] : []);
  });
  app.get(`${path}/stats`, async (c) => {
    const runId = c.req.param("run_id");
    const { feedback } = await ofRun(c.req.param("thread_id"), runId);
    return json({
      run_id: runId,
      total: feedback ? 1 : 0,
      positive: feedback?.rating === 1 ? 1 : 0,
      negative: feedback?.rating === -1 ? 1 : 0,
    });
  });
  app.delete(path, async (c) => {
    const threadId = c.req.param("thread_id");
    const { messageId, feedback } = await ofRun(threadId, c.req.param("run_id"));
    if (!feedback) throw new RouteProblem(404, "No feedback found for this run");
    await gateway.feedback.clear(threadId, messageId);
    return json({ success: true });
  });
};
