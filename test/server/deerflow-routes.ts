// DeerFlow's route contract as a server workspace meets it: the routes of DeerFlow's FastAPI gateway a Fawn workspace
// calls, with the request fields each accepts and the answer fields the workspace reads. Written by hand from
// bytedance/deer-flow's backend (app/gateway/routers/*.py, run_models.py, auth_middleware.py, csrf_middleware.py) at
// commit f1f4af99b; data, not DeerFlow's code. deerflow-contract.test.ts serves it as a fake deployment and drives
// the workspace's clients at it, so CI checks the contract without DeerFlow.
export type DeerflowMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface DeerflowRoute {
  method: DeerflowMethod;
  /** The gateway's path; `{name}` is one segment, `{path:path}` the rest. nginx maps `/api/langgraph/*` here too. */
  path: string;
  /** DeerFlow's source file that declares it (below backend/app/gateway/). */
  source: string;
  /** "public" routes need no session (auth_middleware `_PUBLIC_*`); the rest need the `access_token` cookie. */
  auth: "public" | "session";
  /** The JSON body's fields DeerFlow reads; `closed` when its model is extra="forbid" (others answer 422). */
  body?: { fields: readonly string[]; required?: readonly string[]; closed?: boolean };
  /** A multipart body with these file parts (`files`) or a form (login). */
  form?: { fields: readonly string[] };
  /** Query parameters DeerFlow reads (others are ignored). */
  query?: readonly string[];
  /** The answer's fields the workspace reads. `[]` for a list answer names the item's. */
  answer: readonly string[];
  /** What the answer is: JSON (default), an SSE stream, bytes, or nothing (204). */
  answers?: "json" | "sse" | "bytes" | "empty";
}

const THREAD = ["thread_id", "status", "created_at", "updated_at", "metadata", "values", "interrupts"] as const;
const STATE = [
  "values",
  "next",
  "metadata",
  "checkpoint",
  "checkpoint_id",
  "parent_checkpoint_id",
  "created_at",
  "tasks",
];
const RUN = ["run_id", "thread_id", "assistant_id", "status", "metadata", "created_at", "updated_at"];
const UPLOADED = ["filename", "size", "path", "virtual_path", "artifact_url", "extension", "modified"];
/** `RunCreateRequest` (app/gateway/run_models.py): extra="forbid". */
const RUN_BODY = {
  fields: [
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
  ],
  closed: true,
};

/** Run options DeerFlow takes only at these values (`reject_unsupported_run_options`); others answer 422. */
export const RUN_OPTION_VALUES: Readonly<Record<string, readonly unknown[]>> = {
  webhook: [null],
  on_completion: [null],
  after_seconds: [null],
  feedback_keys: [null],
  stream_resumable: [null, false],
  if_not_exists: ["create"],
  multitask_strategy: ["reject", "rollback", "interrupt"],
  on_disconnect: ["cancel", "continue"],
};

/** Stream modes DeerFlow accepts (`deerflow/runtime/stream_modes.py`); the SSE event for `messages-tuple` is `messages`. */
export const STREAM_MODES: readonly string[] = [
  "values",
  "messages-tuple",
  "updates",
  "debug",
  "tasks",
  "checkpoints",
  "custom",
];

