// DeerFlow's Gateway routes as a web-standard `fetch(Request) → Response` handler over the typed Gateway (D5),
// so the service worker can serve `/api/*` and `@langchain/langgraph-sdk`'s Client can drive a thread.
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
import { UserError, userErrorStatus } from "../shared/user-error.ts";
import type { Gateway } from "./gateway.ts";

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
  /** Fawn's addition: only threads whose title or messages hold every word (see Gateway.searchThreads). */
  query: z.string().max(500).optional(),
});

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

function problem(status: number, detail: string): Response {
  return json({ detail }, status);
}

async function readJson<T>(request: Request, schema: z.ZodType<T>): Promise<T | Response> {
  let body: unknown = {};
  const text = await request.text();
  if (text.trim().length > 0) {
    try {
      body = JSON.parse(text);
    } catch {
      return problem(400, "The request body is not valid JSON.");
    }
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    return problem(
      422,
      parsed.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`).join("; "),
    );
  }
  return parsed.data;
}

function threadResponse(thread: ThreadSummary) {
  return {
    thread_id: thread.thread_id,
    status: thread.status,
    created_at: new Date(thread.created_at).toISOString(),
    updated_at: new Date(thread.updated_at).toISOString(),
    metadata: {},
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
      if (cancelOnDisconnect) request.signal.addEventListener("abort", () => void gateway.cancelRun(runId));
      const messages = body.input.messages.map((message) => ({ type: "human" as const, content: message.content }));
      const model = body.context?.model_name;
      const run = { run_id: runId, thread_id: threadId, input: { messages }, ...(model && { context: { model } }) };
      void gateway.runStream(run, write).finally(() => {
        open = false;
        controller.close();
      });
    },
    cancel() {
      if (cancelOnDisconnect) void gateway.cancelRun(runId);
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

type Handler = (request: Request, params: string[]) => Promise<Response>;

/** A `fetch`-shaped handler for the Gateway's routes under `/api`. Unknown routes answer 404, errors `{detail}`. */
export function createGatewayFetch(gateway: Gateway): (request: Request) => Promise<Response> {
  const routes: [string, RegExp, Handler][] = [
    [
      "GET",
      /^\/api\/models$/,
      async () => {
        // Every endpoint's models, the default first; `name` is what a run's `context.model_name` takes.
        const settings = await gateway.getModelSettings();
        const fallback = defaultModelKey(settings);
        const choices = modelChoices(settings).sort((a, b) => Number(b.key === fallback) - Number(a.key === fallback));
        const models = choices.map((choice) => ({
          name: choice.key,
          model: choice.entry.id,
          display_name: choice.endpoint ? `${choice.entry.id} (${choice.endpointName})` : choice.entry.id,
          supports_thinking: choice.entry.thinking === true,
          supports_reasoning_effort: choice.entry.thinking === true,
          supports_vision: choice.entry.vision === true,
        }));
        return json({ models, token_usage: { enabled: true } });
      },
    ],
    [
      "POST",
      /^\/api\/threads$/,
      async (request) => {
        const body = await readJson(request, createThreadBody);
        if (body instanceof Response) return body;
        const thread = await gateway.createThread(body.thread_id === undefined ? {} : { thread_id: body.thread_id });
        return json(threadResponse(thread));
      },
    ],
    [
      "POST",
      /^\/api\/threads\/search$/,
      async (request) => {
        const body = await readJson(request, searchBody);
        if (body instanceof Response) return body;
        const listed = body.query?.trim()
          ? (await gateway.searchThreads(body.query, { limit: MAX_THREAD_SEARCH_LIMIT })).hits.map((hit) => hit.thread)
          : await gateway.listThreads();
        const threads = listed.filter((thread) => !body.status || thread.status === body.status);
        return json(threads.slice(body.offset, body.offset + body.limit).map(threadResponse));
      },
    ],
    [
      "GET",
      /^\/api\/threads\/([^/]+)$/,
      async (_request, [threadId]) => {
        const thread = await gateway.getThread(threadId!);
        return thread ? json(threadResponse(thread)) : problem(404, `Thread ${threadId} not found.`);
      },
    ],
    [
      "DELETE",
      /^\/api\/threads\/([^/]+)$/,
      async (_request, [threadId]) => {
        if (!(await gateway.getThread(threadId!))) return problem(404, `Thread ${threadId} not found.`);
        await gateway.deleteThread(threadId!);
        return json({ success: true, message: `Deleted thread ${threadId}.` });
      },
    ],
    [
      "GET",
      /^\/api\/threads\/([^/]+)\/state$/,
      async (_request, [threadId]) => {
        const thread = await gateway.getThread(threadId!);
        return thread ? json(stateResponse(thread)) : problem(404, `Thread ${threadId} not found.`);
      },
    ],
    [
      "GET",
      /^\/api\/threads\/([^/]+)\/runs$/,
      async (_request, [threadId]) => {
        if (!(await gateway.getThread(threadId!))) return problem(404, `Thread ${threadId} not found.`);
        const runs = await gateway.listRuns(threadId!);
        return json(
          runs.map((run) => ({
            ...run,
            created_at: new Date(run.created_at).toISOString(),
            updated_at: new Date(run.updated_at).toISOString(),
          })),
        );
      },
    ],
    [
      "POST",
      /^\/api\/threads\/([^/]+)\/runs\/stream$/,
      async (request, [threadId]) => {
        const body = await readJson(request, runBody);
        if (body instanceof Response) return body;
        if (!(await gateway.getThread(threadId!))) return problem(404, `Thread ${threadId} not found.`);
        return runStream(gateway, request, threadId!, body);
      },
    ],
    [
      "POST",
      /^\/api\/threads\/([^/]+)\/runs\/([^/]+)\/cancel$/,
      async (_request, [, runId]) => {
        await gateway.cancelRun(runId!);
        return new Response(null, { status: 202 });
      },
    ],
    ["GET", /^\/api\/memory$/, async () => json(await gateway.getMemory())],
    ["GET", /^\/api\/memory\/export$/, async () => json(await gateway.getMemory())],
    ["DELETE", /^\/api\/memory$/, async () => json(await gateway.clearMemory())],
    [
      "POST",
      /^\/api\/memory\/import$/,
      async (request) => {
        const body = await readJson(request, z.unknown());
        if (body instanceof Response) return body;
        return json(await gateway.importMemory(body));
      },
    ],
    [
      "POST",
      /^\/api\/memory\/facts$/,
      async (request) => {
        const body = await readJson(request, factBody);
        if (body instanceof Response) return body;
        return json(await gateway.addMemoryFact(body));
      },
    ],
    [
      "PATCH",
      /^\/api\/memory\/facts\/([^/]+)$/,
      async (request, [id]) => {
        const body = await readJson(request, factPatchBody);
        if (body instanceof Response) return body;
        const patch = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
        return json(await gateway.updateMemoryFact(id!, patch));
      },
    ],
    ["DELETE", /^\/api\/memory\/facts\/([^/]+)$/, async (_request, [id]) => json(await gateway.deleteMemoryFact(id!))],
    ["GET", /^\/api\/skills$/, async () => json({ skills: (await gateway.listSkills()).map(skillResponse) })],
    [
      "POST",
      /^\/api\/skills\/install$/,
      async (request) => {
        const body = await readJson(request, skillInstallBody);
        if (body instanceof Response) return body;
        const path = body.path.startsWith("/") ? body.path : `/${body.path}`;
        const skill = await gateway.installSkillFromThread(body.thread_id, path);
        return json({ success: true, skill_name: skill.name, message: `Skill '${skill.name}' installed successfully` });
      },
    ],
    [
      "DELETE",
      /^\/api\/skills\/custom\/([^/]+)$/,
      async (_request, [name]) => {
        await gateway.deleteSkill(name!);
        return json({ success: true });
      },
    ],
    [
      "GET",
      /^\/api\/skills\/([^/]+)$/,
      async (_request, [name]) => {
        const skill = (await gateway.listSkills()).find((item) => item.name === name);
        return skill ? json(skillResponse(skill)) : problem(404, `Skill ${name} not found.`);
      },
    ],
    [
      "PUT",
      /^\/api\/skills\/([^/]+)$/,
      async (request, [name]) => {
        const body = await readJson(request, skillStateBody);
        if (body instanceof Response) return body;
        return json(skillResponse(await gateway.setSkillEnabled(name!, body.enabled)));
      },
    ],
    // Settings → Data (Fawn's own): the whole store as one backup archive, back in, or gone.
    [
      "GET",
      /^\/api\/data\/export$/,
      async () => {
        const backup = await gateway.exportData();
        return new Response(backup.blob, {
          headers: {
            "content-type": "application/zip",
            "content-disposition": `attachment; filename="${backup.file_name}"`,
          },
        });
      },
    ],
    [
      "POST",
      /^\/api\/data\/import$/,
      // `?accept_address_changes=true` applies a backup that sets addresses; without it such a backup is only listed.
      async (request) => {
        const accept = new URL(request.url).searchParams.get("accept_address_changes") === "true";
        return json(
          await gateway.importData(new Uint8Array(await request.arrayBuffer()), { acceptAddressChanges: accept }),
        );
      },
    ],
    [
      "DELETE",
      /^\/api\/data$/,
      async () => {
        await gateway.deleteAllData();
        return json({ success: true });
      },
    ],
  ];

  return async (request) => {
    const path = new URL(request.url).pathname.replace(/\/+$/, "");
    let pathMatched = false;
    for (const [method, pattern, handler] of routes) {
      const match = pattern.exec(path);
      if (!match) continue;
      pathMatched = true;
      if (method !== request.method) continue;
      try {
        return await handler(request, match.slice(1).map(decodeURIComponent));
      } catch (error) {
        if (error instanceof UserError) return problem(userErrorStatus(error), error.message);
        return problem(500, error instanceof Error ? error.message : String(error));
      }
    }
    return pathMatched
      ? problem(405, `${request.method} is not allowed on ${path}.`)
      : problem(404, `No route ${path}.`);
  };
}
