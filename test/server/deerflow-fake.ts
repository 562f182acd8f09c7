// A fake DeerFlow deployment served from the route table (deerflow-routes.ts), as a `fetch`: nginx's
// `/api/langgraph/* → /api/*` rewrite, DeerFlow's middleware order (CSRF before auth), its 404/405/401/403/422
// answers, and small in-memory threads, runs and uploads so LangGraph's SDK and the workspace get answers shaped
// exactly as DeerFlow's. What it refuses, DeerFlow refuses; it is not DeerFlow.
import {
  DEERFLOW_CONTRACT,
  RUN_OPTION_VALUES,
  STREAM_MODES,
  THREAD_ID_PATTERN,
  type DeerflowRoute,
} from "./deerflow-routes.ts";

export interface FakeDeerflowOptions {
  /** The session JWT the fake accepts in the `access_token` cookie. */
  session?: string;
  /** `DEER_FLOW_AUTH_DISABLED=1`: no session, no CSRF. */
  authDisabled?: boolean;
}

export interface ServedRequest {
  method: string;
  /** The URL's path as sent (before the nginx rewrite). */
  url: string;
  /** The table's route it matched, or undefined. */
  route?: DeerflowRoute;
  status: number;
  headers: Headers;
  body?: unknown;
}

export interface FakeDeerflow {
  fetch: typeof fetch;
  served: ServedRequest[];
  /** Files the fake's threads hold, by thread id and virtual path. */
  files: Map<string, Map<string, Uint8Array>>;
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function fakeDeerflow(options: FakeDeerflowOptions = {}): FakeDeerflow {
  const served: ServedRequest[] = [];
  const threads = new Map<string, Record<string, unknown>>();
  const files = new Map<string, Map<string, Uint8Array>>();
  let runs = 0;

  const fetcher = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/api\/langgraph\//, "/api/");
    const record: ServedRequest = { method: request.method, url: url.pathname, status: 0, headers: request.headers };
    served.push(record);
    const answer = (status: number, body: unknown, headers?: Record<string, string>): Response => {
      record.status = status;
      return status === 204 || status === 202
        ? new Response(null, { status, headers })
        : Response.json(body, { status, headers });
    };

    // DeerFlow's middleware runs before its router: CSRF (unsafe methods), then the session (every path that is not
    // public), then the route; so an unknown path answers 401 to a client without a session, 404 to one with it.
    const cookies = parseCookies(request.headers.get("cookie"));
    const publicPath = isPublic(path);
    if (!options.authDisabled && UNSAFE.has(request.method) && !publicPath && path !== "/api/v1/auth/me") {
      const header = request.headers.get("x-csrf-token");
      if (!cookies.csrf_token || !header) {
        return answer(403, { detail: "CSRF token missing. Include X-CSRF-Token header." });
      }
      if (cookies.csrf_token !== header) return answer(403, { detail: "CSRF token mismatch." });
    }
    if (!options.authDisabled && !publicPath) {
      if (!cookies.access_token) {
        return answer(401, { detail: { code: "not_authenticated", message: "Authentication required" } });
      }
      if (cookies.access_token !== options.session) {
        return answer(401, { detail: { code: "token_invalid", message: "Token error: invalid_signature" } });
      }
    }

    const matches = DEERFLOW_CONTRACT.map((route) => ({ route, params: matchPath(route.path, path) })).filter(
      (match) => match.params,
    );
    if (matches.length === 0) return answer(404, { detail: "Not Found" });
    const match = matches.find((candidate) => candidate.route.method === request.method);
    if (!match?.params) return answer(405, { detail: "Method Not Allowed" });
    const { route, params } = match;
    record.route = route;

    if (params.thread_id !== undefined && !THREAD_ID_PATTERN.test(params.thread_id)) {
      return answer(422, { detail: [{ type: "string_pattern_mismatch", loc: ["path", "thread_id"] }] });
    }

    let body: unknown;
    if (route.body) {
      const text = await request.text();
      try {
        body = text ? JSON.parse(text) : {};
      } catch {
        return answer(422, { detail: [{ type: "json_invalid", loc: ["body"] }] });
      }
      const refusal = checkBody(route, body);
      if (refusal) return answer(422, { detail: [refusal] });
    } else if (route.form) {
      const form = await request.formData().catch(() => undefined);
      if (!form) return answer(422, { detail: [{ type: "missing", loc: ["body"] }] });
      body = form;
    }
    record.body = body;

    const raw = (response: Response): Response => {
      record.status = response.status;
      return response;
    };
    return answerRoute(route, params, body, url, answer, raw);
  };

