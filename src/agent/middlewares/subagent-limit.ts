// DeerFlow's SubagentLimitMiddleware: the model may ask for more subagents than allowed; after each model call, the
// `task` calls beyond the per-response concurrency, or beyond what the run has left of its total, are removed
// (other tool calls are untouched). When the run has none left, a visible note says so.
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import { createMiddleware } from "langchain";
import { TASK_TOOL_NAME } from "../../protocol/index.ts";
import { currentRunMessages, withToolCalls } from "./loop-detection.ts";

export { TASK_TOOL_NAME };
/** `task` calls kept from one model response; clamped to 1–4. */
export const SUBAGENT_CONCURRENCY_DEFAULT = 3;
export const SUBAGENT_CONCURRENCY_MIN = 1;
export const SUBAGENT_CONCURRENCY_MAX = 4;
/** `task` calls allowed in one run (from one user message to the answer); clamped to 1–50. */
export const SUBAGENT_RUN_TOTAL_DEFAULT = 6;
export const SUBAGENT_RUN_TOTAL_MIN = 1;
export const SUBAGENT_RUN_TOTAL_MAX = 50;

export interface SubagentLimitOptions {
  maxConcurrent?: number;
  maxTotal?: number;
}

function clamp(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(value)));
}

/** The options with defaults filled in and each clamped to its range. */
export function subagentLimits(options: SubagentLimitOptions = {}): Required<SubagentLimitOptions> {
  return {
    maxConcurrent: clamp(
      options.maxConcurrent,
      SUBAGENT_CONCURRENCY_DEFAULT,
      SUBAGENT_CONCURRENCY_MIN,
      SUBAGENT_CONCURRENCY_MAX,
    ),
    maxTotal: clamp(options.maxTotal, SUBAGENT_RUN_TOTAL_DEFAULT, SUBAGENT_RUN_TOTAL_MIN, SUBAGENT_RUN_TOTAL_MAX),
  };
}

/** The visible note on a response whose subagent tasks were all refused. */
export function subagentLimitNote(maxTotal: number): string {
  return (
    `[Subagent limit reached] This run has already started ${maxTotal} subagent tasks, the most it may. ` +
    "Carry on without delegating, or answer with what you have."
  );
}

const isTask = (call: ToolCall) => call.name === TASK_TOOL_NAME;

/**
 * The latest AI message with its `task` calls cut to what the limits allow, or undefined when it needs no change.
 * Earlier `task` calls of the current run (after the user's latest message) count against `maxTotal`.
 */
export function limitTaskCalls(
  messages: readonly BaseMessage[],
  options: SubagentLimitOptions = {},
): AIMessage | undefined {
  const { maxConcurrent, maxTotal } = subagentLimits(options);
  const last = messages.at(-1);
  if (last === undefined || !AIMessage.isInstance(last)) return undefined;
  const tasks = (last.tool_calls ?? []).filter(isTask);
  if (tasks.length === 0) return undefined;
  const earlier = currentRunMessages(messages)
    .slice(0, -1)
    .flatMap((message) => (AIMessage.isInstance(message) ? (message.tool_calls ?? []) : []))
    .filter(isTask).length;
  const remaining = Math.max(0, maxTotal - earlier);
  const allowed = Math.min(maxConcurrent, remaining);
  if (tasks.length <= allowed) return undefined;
  const kept = new Set(tasks.slice(0, allowed));
  return withToolCalls(
    last,
    (call) => !isTask(call) || kept.has(call),
    remaining === 0 ? subagentLimitNote(maxTotal) : undefined,
  );
}

/** Cuts excess `task` calls from each model response before any of them starts. */
export function subagentLimitMiddleware(options: SubagentLimitOptions = {}) {
  const limits = subagentLimits(options);
  return createMiddleware({
    name: "SubagentLimitMiddleware",
    afterModel: (state) => {
      const limited = limitTaskCalls(state.messages, limits);
      return limited ? { messages: [limited] } : undefined;
    },
  });
}
