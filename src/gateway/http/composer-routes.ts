// The composer's extras as DeerFlow serves them: follow-up suggestions and /compact of a thread's context.
import { z } from "zod";
import { findThread, json, readJson, type RouteGroup } from "./route-kit.ts";

/** DeerFlow's suggestions request; its `messages` are read from the thread here, so they may be left out. */
const suggestionsBody = z.object({
  messages: z.array(z.unknown()).optional(),
  n: z.number().int().min(1).max(5).default(3),
  model_name: z.string().nullish(),
});
const compactBody = z.object({ model_name: z.string().nullish() }).loose();

export const composerRoutes: RouteGroup = (app, gateway) => {
  app.get("/api/suggestions/config", () => json({ enabled: true, max_suggestions: 3 }));
  app.post("/api/threads/:thread_id/suggestions", async (c) => {
    const body = await readJson(c.req.raw, suggestionsBody);
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    const questions = await gateway.suggestions.suggest(threadId, body.model_name ? { model: body.model_name } : {});
    return json({ suggestions: questions.slice(0, body.n) });
  });
  app.post("/api/threads/:thread_id/compact", async (c) => {
    const body = await readJson(c.req.raw, compactBody);
    const threadId = c.req.param("thread_id");
    const thread = await findThread(gateway, threadId);
    const result = await gateway.context.compact(threadId, body.model_name ? { model: body.model_name } : {});
    const messages = thread.entries.filter((entry) => entry.kind === "message").length;
    return json({
      thread_id: threadId,
      compacted: result.compacted,
      ...(!result.compacted && { reason: "not_enough_messages" }),
      removed_message_count: result.folded,
      preserved_message_count: messages - result.folded,
      summary_updated: result.compacted,
      total_tokens: result.usage.tokens,
    });
  });
};
