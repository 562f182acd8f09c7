// The run stream: LangGraph's stream events as a tagged union of plain data (docs/architecture.md#d4-protocol).
import type { AiWireMessageChunk, ToolWireMessage, WireMessage } from "./messages.ts";

export interface RunMetadata {
  run_id: string;
  thread_id: string;
}

/** Metadata LangGraph attaches to each `messages` delta; only the keys clients use are typed. */
export interface MessageStreamMetadata {
  langgraph_node?: string;
  langgraph_step?: number;
  [key: string]: unknown;
}

export type RunEndStatus = "success" | "error" | "interrupted";

/** A failure the user can read; `code` lets the UI pick a remedy. */
export interface RunError {
  error: RunErrorCode;
  message: string;
}

/** Every RunError code, for a reader checking one that came from elsewhere (a server's stream or answer). */
export const RUN_ERROR_CODES = [
  "not_configured",
  "authentication",
  "not_found",
  "rate_limited",
  "unreachable",
  "proxy_refused",
  "server_error",
  "busy",
  "storage_full",
  "bad_request",
  "unknown",
] as const;

export type RunErrorCode = (typeof RUN_ERROR_CODES)[number];

export type RunEvent =
  | { event: "metadata"; data: RunMetadata }
  | { event: "values"; data: { messages: WireMessage[] } & Record<string, unknown> }
  /** A piece of the model's reply, or a tool call's whole result as soon as that call ends. */
  | { event: "messages"; data: [AiWireMessageChunk | ToolWireMessage, MessageStreamMetadata] }
  | { event: "updates"; data: Record<string, unknown> }
  | { event: "custom"; data: unknown }
  | { event: "error"; data: RunError }
  | { event: "end"; data: { status: RunEndStatus } };

/**
 * A `custom` run event: a model call failed in a way worth another try, which comes after about `delay_ms`
 * (retry `attempt` of `retries`); `reason` is the code the run would end with if the tries run out.
 */
export interface ModelRetryEvent {
  type: "model_retry";
  attempt: number;
  retries: number;
  delay_ms: number;
  reason: RunErrorCode;
}

/** True for a model retry event (custom events are read as untrusted data). */
export function isModelRetryEvent(value: unknown): value is ModelRetryEvent {
  if (typeof value !== "object" || value === null) return false;
  const { type, attempt, retries, delay_ms, reason } = value as Record<string, unknown>;
  return (
    type === "model_retry" &&
    typeof attempt === "number" &&
    typeof retries === "number" &&
    typeof delay_ms === "number" &&
    typeof reason === "string"
  );
}

/**
 * A `custom` run event: what a model on this device is doing before its reply's first word, which can take minutes
 * on a CPU. `waiting`: another reply has the model; `loading`: its file is being loaded; `reading`: it has read
 * `processed` of the prompt's `total` tokens (those it remembered from the thread's last call included).
 */
export interface ModelProgressEvent {
  type: "model_progress";
  stage: "waiting" | "loading" | "reading";
  processed?: number;
  total?: number;
}

const MODEL_PROGRESS_STAGES: readonly string[] = [
  "waiting",
  "loading",
  "reading",
] satisfies ModelProgressEvent["stage"][];

/** True for a model progress event (custom events are read as untrusted data). */
export function isModelProgressEvent(value: unknown): value is ModelProgressEvent {
  if (typeof value !== "object" || value === null) return false;
  const { type, stage, processed, total } = value as Record<string, unknown>;
  const count = (n: unknown) => n === undefined || (typeof n === "number" && Number.isFinite(n) && n >= 0);
  return (
    type === "model_progress" &&
    typeof stage === "string" &&
    MODEL_PROGRESS_STAGES.includes(stage) &&
    count(processed) &&
    count(total)
  );
}
