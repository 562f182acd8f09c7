// Subtask cards' state, free of the DOM: built from `task` calls and their results, advanced by live task events.
import {
  contentText,
  TASK_TOOL_NAME,
  type SubtaskStatus,
  type SubtaskStopReason,
  type TaskEvent,
  type UsageMetadata,
  type WireMessage,
  type WireToolCall,
} from "../../protocol/index.ts";
import { t } from "../i18n/index.ts";

export { TASK_TOOL_NAME };

/** Where a subtask stands: `pending` until its first event, then `running`, then how it ended. */
export type SubtaskViewStatus = "pending" | "running" | SubtaskStatus;

/** One `task` call as its card shows it. Plain data: the UI replaces it, never mutates it. */
export interface Subtask {
  /** The `task` tool call's id (the events' `task_id`). */
  id: string;
  description: string;
  subagentType: string;
  prompt: string;
  status: SubtaskViewStatus;
  /** The subagent's messages (AI turns and tool results), in order. */
  steps: WireMessage[];
  /** Each step's 1-based `message_index`, ascending, beside `steps`: a replayed step is not added twice. */
  stepIndexes: number[];
  result?: string;
  error?: string;
  modelName?: string;
  /** Cumulative token usage of the subagent. */
  usage?: UsageMetadata;
  stopReason?: SubtaskStopReason;
}

export type Subtasks = ReadonlyMap<string, Subtask>;

const TERMINAL: ReadonlySet<SubtaskViewStatus> = new Set(["completed", "failed", "cancelled", "timed_out"]);
const MESSAGE_TYPES: ReadonlySet<unknown> = new Set(["human", "ai", "tool", "system"]);
const STOP_REASONS: ReadonlySet<unknown> = new Set(["turn_capped", "loop_capped"]);

export function isTerminal(status: SubtaskViewStatus): status is SubtaskStatus {
  return TERMINAL.has(status);
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function isUsage(value: unknown): value is UsageMetadata {
  if (typeof value !== "object" || value === null) return false;
  const usage = value as Record<string, unknown>;
  return (
    typeof usage.input_tokens === "number" &&
    typeof usage.output_tokens === "number" &&
    typeof usage.total_tokens === "number"
  );
}

/** Enough of a wire message to show as a step (saved artifacts and events are read as untrusted data). */
function isWireMessage(value: unknown): value is WireMessage {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Record<string, unknown>;
  return MESSAGE_TYPES.has(message.type) && (typeof message.content === "string" || Array.isArray(message.content));
}

/** A subtask as its `task` call describes it, before anything ran. */
export function subtaskOfCall(call: WireToolCall): Subtask {
  const prompt = text(call.args.prompt) ?? "";
  const description =
    text(call.args.description)?.trim() || prompt.split("\n")[0]!.slice(0, 80) || t("subtasks.untitled");
  return {
    id: call.id,
    description,
    subagentType: text(call.args.subagent_type) || "general-purpose",
    prompt,
    status: "pending",
    steps: [],
    stepIndexes: [],
  };
}

type Outcome = Pick<Subtask, "status" | "result" | "error" | "modelName" | "usage" | "stopReason"> & {
  steps?: WireMessage[];
};

/** The outcome a `task` result's artifact carries (`SubtaskOutcome`), or undefined when it carries none. */
function outcomeOfArtifact(artifact: unknown): Outcome | undefined {
  if (typeof artifact !== "object" || artifact === null) return undefined;
  const fields = artifact as Record<string, unknown>;
  const status = fields.subagent_status;
  if (typeof status !== "string" || !TERMINAL.has(status as SubtaskViewStatus)) return undefined;
  const result = text(fields.subagent_result_brief);
  const error = text(fields.subagent_error);
  const modelName = text(fields.subagent_model_name);
  const usage = fields.subagent_token_usage;
  const stopReason = fields.subagent_stop_reason;
  const steps = fields.subagent_steps;
  return {
    status: status as SubtaskStatus,
    ...(result !== undefined && { result }),
    ...(error !== undefined && { error }),
    ...(modelName && { modelName }),
    ...(isUsage(usage) && { usage }),
    ...(STOP_REASONS.has(stopReason) && { stopReason: stopReason as SubtaskStopReason }),
    ...(Array.isArray(steps) && { steps: steps.filter(isWireMessage) }),
  };
}

/** What follows a legacy prefix, or undefined when there is nothing. */
const rest = (value: string | undefined): string | undefined => value?.trim() || undefined;

/**
 * The outcome DeerFlow's `task` result text states (threads from before the artifact existed, or imported from
 * DeerFlow): `Task Succeeded. Result: …`, `Task failed. Error: …`, `Task cancelled by user.`, `Task timed out. …`,
 * `Error: …`. Any other text is the result of a task that ended, unless the result is marked as an error.
 */
export function outcomeOfText(content: string, failed = false): Outcome {
  const source = content.trim();
  let match = /^Task Succeeded(?: \([^)]*\))?\.\s*(?:Result:)?([\s\S]*)$/i.exec(source);
  if (match) return { status: "completed", result: match[1]!.trim() };
  match = /^Task cancelled(?: by user)?\.?(?:\s*Error:)?([\s\S]*)$/i.exec(source);
  if (match) {
    const error = rest(match[1]);
    return { status: "cancelled", ...(error && { error }) };
  }
  match = /^Task timed out\.?(?:\s*Error:)?([\s\S]*)$/i.exec(source);
  if (match) {
    const error = rest(match[1]);
    return { status: "timed_out", ...(error && { error }) };
  }
  if (/^Task polling timed out\b/i.test(source)) return { status: "timed_out", error: source };
  match = /^(?:Task failed\.?\s*)?Error:([\s\S]*)$/i.exec(source) ?? /^Task failed\.?([\s\S]*)$/i.exec(source);
  if (match) return { status: "failed", error: rest(match[1]) ?? source };
  return failed ? { status: "failed", error: source } : { status: "completed", result: source };
}

