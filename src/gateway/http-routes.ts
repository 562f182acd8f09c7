// DeerFlow's Gateway routes as a web-standard `fetch(Request) → Response` handler over the typed Gateway
// (docs/architecture.md#d5-gateway), so the service worker can serve `/api/*` and `@langchain/langgraph-sdk`'s Client
// can drive a thread.
import { Hono } from "hono/tiny";
import { z } from "zod";
import {
  defaultModelKey,
  MAX_THREAD_SEARCH_LIMIT,
  modelChoices,
  type RunEvent,
  type SkillInfo,
  type ThreadDetail,
  type ThreadSummary,
  type WireMessage,
} from "../protocol/index.ts";
import { newId } from "../shared/ids.ts";
import { isUserFacing, userErrorStatus } from "../shared/user-error.ts";
import type { Gateway } from "./create-gateway.ts";

/** The stream modes a run can be asked for; the SDK's `messages-tuple` is sent as the `messages` event. */
const STREAM_MODES = ["values", "messages-tuple", "updates", "custom"] as const;

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
  stream_subgraphs: z.literal(false).optional(),
  on_disconnect: z.enum(["cancel", "continue"]).optional(),
  multitask_strategy: z.literal("reject").optional(),
  /** DeerFlow's run context; `model_name` is a `name` from GET /api/models (else the default model). */
  context: z.object({ model_name: z.string().optional() }).loose().nullish(),
});

