// What a DeerFlow deployment needs from a client beyond LangGraph's API (docs/architecture.md#d13-workspaces), read
// from DeerFlow's backend (app/gateway: auth_middleware, csrf_middleware, run_models; the frontend's fetcher.ts):
// the session is the `access_token` cookie (a JWT; DeerFlow reads no Authorization header), every unsafe method
// carries the `csrf_token` cookie's value again in `X-CSRF-Token` (double submit), and a run's body holds only the
// fields and stream modes DeerFlow's `RunCreateRequest` (extra="forbid") accepts. `deerflowSession()` is the
// workspace's `kindFetch` for `kind === "deerflow"`; the constants are the route shapes the workspace relies on.
// A browser drops a `Cookie` header and keeps DeerFlow's cookies to DeerFlow's site, so there the session is the
// browser's own (a DeerFlow on Fawn's host, signed in) or none (DeerFlow's auth off); Node sends the token itself.

/** DeerFlow's session cookie: the JWT its login answers with (HttpOnly), the "access token" a user pastes. */
export const DEERFLOW_SESSION_COOKIE = "access_token";
/** The double-submit pair: the cookie DeerFlow sets at login, echoed in the header on unsafe methods. */
export const DEERFLOW_CSRF_COOKIE = "csrf_token";
export const DEERFLOW_CSRF_HEADER = "X-CSRF-Token";
/** The methods DeerFlow's CSRFMiddleware checks (all of them, on every path but auth and webhooks). */
export const DEERFLOW_CSRF_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The stream modes DeerFlow runs (`deerflow/runtime/stream_modes.py`); any other answers 422. */
export const DEERFLOW_STREAM_MODES = [
  "values",
  "messages-tuple",
  "updates",
  "debug",
  "tasks",
  "checkpoints",
  "custom",
] as const;
export type DeerflowStreamMode = (typeof DEERFLOW_STREAM_MODES)[number];

/** The fields of DeerFlow's run request (`app/gateway/run_models.py`, extra="forbid"): anything else answers 422. */
export const DEERFLOW_RUN_FIELDS: ReadonlySet<string> = new Set([
  "assistant_id",
  "input",
  "command",
  "metadata",
  "config",
  "context",
  "webhook",
  "checkpoint_id",
  "checkpoint",
  "interrupt_before",
  "interrupt_after",
  "stream_mode",
  "stream_subgraphs",
  "stream_resumable",
  "on_disconnect",
  "on_completion",
  "multitask_strategy",
  "after_seconds",
  "if_not_exists",
  "feedback_keys",
]);
/** The multitask strategies DeerFlow accepts ("enqueue" is LangGraph's only one it refuses). */
export const DEERFLOW_MULTITASK_STRATEGIES: ReadonlySet<string> = new Set(["reject", "rollback", "interrupt"]);

/**
 * Where DeerFlow answers, relative to the REST base (`<url>/api`, `serverBases(url, "deerflow").rest`). LangGraph's
 * API is the same gateway behind nginx's `/api/langgraph/* → /api/*` rewrite, so `/api/langgraph/threads/{id}` and
 * `/api/threads/{id}` are one route. DeerFlow has no `/info` and no `/ok`: `health` is at the server's root, public.
 */