function withOutcome(subtask: Subtask, outcome: Outcome): Subtask {
  const { steps, ...rest } = outcome;
  const next: Subtask = { ...subtask, ...rest };
  if (steps && steps.length > 0) {
    next.steps = steps;
    next.stepIndexes = steps.map((_, index) => index + 1);
  }
  return next;
}

/**
 * The subtasks of saved messages, by `task` call id: each call's description, prompt and type, and, once its result
 * exists, how it ended (the result's artifact first; its text only when there is no artifact).
 */
export function subtasksFromMessages(messages: readonly WireMessage[]): Map<string, Subtask> {
  const subtasks = new Map<string, Subtask>();
  for (const message of messages) {
    if (message.type === "ai") {
      for (const call of message.tool_calls ?? []) {
        if (call.name === TASK_TOOL_NAME) subtasks.set(call.id, subtaskOfCall(call));
      }
    } else if (message.type === "tool") {
      const subtask = subtasks.get(message.tool_call_id);
      if (!subtask) continue;
      const outcome =
        outcomeOfArtifact(message.artifact) ?? outcomeOfText(contentText(message.content), message.status === "error");
      subtasks.set(subtask.id, withOutcome(subtask, outcome));
    }
  }
  return subtasks;
}

/** A subtask known only from its events (its call has not been seen yet). */
function subtaskOfEvent(event: TaskEvent): Subtask {
  const started = event.type === "task_started" ? event : undefined;
  return {
    id: event.task_id,
    description: text(started?.description) ?? "",
    subagentType: text(started?.subagent_type) ?? "",
    prompt: "",
    status: "pending",
    steps: [],
    stepIndexes: [],
  };
}

/** `steps` with `message` at its 1-based `index`, unless a step already holds that index. */
function withStep(subtask: Subtask, message: WireMessage, index: number): Subtask {
  if (subtask.stepIndexes.includes(index)) return subtask;
  let at = subtask.stepIndexes.length;
  while (at > 0 && subtask.stepIndexes[at - 1]! > index) at--;
  return {
    ...subtask,
    steps: subtask.steps.toSpliced(at, 0, message),
    stepIndexes: subtask.stepIndexes.toSpliced(at, 0, index),
  };
}

function withUsage(subtask: Subtask, event: TaskEvent): Subtask {
  const fields = event as unknown as Record<string, unknown>;
  const modelName = text(fields.model_name);
  return {
    ...subtask,
    ...(modelName && { modelName }),
    ...(isUsage(fields.usage) && { usage: fields.usage }),
  };
}