  async function answerRoute(
    route: DeerflowRoute,
    params: Record<string, string>,
    body: unknown,
    url: URL,
    answer: (status: number, body: unknown, headers?: Record<string, string>) => Response,
    raw: (response: Response) => Response,
  ): Promise<Response> {
    const id = params.thread_id ?? "";
    const thread = threads.get(id);
    const json = (body ?? {}) as Record<string, unknown>;
    const now = new Date().toISOString();
    switch (`${route.method} ${route.path}`) {
      case "GET /health":
        return answer(200, { status: "healthy", service: "deer-flow-gateway" });
      case "POST /api/threads": {
        const threadId = typeof json.thread_id === "string" ? json.thread_id : crypto.randomUUID();
        const created = {
          thread_id: threadId,
          status: "idle",
          created_at: now,
          updated_at: now,
          metadata: json.metadata ?? {},
          values: {},
          interrupts: {},
        };
        threads.set(threadId, created);
        return answer(200, created);
      }
      case "POST /api/threads/search":
        return answer(200, [...threads.values()].slice(0, Number(json.limit ?? 100)));
      case "GET /api/threads/{thread_id}":
        return thread ? answer(200, thread) : answer(404, { detail: `Thread ${id} not found` });
      case "PATCH /api/threads/{thread_id}": {
        if (!thread) return answer(404, { detail: `Thread ${id} not found` });
        Object.assign(thread.metadata as object, json.metadata);
        thread.updated_at = now;
        return answer(200, thread);
      }
      case "DELETE /api/threads/{thread_id}":
        threads.delete(id);
        files.delete(id);
        return answer(200, { success: true, message: `Deleted local thread data for ${id}` });
      case "GET /api/threads/{thread_id}/state":
      case "POST /api/threads/{thread_id}/state":
        return answer(200, state(thread));
      case "POST /api/threads/{thread_id}/history":
        return answer(200, thread ? [{ ...state(thread), next: [] }] : []);
      case "POST /api/threads/{thread_id}/runs/stream":
      case "POST /api/runs/stream": {
        const runId = `run-${++runs}`;
        if (thread) thread.values = { messages: [{ type: "ai", id: "ai-1", content: "Hello from DeerFlow." }] };
        return raw(
          new Response(sse(runId, id), {
            headers: {
              "content-type": "text/event-stream",
              "content-location": `/api/threads/${id}/runs/${runId}`,
            },
          }),
        );
      }
      case "GET /api/threads/{thread_id}/runs/{run_id}/join":
      case "GET /api/threads/{thread_id}/runs/{run_id}/stream":
      case "POST /api/threads/{thread_id}/runs/{run_id}/stream":
        return raw(new Response(sse(params.run_id ?? "", id), { headers: { "content-type": "text/event-stream" } }));
      case "GET /api/threads/{thread_id}/runs":
        return answer(200, []);
      case "POST /api/threads/{thread_id}/runs/{run_id}/cancel":
        return answer(
          url.searchParams.get("wait") === "1" || url.searchParams.get("wait") === "true" ? 204 : 202,
          null,
        );
      case "POST /api/threads/{thread_id}/uploads": {
        const form = body as FormData;
        const parts = form.getAll("files").filter((part): part is File => part instanceof File);
        if (parts.length === 0) return answer(400, { detail: "No files provided" });
        const stored = files.get(id) ?? new Map<string, Uint8Array>();
        files.set(id, stored);
        const read = await Promise.all(
          parts.map(async (file) => [file, new Uint8Array(await file.arrayBuffer())] as const),
        );
        for (const [file, bytes] of read) stored.set(`mnt/user-data/uploads/${file.name}`, bytes);
        return answer(200, {
          success: true,
          files: read.map(([file, bytes]) => uploaded(id, file.name, bytes.length)),
          message: `Successfully uploaded ${read.length} file(s)`,
          skipped_files: [],
        });
      }
      case "GET /api/threads/{thread_id}/uploads/list": {
        const listed = [...(files.get(id) ?? new Map<string, Uint8Array>()).entries()]
          .filter(([path]) => path.startsWith("mnt/user-data/uploads/"))
          .map(([path, bytes]) => uploaded(id, path.split("/").pop() ?? "", bytes.length));
        return answer(200, { files: listed, count: listed.length });
      }
      case "GET /api/threads/{thread_id}/uploads/limits":
        return answer(200, { max_files: 10, max_file_size: 52428800, max_total_size: 104857600 });
      case "DELETE /api/threads/{thread_id}/uploads/{filename}": {
        const removed = files.get(id)?.delete(`mnt/user-data/uploads/${params.filename}`);
        return removed
          ? answer(200, { success: true, message: `Deleted ${params.filename}` })
          : answer(404, { detail: `File not found: ${params.filename}` });
      }
      case "GET /api/threads/{thread_id}/artifacts/{path:path}": {
        const bytes = files.get(id)?.get(params.path ?? "");
        if (!bytes) return answer(404, { detail: `Artifact not found: ${params.path}` });
        return raw(
          new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]), {
            headers: { "content-type": "text/plain; charset=utf-8" },
          }),
        );
      }
      case "GET /api/models":
        return answer(200, {
          models: [{ name: "mock", model: "mock-model", display_name: "Mock", supports_thinking: false }],
          token_usage: { enabled: false },
        });
      case "GET /api/features":
        return answer(200, {
          agents_api: { enabled: false },
          browser_control: { enabled: false },
          mcp_tasks: { enabled: false },
        });
      case "GET /api/memory":
        return answer(200, { version: "1.0", lastUpdated: "", user: {}, history: {}, facts: [] });
      case "GET /api/skills":
        return answer(200, { skills: [skill("deep-research", true)] });
      case "PUT /api/skills/{skill_name}":
        return answer(200, skill(params.skill_name ?? "", json.enabled === true));
      case "POST /api/threads/{thread_id}/suggestions":
        return answer(200, { suggestions: ["What next?"] });
      default:
        return answer(501, { detail: `The fake does not answer ${route.method} ${route.path}` });
    }
  }

  return { fetch: fetcher as typeof fetch, served, files };
}

