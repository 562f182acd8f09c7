// LangGraph's thread and run routes as DeerFlow's frontend calls them (create, search, get, delete, state, runs,
// stream, cancel), plus Fawn's own approvals and per-thread memory switch.
import { z } from "zod";
import {
  MAX_THREAD_SEARCH_LIMIT,
  type RunEvent,
  type ThreadDetail,
  type ThreadSummary,
  type WireMessage,
} from "../../protocol/index.ts";
import { newId } from "../../shared/ids.ts";
import { isUserFacing } from "../../shared/user-error.ts";
import type { Gateway } from "../create-gateway.ts";
import { eventNameOfMode, STREAM_MODES, type FawnStreamMode } from "../runs/langgraph-stream-parts.ts";
import { findThread, json, readJson, RouteProblem, type RouteGroup } from "./route-kit.ts";

const messageInput = z
  .object({
    type: z.enum(["human", "user"]).optional(),
    role: z.enum(["human", "user"]).optional(),
    content: z.union([z.string(), z.array(z.object({ type: z.literal("text"), text: z.string() }))]),
  })
  .refine((message) => message.type !== undefined || message.role !== undefined, {
    message: "each input message needs type 'human' (or role 'user')",
  });

const runBody = z.object({
  assistant_id: z.string().optional(),
  input: z.object({ messages: z.array(messageInput).min(1, "input.messages is empty") }),
  stream_mode: z.union([z.enum(STREAM_MODES), z.array(z.enum(STREAM_MODES))]).optional(),
  /** agent-chat-ui asks for subgraphs' events; Fawn streams the lead agent's own, so `true` is taken and ignored. */
  stream_subgraphs: z.boolean().optional(),
  on_disconnect: z.enum(["cancel", "continue"]).optional(),
  multitask_strategy: z.literal("reject").optional(),
  /** DeerFlow's run context; `model_name` is a `name` from GET /api/models (else the default model). */
  context: z.object({ model_name: z.string().optional() }).loose().nullish(),
});

