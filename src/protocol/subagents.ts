// Subagents: the types the lead agent can delegate to with `task`, their settings, and the live events of a task.
import type { UsageMetadata, WireMessage } from "./messages.ts";

/** The lead agent's tool that delegates to a subagent. */
export const TASK_TOOL_NAME = "task";

/** A subagent type the user defined (Settings → Subagents), next to the built-in general-purpose and bash. */
export interface CustomSubagentType {
  /** Hyphen-case, 1–64 characters; not `general-purpose` or `bash`. */
  name: string;
  /** When the lead agent should pick it (one line in its prompt). */
  description: string;
  /** The subagent's own instructions (its system prompt). */
  instructions: string;
  /** The tools it may use, by name; absent means all a subagent may have. */
  tools?: string[];
  /** Model turns before it must stop (1–500). */
  maxTurns?: number;
  /** Seconds before it is stopped (10–7200). */
  timeoutSeconds?: number;
}

export interface SubagentSettings {
  /** Seconds a subagent may run before it is stopped, unless its type says otherwise (10–7200). */
  timeoutSeconds: number;
  /** `task` calls kept from one model response (1–4). */
  maxConcurrent: number;
  /** `task` calls allowed in one run (1–50). */
  maxPerRun: number;
  custom: CustomSubagentType[];
}

export const DEFAULT_SUBAGENT_SETTINGS: SubagentSettings = {
  timeoutSeconds: 900,
  maxConcurrent: 3,
  maxPerRun: 6,
  custom: [],
};

/** How a subagent's task ended (the `task` ToolMessage's artifact carries it). */
export type SubtaskStatus = "completed" | "failed" | "cancelled" | "timed_out";

/** Why a completed subagent stopped early. */
export type SubtaskStopReason = "turn_capped" | "loop_capped";

/** The `task` tool result's artifact: the subtask's outcome, for the card after a reload. */
export interface SubtaskOutcome {
  subagent_status: SubtaskStatus;
  subagent_type: string;
  subagent_stop_reason?: SubtaskStopReason;
  /** The result, head and tail kept within 2,000 characters. */
  subagent_result_brief?: string;
  subagent_error?: string;
  subagent_model_name?: string;
  subagent_token_usage?: UsageMetadata;
  /** The subagent's messages (AI turns and tool results), bounded, for the card's step list. */
  subagent_steps?: WireMessage[];
}

/** The `custom` run events a `task` streams, keyed by `task_id` (the `task` tool call's id). */
export type TaskEvent =
  | { type: "task_started"; task_id: string; description: string; subagent_type: string; model_name: string }
  | {
      type: "task_running";
      task_id: string;
      /** The subagent's latest message (an AI turn or a tool result). */
      message: WireMessage;
      /** 1-based position among the subagent's messages. */
      message_index: number;
      total_messages: number;
      /** Cumulative. */
      usage?: UsageMetadata;
      model_name: string;
    }
  | { type: "task_completed"; task_id: string; result: string; usage?: UsageMetadata; model_name: string }
  | { type: "task_failed"; task_id: string; error: string; usage?: UsageMetadata; model_name: string }
  | { type: "task_cancelled"; task_id: string; error?: string; usage?: UsageMetadata; model_name: string }
  | { type: "task_timed_out"; task_id: string; error?: string; usage?: UsageMetadata; model_name: string };

const TASK_EVENT_TYPES = new Set([
  "task_started",
  "task_running",
  "task_completed",
  "task_failed",
  "task_cancelled",
  "task_timed_out",
]);

/** True for a task event (custom events are read as untrusted data). */
export function isTaskEvent(value: unknown): value is TaskEvent {
  if (typeof value !== "object" || value === null) return false;
  const { type, task_id } = value as Record<string, unknown>;
  return typeof type === "string" && TASK_EVENT_TYPES.has(type) && typeof task_id === "string";
}