/** auth_middleware.py's `_PUBLIC_PATH_PREFIXES` and `_PUBLIC_EXACT_PATHS`. */
export function isPublic(path: string): boolean {
  const exact = ["login/local", "register", "logout", "setup-status", "initialize", "providers"];
  if (exact.some((name) => path.replace(/\/+$/, "") === `/api/v1/auth/${name}`)) return true;
  const prefixes = ["/health", "/docs", "/redoc", "/openapi.json", "/api/v1/auth/oauth/", "/api/v1/auth/callback/"];
  return [...prefixes, "/api/webhooks/"].some((prefix) => path.startsWith(prefix));
}

/** What DeerFlow's pydantic models refuse: unknown fields of a closed model, missing required ones, option values. */
function checkBody(route: DeerflowRoute, body: unknown): Record<string, unknown> | undefined {
  if (!body || typeof body !== "object" || Array.isArray(body)) return { type: "model_attributes_type", loc: ["body"] };
  const fields = body as Record<string, unknown>;
  const spec = route.body;
  if (!spec) return undefined;
  for (const key of Object.keys(fields)) {
    if (spec.closed && !spec.fields.includes(key)) return { type: "extra_forbidden", loc: ["body", key] };
  }
  for (const key of spec.required ?? []) {
    if (!(key in fields)) return { type: "missing", loc: ["body", key] };
  }
  if (!spec.closed) {
    if (route.path === "/api/threads" && fields.thread_id !== undefined && fields.thread_id !== null) {
      if (typeof fields.thread_id !== "string" || !THREAD_ID_PATTERN.test(fields.thread_id)) {
        return { type: "string_pattern_mismatch", loc: ["body", "thread_id"] };
      }
    }
    return undefined;
  }
  for (const [key, allowed] of Object.entries(RUN_OPTION_VALUES)) {
    if (key in fields && !allowed.includes(fields[key])) return { type: "unsupported_run_option", loc: ["body", key] };
  }
  const modes = fields.stream_mode;
  if (modes !== undefined && modes !== null) {
    const list = Array.isArray(modes) ? modes : [modes];
    const unsupported = list.filter((mode) => typeof mode !== "string" || !STREAM_MODES.includes(mode));
    if (unsupported.length > 0) return { type: "unsupported_stream_mode", loc: ["body", "stream_mode"], unsupported };
  }
  return undefined;
}

function matchPath(template: string, path: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template.replace(/\{(\w+)(:path)?\}/g, (_all, name: string, rest?: string) => {
    names.push(name);
    return rest ? "(.+)" : "([^/]+)";
  });
  const found = new RegExp(`^${pattern}/?$`).exec(path);
  if (!found) return undefined;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(found[index + 1] ?? "")]));
}

function parseCookies(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (header ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at > 0) out[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return out;
}

function state(thread: Record<string, unknown> | undefined): Record<string, unknown> {
  return {
    values: thread?.values ?? {},
    next: [],
    metadata: {},
    checkpoint: { thread_id: thread?.thread_id, checkpoint_id: "cp-1" },
    checkpoint_id: "cp-1",
    parent_checkpoint_id: null,
    created_at: thread?.updated_at ?? null,
    tasks: [],
  };
}

/** DeerFlow's SSE frames (services.format_sse): `event:`, `data:`, a blank line; `messages` for messages-tuple. */
function sse(runId: string, threadId: string): string {
  const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  const message = { type: "ai", id: "ai-1", content: "Hello from DeerFlow." };
  return [
    frame("metadata", { run_id: runId, thread_id: threadId }),
    frame("messages", [{ ...message, type: "AIMessageChunk" }, { langgraph_node: "model" }]),
    frame("values", { messages: [message] }),
    frame("end", null),
  ].join("");
}

function uploaded(threadId: string, filename: string, size: number): Record<string, unknown> {
  return {
    filename,
    size,
    path: `/data/threads/${threadId}/user-data/uploads/${filename}`,
    virtual_path: `/mnt/user-data/uploads/${filename}`,
    artifact_url: `/api/threads/${threadId}/artifacts/mnt/user-data/uploads/${filename}`,
    extension: filename.includes(".") ? `.${filename.split(".").pop()}` : "",
    modified: 0,
  };
}

function skill(name: string, enabled: boolean): Record<string, unknown> {
  return { name, description: `The ${name} skill.`, license: null, category: "public", enabled, editable: false };
}