const createThreadBody = z.object({
  thread_id: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
const factBody = z.object({
  content: z.string().min(1),
  category: z.string().min(1).default("context"),
  confidence: z.number().min(0).max(1).default(0.5),
});
const factPatchBody = z.object({
  content: z.string().min(1).optional(),
  category: z.string().min(1).optional(),
  confidence: z.number().min(0).max(1).optional(),
});
const skillStateBody = z.object({ enabled: z.boolean() });
/** DeerFlow's suggestions request; its `messages` are read from the thread here, so they may be left out. */
const suggestionsBody = z.object({
  messages: z.array(z.unknown()).optional(),
  n: z.number().int().min(1).max(5).default(3),
  model_name: z.string().nullish(),
});
const compactBody = z.object({ model_name: z.string().nullish() }).loose();
const approvalBody = z.object({ decision: z.enum(["allow", "deny", "allow_thread"]) });
const threadMemoryBody = z.object({ enabled: z.boolean() });
const skillInstallBody = z.object({ thread_id: z.string().min(1), path: z.string().min(1) });

/** A skill as DeerFlow's `GET /api/skills` lists it. */
function skillResponse(skill: SkillInfo) {
  return {
    name: skill.name,
    description: skill.description,
    ...(skill.license !== undefined && { license: skill.license }),
    category: skill.category,
    enabled: skill.enabled,
    editable: skill.editable,
  };
}

const searchBody = z.object({
  limit: z.number().int().min(1).max(1000).default(100),
  offset: z.number().int().min(0).default(0),
  status: z.enum(["idle", "busy", "error"]).optional(),
  /** Fawn's addition: only threads whose title or messages hold every word (see ThreadsApi.search). */
  query: z.string().max(500).optional(),
});

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

function problem(status: number, detail: string): Response {
  return json({ detail }, status);
}

/** A refusal a route answers with its own status (bad JSON 400, failed schema 422, missing thing 404). */
class RouteProblem extends Error {
  constructor(
    readonly status: 400 | 404 | 422,
    detail: string,
  ) {
    super(detail);
  }
}

/** The status an error thrown by a route answers with, DeerFlow-style as `{detail}`. */
function errorResponse(error: unknown): Response {
  if (error instanceof RouteProblem) return problem(error.status, error.message);
  if (isUserFacing(error)) return problem(userErrorStatus(error), error.message);
  return problem(500, error instanceof Error ? error.message : String(error));
}

async function readJson<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  let body: unknown = {};
  const text = await request.text();
  if (text.trim().length > 0) {
    try {
      body = JSON.parse(text);
    } catch {
      throw new RouteProblem(400, "The request body is not valid JSON.");
    }
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`);
    throw new RouteProblem(422, detail.join("; "));
  }
  return parsed.data;
}

function threadResponse(thread: ThreadSummary) {
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
  const modes: (typeof STREAM_MODES)[number][] =
    streamMode === undefined ? ["values"] : Array.isArray(streamMode) ? streamMode : [streamMode];
  const events = new Set<RunEvent["event"]>(["metadata", "error", "end"]);
  for (const mode of modes) events.add(mode === "messages-tuple" ? "messages" : mode);
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

/** The request's path without trailing slashes, as the 404 and 405 answers name it. */
function pathOf(request: Request): string {
  return new URL(request.url).pathname.replace(/\/+$/, "");
}

/**
 * A `fetch`-shaped handler for the Gateway's routes under `/api`. An unknown path answers 404, a known path with
 * another method 405, and every refusal or failure `{detail}` with its status (errorResponse).
 */
export function createGatewayFetch(gateway: Gateway): (request: Request) => Promise<Response> {
  // hono/tiny: its PatternRouter is the smallest of hono's routers, and a few dozen routes need no faster one.
  const app = new Hono({ strict: false });

  const findThread = async (threadId: string) => {
    const thread = await gateway.threads.get(threadId);
    if (!thread) throw new RouteProblem(404, `Thread ${threadId} not found.`);
    return thread;
  };

  app.get("/api/models", async () => {
    // Every endpoint's models, the default first; `name` is what a run's `context.model_name` takes.
    const settings = await gateway.settings.getModels();
    const fallback = defaultModelKey(settings);
    const choices = modelChoices(settings).sort((a, b) => Number(b.key === fallback) - Number(a.key === fallback));
    const models = choices.map((choice) => ({
      name: choice.key,
      model: choice.entry.id,
      display_name: `${choice.entry.id} (${choice.endpointName})`,
      supports_thinking: choice.entry.thinking === true,
      supports_reasoning_effort: choice.entry.thinking === true,
      supports_vision: choice.entry.vision === true,
    }));
    return json({ models, token_usage: { enabled: true } });
  });

  // Threads and runs (LangGraph's API, as DeerFlow serves it).
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
  app.get("/api/threads/:thread_id", async (c) => json(threadResponse(await findThread(c.req.param("thread_id")))));
  app.delete("/api/threads/:thread_id", async (c) => {
    const threadId = c.req.param("thread_id");
    await findThread(threadId);
    await gateway.threads.delete(threadId);
    return json({ success: true, message: `Deleted thread ${threadId}.` });
  });
  app.get("/api/threads/:thread_id/state", async (c) =>
    json(stateResponse(await findThread(c.req.param("thread_id")))),
  );
  app.get("/api/threads/:thread_id/runs", async (c) => {
    const threadId = c.req.param("thread_id");
    await findThread(threadId);
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
    await findThread(threadId);
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
    await findThread(threadId);
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
    await findThread(threadId);
    return json(threadResponse(await gateway.threads.setMemory(threadId, body.enabled)));
  });

  // Composer extras: follow-up suggestions and /compact (DeerFlow's suggestions and compaction routes).
  app.get("/api/suggestions/config", () => json({ enabled: true, max_suggestions: 3 }));
  app.post("/api/threads/:thread_id/suggestions", async (c) => {
    const body = await readJson(c.req.raw, suggestionsBody);
    const threadId = c.req.param("thread_id");
    await findThread(threadId);
    const questions = await gateway.suggestions.suggest(threadId, body.model_name ? { model: body.model_name } : {});
    return json({ suggestions: questions.slice(0, body.n) });
  });
  app.post("/api/threads/:thread_id/compact", async (c) => {
    const body = await readJson(c.req.raw, compactBody);
    const threadId = c.req.param("thread_id");
    const thread = await findThread(threadId);
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

  // Memory.
  app.get("/api/memory", async () => json(await gateway.memory.get()));
  app.get("/api/memory/export", async () => json(await gateway.memory.get()));
  app.delete("/api/memory", async () => json(await gateway.memory.clear()));
  app.post("/api/memory/import", async (c) =>
    json(await gateway.memory.import(await readJson(c.req.raw, z.unknown()))),
  );
  app.post("/api/memory/facts", async (c) => json(await gateway.memory.addFact(await readJson(c.req.raw, factBody))));
  app.patch("/api/memory/facts/:id", async (c) => {
    const body = await readJson(c.req.raw, factPatchBody);
    const patch = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
    return json(await gateway.memory.updateFact(c.req.param("id"), patch));
  });
  app.delete("/api/memory/facts/:id", async (c) => json(await gateway.memory.deleteFact(c.req.param("id"))));

  // Skills.
  app.get("/api/skills", async () => json({ skills: (await gateway.skills.list()).map(skillResponse) }));
  app.post("/api/skills/install", async (c) => {
    const body = await readJson(c.req.raw, skillInstallBody);
    const path = body.path.startsWith("/") ? body.path : `/${body.path}`;
    const skill = await gateway.skills.installFromThread(body.thread_id, path);
    return json({ success: true, skill_name: skill.name, message: `Skill '${skill.name}' installed successfully` });
  });
  app.delete("/api/skills/custom/:name", async (c) => {
    await gateway.skills.delete(c.req.param("name"));
    return json({ success: true });
  });
  app.get("/api/skills/:name", async (c) => {
    const name = c.req.param("name");
    const skill = (await gateway.skills.list()).find((item) => item.name === name);
    return skill ? json(skillResponse(skill)) : problem(404, `Skill ${name} not found.`);
  });
  app.put("/api/skills/:name", async (c) => {
    const body = await readJson(c.req.raw, skillStateBody);
    return json(skillResponse(await gateway.skills.setEnabled(c.req.param("name"), body.enabled)));
  });

  // Settings → Data (Fawn's own): the whole store as one backup archive, back in, or gone.
  app.get("/api/data/export", async () => {
    const backup = await gateway.data.export();
    return new Response(backup.blob, {
      headers: {
        "content-type": "application/zip",
        "content-disposition": `attachment; filename="${backup.file_name}"`,
      },
    });
  });
  // `?accept_additions=true` applies a backup that adds what can act or send data; without it that is only listed.
  app.post("/api/data/import", async (c) => {
    const accept = c.req.query("accept_additions") === "true";
    const archive = new Uint8Array(await c.req.raw.arrayBuffer());
    return json(await gateway.data.import(archive, { acceptAdditions: accept }));
  });
  app.delete("/api/data", async () => {
    await gateway.data.deleteAll();
    return json({ success: true });
  });

  // Registered last, so a path's own methods answer first: any other method on a known path is 405.
  for (const path of new Set(app.routes.map((route) => route.path))) {
    app.all(path, (c) => problem(405, `${c.req.method} is not allowed on ${pathOf(c.req.raw)}.`));
  }
  app.notFound((c) => problem(404, `No route ${pathOf(c.req.raw)}.`));
  app.onError(errorResponse);

  return async (request) => app.fetch(request);
}