export const DEERFLOW_ROUTES = {
  /** GET, no auth: `{ status: "healthy", service: "deer-flow-gateway" }`. At the root, not under `/api`. */
  health: "/health",
  /** GET: `{ models: [{ name, model, display_name?, description?, supports_thinking, … }], token_usage }`. */
  models: "/models",
  /** GET: `{ agents_api: { enabled }, browser_control: { enabled }, mcp_tasks: { enabled } }`. */
  features: "/features",
  /** GET: the user's memory document (`{ version, lastUpdated, user, history, facts }`). */
  memory: "/memory",
  /** GET: `{ skills: [{ name, description, license?, category, enabled, editable }] }`; PUT /skills/{name} `{ enabled }`. */
  skills: "/skills",
  skill: (name: string) => `/skills/${encodeURIComponent(name)}`,
  /** POST multipart, one `files` part per file: `{ success, files: [{ filename, size, path, virtual_path, artifact_url, … }], message }`. */
  uploads: (threadId: string) => `/threads/${encodeURIComponent(threadId)}/uploads`,
  /** GET: `{ files: [...as above], count }`. */
  uploadsList: (threadId: string) => `/threads/${encodeURIComponent(threadId)}/uploads/list`,
  /** DELETE. */
  upload: (threadId: string, filename: string) =>
    `/threads/${encodeURIComponent(threadId)}/uploads/${encodeURIComponent(filename)}`,
  /** GET the file's bytes (`?download=true` to save); `path` is virtual: `mnt/user-data/outputs/report.md`. */
  artifact: (threadId: string, path: string) =>
    `/threads/${encodeURIComponent(threadId)}/artifacts/${path
      .replace(/^\/+/, "")
      .split("/")
      .map((segment) => encodeURIComponent(segment))
      .join("/")}`,
  /** POST `{ messages: [{ role, content }], n, model_name? }` → `{ suggestions: string[] }`. */
  suggestions: (threadId: string) => `/threads/${encodeURIComponent(threadId)}/suggestions`,
  /** GET → `{ thread_id, total_tokens, … }`. */
  tokenUsage: (threadId: string) => `/threads/${encodeURIComponent(threadId)}/token-usage`,
  /** POST form `username`, `password`: sets the `access_token` and `csrf_token` cookies. */
  login: "/v1/auth/login/local",
} as const;

export interface DeerflowSessionOptions {
  /**
   * The session JWT. Without it, the token the request already carries (an `Authorization: Bearer` header, or the
   * SDK's `x-api-key`) is taken, so `serverFetch` and the SDK Client need nothing DeerFlow-specific.
   */
  token?: string;
  /**
   * The `csrf_token` cookie's value when the browser holds DeerFlow's session (a page on DeerFlow's own site can
   * read it). Without it, a fresh value is sent as both cookie and header, which only a client that may set
   * `Cookie` (Node, tests, curl) can do: browsers drop that header.
   */
  csrfToken?: () => string | undefined;
  /** A CSRF value for the double submit; tests pass a fixed one. */
  random?: () => string;
}

/**
 * The `kindFetch` for a DeerFlow deployment: each request goes with `credentials: "include"` (a browser sends its
 * own DeerFlow session when it has one), the token moves from the Bearer header into DeerFlow's session cookie,
 * unsafe methods carry the CSRF pair, and a run's JSON body keeps only what DeerFlow accepts.
 */
export function deerflowSession(options: DeerflowSessionOptions = {}): (fetcher: typeof fetch) => typeof fetch {
  return (fetcher) => {
    const csrf = options.csrfToken ? undefined : (options.random ?? randomCsrf)();
    return (input, init = {}) => {
      const request = input instanceof Request ? input : undefined;
      const url = request?.url ?? (input instanceof URL ? input.href : String(input));
      const method = (init.method ?? request?.method ?? "GET").toUpperCase();
      const headers = new Headers(init.headers ?? request?.headers);
      const token = options.token ?? takeRequestToken(headers);
      headers.delete("authorization");
      headers.delete("x-api-key");
      const cookies = headers.get("cookie") ? [headers.get("cookie")] : [];
      if (token) cookies.push(`${DEERFLOW_SESSION_COOKIE}=${token}`);
      if (DEERFLOW_CSRF_METHODS.has(method)) {
        const value = options.csrfToken ? options.csrfToken() : csrf;
        if (value && !options.csrfToken) cookies.push(`${DEERFLOW_CSRF_COOKIE}=${value}`);
        if (value && !headers.has(DEERFLOW_CSRF_HEADER)) headers.set(DEERFLOW_CSRF_HEADER, value);
      }
      if (cookies.length > 0) headers.set("cookie", cookies.join("; "));
      const body = init.body !== undefined ? init.body : request?.body;
      return fetcher(url, {
        ...init,
        method,
        headers,
        body: isRunCreatePath(url, method) ? deerflowRunBody(body) : body,
        signal: init.signal ?? request?.signal,
        credentials: "include",
        ...(request?.body && init.body === undefined ? { duplex: "half" } : {}),
      });
    };
  };
}