const createThreadBody = z.object({
  thread_id: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
const searchBody = z.object({
  limit: z.number().int().min(1).max(1000).default(100),
  offset: z.number().int().min(0).default(0),
  status: z.enum(["idle", "busy", "error"]).optional(),
  /** Fawn's addition: only threads whose title or messages hold every word (see ThreadsApi.search). */
  query: z.string().max(500).optional(),
});
const approvalBody = z.object({ decision: z.enum(["allow", "deny", "allow_thread"]) });
const threadMemoryBody = z.object({ enabled: z.boolean() });

/** A thread as LangGraph's `GET /threads/:id` answers it. */
export function threadResponse(thread: ThreadSummary) {
  return {
    thread_id: thread.thread_id,
    status: thread.status,
    created_at: new Date(thread.created_at).toISOString(),
    updated_at: new Date(thread.updated_at).toISOString(),
    // Fawn's own: a thread holding another person's messages says so, with its memory switch and allowed tools.
    metadata: {
      ...(thread.foreign && { foreign: { memory: thread.foreign.memory === true } }),
      ...(thread.approved_tools?.length && { approved_tools: thread.approved_tools }),
    },
    values: { title: thread.title },
    interrupts: {},
  };
}

function stateResponse(thread: ThreadDetail) {
  const messages: WireMessage[] = thread.entries.flatMap((entry) => (entry.kind === "message" ? [entry.message] : []));
  return {
    values: { title: thread.title, messages },
    next: [],
    tasks: [],
    metadata: {},
    checkpoint: null,
    created_at: new Date(thread.updated_at).toISOString(),
  };
}

function wantedEvents(streamMode: z.infer<typeof runBody>["stream_mode"]): Set<RunEvent["event"]> {
  const modes: FawnStreamMode[] =
    streamMode === undefined ? ["values"] : Array.isArray(streamMode) ? streamMode : [streamMode];
  const events = new Set<RunEvent["event"]>(["metadata", "error", "end"]);
  for (const mode of modes) events.add(eventNameOfMode(mode));
  return events;
}

function runStream(gateway: Gateway, request: Request, threadId: string, body: z.infer<typeof runBody>): Response {
  const runId = newId();
  const wanted = wantedEvents(body.stream_mode);
  const encoder = new TextEncoder();
  const cancelOnDisconnect = body.on_disconnect !== "continue";
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const write = (event: RunEvent) => {
        if (!open || !wanted.has(event.event)) return;
        controller.enqueue(encoder.encode(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`));
      };
      if (cancelOnDisconnect) request.signal.addEventListener("abort", () => void gateway.runs.cancel(runId));
      const messages = body.input.messages.map((message) => ({ type: "human" as const, content: message.content }));
      const model = body.context?.model_name;
      const run = { run_id: runId, thread_id: threadId, input: { messages }, ...(model && { context: { model } }) };
      void gateway.runs.stream(run, write).finally(() => {
        open = false;
        controller.close();
      });
    },
    cancel() {
      if (cancelOnDisconnect) void gateway.runs.cancel(runId);
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "content-location": `/api/threads/${threadId}/runs/${runId}`,
    },
  });
}

export const threadRoutes: RouteGroup = (app, gateway) => {
  app.post("/api/threads", async (c) => {
    const body = await readJson(c.req.raw, createThreadBody);
    const thread = await gateway.threads.create(body.thread_id === undefined ? {} : { thread_id: body.thread_id });
    return json(threadResponse(thread));
  });
  app.post("/api/threads/search", async (c) => {
    const body = await readJson(c.req.raw, searchBody);
    const listed = body.query?.trim()
      ? (await gateway.threads.search(body.query, { limit: MAX_THREAD_SEARCH_LIMIT })).hits.map((hit) => hit.thread)
      : await gateway.threads.list();
    const threads = listed.filter((thread) => !body.status || thread.status === body.status);
    return json(threads.slice(body.offset, body.offset + body.limit).map(threadResponse));
  });
  app.get("/api/threads/:thread_id", async (c) =>
    json(threadResponse(await findThread(gateway, c.req.param("thread_id")))),
  );
  app.delete("/api/threads/:thread_id", async (c) => {
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    await gateway.threads.delete(threadId);
    return json({ success: true, message: `Deleted thread ${threadId}.` });
  });
  app.get("/api/threads/:thread_id/state", async (c) =>
    json(stateResponse(await findThread(gateway, c.req.param("thread_id")))),
  );
  app.get("/api/threads/:thread_id/runs", async (c) => {
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    const runs = await gateway.runs.list(threadId);
    return json(
      runs.map((run) => ({
        ...run,
        created_at: new Date(run.created_at).toISOString(),
        updated_at: new Date(run.updated_at).toISOString(),
      })),
    );
  });
  app.post("/api/threads/:thread_id/runs/stream", async (c) => {
    const body = await readJson(c.req.raw, runBody);
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    return runStream(gateway, c.req.raw, threadId, body);
  });
  app.post("/api/threads/:thread_id/runs/:run_id/cancel", async (c) => {
    await gateway.runs.cancel(c.req.param("run_id"));
    return new Response(null, { status: 202 });
  });

  // Fawn's own: answering a tool call that waits in "Approval" (a `custom` event `approval_requested` of the run's
  // stream), and memory for a thread holding another person's messages.
  app.post("/api/threads/:thread_id/approvals/:approval_id", async (c) => {
    const body = await readJson(c.req.raw, approvalBody);
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    try {
      await gateway.approvals.answer(c.req.param("approval_id"), body.decision, threadId);
    } catch (error) {
      if (isUserFacing(error)) throw new RouteProblem(404, error.message);
      throw error;
    }
    return json({ approval_id: c.req.param("approval_id"), decision: body.decision });
  });
  app.put("/api/threads/:thread_id/memory", async (c) => {
    const body = await readJson(c.req.raw, threadMemoryBody);
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    return json(threadResponse(await gateway.threads.setMemory(threadId, body.enabled)));
  });
};