export const DEERFLOW_CONTRACT: readonly DeerflowRoute[] = [
  { method: "GET", path: "/health", source: "app.py", auth: "public", answer: ["status", "service"] },
  {
    method: "POST",
    path: "/api/v1/auth/login/local",
    source: "routers/auth.py",
    auth: "public",
    form: { fields: ["username", "password", "remember_me"] },
    answer: ["expires_in", "needs_setup"],
  },
  { method: "GET", path: "/api/v1/auth/me", source: "routers/auth.py", auth: "session", answer: ["id", "email"] },
  // Threads (routers/threads.py; LangGraph's API under /api/langgraph through nginx's rewrite).
  {
    method: "POST",
    path: "/api/threads",
    source: "routers/threads.py",
    auth: "session",
    body: { fields: ["thread_id", "assistant_id", "metadata"] },
    answer: THREAD,
  },
  {
    method: "POST",
    path: "/api/threads/search",
    source: "routers/threads.py",
    auth: "session",
    body: { fields: ["metadata", "limit", "offset", "status"] },
    answer: THREAD,
  },
  { method: "GET", path: "/api/threads/{thread_id}", source: "routers/threads.py", auth: "session", answer: THREAD },
  {
    method: "PATCH",
    path: "/api/threads/{thread_id}",
    source: "routers/threads.py",
    auth: "session",
    body: { fields: ["metadata"] },
    answer: THREAD,
  },
  {
    method: "DELETE",
    path: "/api/threads/{thread_id}",
    source: "routers/threads.py",
    auth: "session",
    answer: ["success", "message"],
  },
  {
    method: "GET",
    path: "/api/threads/{thread_id}/state",
    source: "routers/threads.py",
    auth: "session",
    answer: STATE,
  },
  {
    method: "POST",
    path: "/api/threads/{thread_id}/state",
    source: "routers/threads.py",
    auth: "session",
    body: { fields: ["values", "checkpoint_id", "checkpoint", "as_node"] },
    answer: STATE,
  },
  {
    method: "POST",
    path: "/api/threads/{thread_id}/history",
    source: "routers/threads.py",
    auth: "session",
    body: { fields: ["limit", "before"] },
    answer: ["checkpoint_id", "parent_checkpoint_id", "metadata", "values", "created_at", "next"],
  },
  // Runs (routers/thread_runs.py, routers/runs.py).
  {
    method: "POST",
    path: "/api/threads/{thread_id}/runs",
    source: "routers/thread_runs.py",
    auth: "session",
    body: RUN_BODY,
    answer: RUN,
  },
  {
    method: "POST",
    path: "/api/threads/{thread_id}/runs/stream",
    source: "routers/thread_runs.py",
    auth: "session",
    body: RUN_BODY,
    answer: [],
    answers: "sse",
  },
  {
    method: "POST",
    path: "/api/threads/{thread_id}/runs/wait",
    source: "routers/thread_runs.py",
    auth: "session",
    body: RUN_BODY,
    answer: [],
  },
  {
    method: "GET",
    path: "/api/threads/{thread_id}/runs",
    source: "routers/thread_runs.py",
    auth: "session",
    answer: RUN,
  },
  {
    method: "GET",
    path: "/api/threads/{thread_id}/runs/{run_id}",
    source: "routers/thread_runs.py",
    auth: "session",
    answer: RUN,
  },
  {
    method: "POST",
    path: "/api/threads/{thread_id}/runs/{run_id}/cancel",
    source: "routers/thread_runs.py",
    auth: "session",
    query: ["wait", "action"],
    answer: [],
    answers: "empty",
  },
  {
    method: "GET",
    path: "/api/threads/{thread_id}/runs/{run_id}/join",
    source: "routers/thread_runs.py",
    auth: "session",
    answer: [],
    answers: "sse",
  },
  {
    method: "GET",
    path: "/api/threads/{thread_id}/runs/{run_id}/stream",
    source: "routers/thread_runs.py",
    auth: "session",
    query: ["action", "wait"],
    answer: [],
    answers: "sse",
  },
  {
    method: "POST",
    path: "/api/threads/{thread_id}/runs/{run_id}/stream",
    source: "routers/thread_runs.py",
    auth: "session",
    query: ["action", "wait"],
    answer: [],
    answers: "sse",
  },
  {
    method: "GET",
    path: "/api/threads/{thread_id}/token-usage",
    source: "routers/thread_runs.py",
    auth: "session",
    query: ["include_active"],
    answer: ["thread_id", "total_tokens", "context_usage"],
  },
  {
    method: "POST",
    path: "/api/runs/stream",
    source: "routers/runs.py",
    auth: "session",
    body: RUN_BODY,
    answer: [],
    answers: "sse",
  },
  // Files (routers/uploads.py, routers/artifacts.py).
  {
    method: "POST",
    path: "/api/threads/{thread_id}/uploads",
    source: "routers/uploads.py",
    auth: "session",
    form: { fields: ["files"] },
    answer: ["success", "files", "message", ...UPLOADED.map((field) => `files.${field}`)],
  },
  {
    method: "GET",
    path: "/api/threads/{thread_id}/uploads/list",
    source: "routers/uploads.py",
    auth: "session",
    answer: ["files", "count", ...UPLOADED.map((field) => `files.${field}`)],
  },
  {
    method: "GET",
    path: "/api/threads/{thread_id}/uploads/limits",
    source: "routers/uploads.py",
    auth: "session",
    answer: ["max_files", "max_file_size", "max_total_size"],
  },
  {
    method: "DELETE",
    path: "/api/threads/{thread_id}/uploads/{filename}",
    source: "routers/uploads.py",
    auth: "session",
    answer: ["success", "message"],
  },
  {
    method: "GET",
    path: "/api/threads/{thread_id}/artifacts/{path:path}",
    source: "routers/artifacts.py",
    auth: "session",
    query: ["download"],
    answer: [],
    answers: "bytes",
  },
  {
    method: "PUT",
    path: "/api/threads/{thread_id}/artifacts/{path:path}",
    source: "routers/artifacts.py",
    auth: "session",
    body: { fields: ["content", "expected_sha256"], required: ["content", "expected_sha256"] },
    answer: ["path", "sha256", "size"],
  },
  // The rest of the REST routes a workspace reads.
  {
    method: "GET",
    path: "/api/models",
    source: "routers/models.py",
    auth: "session",
    answer: ["models", "token_usage", "models.name", "models.display_name", "models.supports_thinking"],
  },
  {
    method: "GET",
    path: "/api/features",
    source: "routers/features.py",
    auth: "session",
    answer: ["agents_api", "browser_control", "mcp_tasks"],
  },
  {
    method: "GET",
    path: "/api/memory",
    source: "routers/memory.py",
    auth: "session",
    answer: ["version", "lastUpdated", "user", "history", "facts"],
  },
  {
    method: "GET",
    path: "/api/memory/config",
    source: "routers/memory.py",
    auth: "session",
    answer: ["enabled", "injection_enabled"],
  },
  {
    method: "GET",
    path: "/api/skills",
    source: "routers/skills.py",
    auth: "session",
    answer: ["skills", "skills.name", "skills.description", "skills.category", "skills.enabled"],
  },
  {
    method: "PUT",
    path: "/api/skills/{skill_name}",
    source: "routers/skills.py",
    auth: "session",
    body: { fields: ["enabled"], required: ["enabled"] },
    answer: ["name", "description", "category", "enabled"],
  },
  {
    method: "GET",
    path: "/api/suggestions/config",
    source: "routers/suggestions.py",
    auth: "session",
    answer: ["enabled", "max_suggestions"],
  },
  {
    method: "POST",
    path: "/api/threads/{thread_id}/suggestions",
    source: "routers/suggestions.py",
    auth: "session",
    body: { fields: ["messages", "n", "model_name"], required: ["messages"] },
    answer: ["suggestions"],
  },
  {
    method: "POST",
    path: "/api/assistants/search",
    source: "routers/assistants_compat.py",
    auth: "session",
    body: { fields: ["graph_id", "name", "metadata", "limit", "offset"] },
    answer: ["assistant_id", "graph_id", "name"],
  },
  {
    method: "GET",
    path: "/api/assistants/{assistant_id}",
    source: "routers/assistants_compat.py",
    auth: "session",
    answer: ["assistant_id", "graph_id", "name"],
  },
];

/** Thread ids DeerFlow accepts (`deerflow/utils/thread_id.py`): a client-made id must fit. */
export const THREAD_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Routes Fawn's server has and DeerFlow lacks: a DeerFlow workspace must not call them (it says unavailable). */
export const FAWN_ONLY_PATHS: readonly string[] = [
  "/api/fawn/",
  "/api/threads/{thread_id}/approvals/{approval_id}",
  "/api/threads/{thread_id}/memory",
  "/api/info",
  "/api/ok",
];