/** The run routes whose body is DeerFlow's RunCreateRequest: `/threads/{id}/runs`, `…/runs/stream`, `…/runs/wait`, `/runs/stream`. */
function isRunCreatePath(url: string, method: string): boolean {
  if (method !== "POST") return false;
  const path = new URL(url, "http://x").pathname;
  return /\/(threads\/[^/]+\/)?runs(\/stream|\/wait)?$/.test(path);
}

/**
 * A run's JSON body as DeerFlow takes it: fields it does not know dropped (the SDK's `checkpoint_during`,
 * `durability`), LangGraph's `messages` stream mode sent as `messages-tuple` and modes it lacks left out (`values`
 * when none is left), a resumable stream and an `enqueue` strategy asked as DeerFlow's defaults, and
 * `on_disconnect: "continue"` unless asked otherwise: DeerFlow cancels a run whose stream drops by default, and a
 * run must outlive a phone that sleeps (Stop cancels it explicitly). Other bodies pass unchanged.
 */
export function deerflowRunBody(body: BodyInit | null | undefined): BodyInit | null | undefined {
  if (typeof body !== "string") return body;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return body;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return body;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    if (DEERFLOW_RUN_FIELDS.has(key)) out[key] = field;
  }
  out.on_disconnect ??= "continue";
  if (out.stream_mode !== undefined && out.stream_mode !== null) out.stream_mode = deerflowStreamModes(out.stream_mode);
  if (out.stream_resumable !== undefined && out.stream_resumable !== null) out.stream_resumable = false;
  if (typeof out.multitask_strategy === "string" && !DEERFLOW_MULTITASK_STRATEGIES.has(out.multitask_strategy)) {
    delete out.multitask_strategy;
  }
  if (out.if_not_exists !== undefined && out.if_not_exists !== "create") delete out.if_not_exists;
  for (const key of ["webhook", "on_completion", "after_seconds", "feedback_keys"]) {
    if (out[key] !== undefined && out[key] !== null) delete out[key];
  }
  return JSON.stringify(out);
}

/** The stream modes asked, as DeerFlow runs them: `messages` → `messages-tuple`, the unknown left out. */
export function deerflowStreamModes(modes: unknown): DeerflowStreamMode[] {
  const asked = Array.isArray(modes) ? modes : [modes];
  const out: DeerflowStreamMode[] = [];
  for (const mode of asked) {
    const mapped = mode === "messages" ? "messages-tuple" : mode;
    if (isDeerflowStreamMode(mapped) && !out.includes(mapped)) out.push(mapped);
  }
  return out.length > 0 ? out : ["values"];
}

export function isDeerflowStreamMode(mode: unknown): mode is DeerflowStreamMode {
  return typeof mode === "string" && (DEERFLOW_STREAM_MODES as readonly string[]).includes(mode);
}

/**
 * One sentence for a DeerFlow refusal the user can act on, or undefined when the status is not one of DeerFlow's
 * session answers. `detail` is the answer's `detail` (a string, or `{ code, message }` from the auth middleware).
 */
export function deerflowRefusal(status: number, detail: unknown, serverName: string): string | undefined {
  const text =
    typeof detail === "string"
      ? detail
      : detail && typeof detail === "object" && "message" in detail
        ? String((detail as { message: unknown }).message)
        : "";
  if (status === 401) {
    return `${serverName} refused the access token: DeerFlow signs in with its access_token cookie, which a browser sends only to a DeerFlow on Fawn's own host after you sign in there (or none is needed when its auth is off).`;
  }
  if (status === 403 && /csrf/i.test(text)) {
    return `${serverName} refused the change: DeerFlow needs its session's CSRF token, which a browser shares only with pages on DeerFlow's own host.`;
  }
  return undefined;
}

function takeRequestToken(headers: Headers): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.get("authorization") ?? "")?.[1]?.trim();
  return bearer || headers.get("x-api-key")?.trim() || undefined;
}

function randomCsrf(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