/**
 * The subtask after `event`, or `subtask` itself when the event changes nothing: an event for a task that already
 * ended is ignored, and a step whose `message_index` was seen is not added again.
 */
export function nextSubtask(subtask: Subtask | undefined, event: TaskEvent): Subtask {
  const current = subtask ?? subtaskOfEvent(event);
  if (isTerminal(current.status)) return current;
  const fields = event as unknown as Record<string, unknown>;
  switch (event.type) {
    case "task_started":
      return withUsage(
        {
          ...current,
          status: "running",
          description: current.description || (text(fields.description) ?? ""),
          subagentType: current.subagentType || (text(fields.subagent_type) ?? ""),
        },
        event,
      );
    case "task_running": {
      const running = withUsage({ ...current, status: "running" }, event);
      if (!isWireMessage(fields.message)) return running;
      const index =
        typeof fields.message_index === "number" && Number.isInteger(fields.message_index)
          ? fields.message_index
          : (running.stepIndexes.at(-1) ?? 0) + 1;
      return withStep(running, fields.message, index);
    }
    case "task_completed": {
      const result = text(fields.result);
      return withUsage({ ...current, status: "completed", ...(result !== undefined && { result }) }, event);
    }
    case "task_failed":
    case "task_cancelled":
    case "task_timed_out": {
      const status =
        event.type === "task_failed" ? "failed" : event.type === "task_cancelled" ? "cancelled" : "timed_out";
      const error = text(fields.error);
      return withUsage({ ...current, status, ...(error && { error }) }, event);
    }
  }
}

/** `subtasks` after `event` (the same map when nothing changed); an event for an unknown task adds it. */
export function applyTaskEvent(subtasks: Subtasks, event: TaskEvent): Subtasks {
  const current = subtasks.get(event.task_id);
  const next = nextSubtask(current, event);
  if (next === current) return subtasks;
  return new Map(subtasks).set(event.task_id, next);
}

/**
 * One subtask from what was saved (its call, and its result once there is one) and what the live events said:
 * a saved outcome always wins, live state fills what it lacks (steps, model, usage); before the result exists the
 * live state shows, under the call's description, prompt and type.
 */
export function mergeSubtask(saved: Subtask, live: Subtask | undefined): Subtask {
  if (!live) return saved;
  if (isTerminal(saved.status)) {
    const fromLive = saved.steps.length === 0 && live.steps.length > 0;
    return {
      ...saved,
      ...(fromLive && { steps: live.steps, stepIndexes: live.stepIndexes }),
      ...(!saved.modelName && live.modelName && { modelName: live.modelName }),
      ...(!saved.usage && live.usage && { usage: live.usage }),
    };
  }
  return {
    ...live,
    id: saved.id,
    description: saved.description || live.description,
    subagentType: saved.subagentType || live.subagentType,
    prompt: saved.prompt || live.prompt,
  };
}

/** Every subtask, saved ones merged with their live state (see `mergeSubtask`), then tasks known only live. */
export function mergeSubtasks(saved: Subtasks, live: Subtasks): Map<string, Subtask> {
  const merged = new Map<string, Subtask>();
  for (const [id, subtask] of saved) merged.set(id, mergeSubtask(subtask, live.get(id)));
  for (const [id, subtask] of live) if (!merged.has(id)) merged.set(id, subtask);
  return merged;
}

/** One line on what a step did: an AI turn's first line of text or the tools it calls, or the tool that ran. */
export function stepSummary(step: WireMessage): string {
  if (step.type === "tool") return t("subtasks.ranTool", { name: step.name ?? t("subtasks.aTool") });
  const firstLine =
    contentText(step.content)
      .split("\n")
      .find((line) => line.trim().length > 0)
      ?.trim() ?? "";
  if (firstLine) return firstLine.length > 140 ? `${firstLine.slice(0, 139)}…` : firstLine;
  if (step.type === "ai" && step.tool_calls && step.tool_calls.length > 0) {
    return t("subtasks.calling", { names: step.tool_calls.map((call) => call.name).join(", ") });
  }
  return t("subtasks.thinking");
}
