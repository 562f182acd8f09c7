// The run stream: LangGraph's stream events as a tagged union of plain data (DESIGN.md D4).
import type { AiWireMessageChunk, WireMessage } from "./messages.ts";

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

export type RunErrorCode =
  | "not_configured"
  | "authentication"
  | "not_found"
  | "rate_limited"
  | "unreachable"
  | "proxy_refused"
  | "server_error"
  | "busy"
  | "storage_full"
  | "bad_request"
  | "unknown";

export type RunEvent =
  | { event: "metadata"; data: RunMetadata }
  | { event: "values"; data: { messages: WireMessage[] } & Record<string, unknown> }
  | { event: "messages"; data: [AiWireMessageChunk, MessageStreamMetadata] }
  | { event: "updates"; data: Record<string, unknown> }
  | { event: "custom"; data: unknown }
  | { event: "error"; data: RunError }
  | { event: "end"; data: { status: RunEndStatus } };
