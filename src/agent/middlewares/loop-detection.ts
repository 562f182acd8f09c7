// DeerFlow's loop detection: a model that keeps making the same tool call (same name, same arguments), or calls one
// tool very often, first gets a hidden reminder before its next model call, then has its run stopped: the call is
// removed from its message and a visible note says why, so the run ends on that message.
import { AIMessage, type BaseMessage, type HumanMessage, type MessageContent } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import { createMiddleware } from "langchain";
import { hiddenMessage, isUserMessage } from "../hidden-messages.ts";

export interface LoopLimits {
  /** An identical call seen this many times among the last `window` calls gets a reminder… */
  warnRepeats: number;
  /** …and this many times stops the run. */
  hardRepeats: number;
  window: number;
  /** Calls of one tool in one run, whatever the arguments: a reminder, then a stop. */
  toolWarn: number;
  toolHard: number;
}

export const DEFAULT_LOOP_LIMITS: LoopLimits = {
  warnRepeats: 3,
  hardRepeats: 5,
  window: 20,
  toolWarn: 30,
  toolHard: 50,
};

export type LoopVerdict =
  { level: "ok" } | { level: "warn" | "stop"; kind: "repeat" | "frequency"; toolName: string; count: number };

/** JSON with object keys sorted at every depth, so equal arguments give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** What makes two tool calls the same call. */
export function toolCallKey(call: Pick<ToolCall, "name" | "args">): string {
  return `${call.name}:${canonicalJson(call.args ?? {})}`;
}

/** The messages of the run in progress: those after the user's latest message (hidden reminders are not theirs). */
export function currentRunMessages(messages: readonly BaseMessage[]): BaseMessage[] {
  const start = messages.findLastIndex(isUserMessage);
  return messages.slice(start + 1);
}

function toolCallsOf(message: BaseMessage | undefined): ToolCall[] {
  return message !== undefined && AIMessage.isInstance(message) ? (message.tool_calls ?? []) : [];
}

/**
 * Judges the tool calls of the run's latest AI message against the run's earlier calls: `stop` when one of them
 * reaches a hard limit, `warn` when one reaches a warning limit, the worse of the two kinds winning.
 */
export function judgeToolCalls(
  messages: readonly BaseMessage[],
  limits: LoopLimits = DEFAULT_LOOP_LIMITS,
): LoopVerdict {
  const run = currentRunMessages(messages);
  const latest = run.findLast((message) => AIMessage.isInstance(message));
  const calls = run.flatMap(toolCallsOf);
  const latestCalls = toolCallsOf(latest);
  if (latestCalls.length === 0) return { level: "ok" };
  const window = calls.slice(-limits.window).map(toolCallKey);
  let verdict: LoopVerdict = { level: "ok" };
  const rank = (candidate: LoopVerdict) => (candidate.level === "stop" ? 2 : candidate.level === "warn" ? 1 : 0);
  for (const call of latestCalls) {
    const key = toolCallKey(call);
    const repeats = window.filter((other) => other === key).length;
    const uses = calls.filter((other) => other.name === call.name).length;
    const candidates: LoopVerdict[] = [
      repeats >= limits.hardRepeats
        ? { level: "stop", kind: "repeat", toolName: call.name, count: repeats }
        : repeats >= limits.warnRepeats
          ? { level: "warn", kind: "repeat", toolName: call.name, count: repeats }
          : { level: "ok" },
      uses >= limits.toolHard
        ? { level: "stop", kind: "frequency", toolName: call.name, count: uses }
        : uses >= limits.toolWarn
          ? { level: "warn", kind: "frequency", toolName: call.name, count: uses }
          : { level: "ok" },
    ];
    for (const candidate of candidates) if (rank(candidate) > rank(verdict)) verdict = candidate;
  }
  return verdict;
}

/** The hidden reminder the model gets before its next call after a warning. */
export function loopReminder(verdict: Exclude<LoopVerdict, { level: "ok" }>): HumanMessage {
  const text =
    verdict.kind === "repeat"
      ? `[Loop check] You have called ${verdict.toolName} with the same arguments ${verdict.count} times in this ` +
        "run. Calling it again will not give a different result. Use what you already have, change your approach, " +
        "or give your answer now."
      : `[Loop check] You have called ${verdict.toolName} ${verdict.count} times in this run. Check that more ` +
        "calls still help; if not, give your best answer with what you have.";
  return hiddenMessage(text);
}

/** The visible note that ends a stopped run. */
export function loopStopNote(verdict: Exclude<LoopVerdict, { level: "ok" }>): string {
  return verdict.kind === "repeat"
    ? `[Stopped: the same ${verdict.toolName} call was repeated ${verdict.count} times, so the run ended here.]`
    : `[Stopped: ${verdict.toolName} was called ${verdict.count} times in this run, so the run ended here.]`;
}

function withNote(content: MessageContent, note: string): MessageContent {
  if (typeof content === "string") return content.trim() === "" ? note : `${content}\n\n${note}`;
  return [...content, { type: "text", text: note }];
}

/**
 * A copy of `message` (same id, so it replaces the original in state) with only the calls `keep` accepts, in
 * structured `tool_calls` and in the provider's raw `additional_kwargs.tool_calls` alike, and `note` appended to
 * its content. With no call left, `finish_reason` becomes "stop".
 */
export function withToolCalls(message: AIMessage, keep: (call: ToolCall) => boolean, note?: string): AIMessage {
  const calls = message.tool_calls ?? [];
  const kept = calls.filter(keep);
  const keptIds = new Set(kept.flatMap((call) => (call.id === undefined ? [] : [call.id])));
  const { tool_calls: raw, ...additional } = message.additional_kwargs ?? {};
  const rawKept = Array.isArray(raw)
    ? raw.filter((entry: { id?: unknown }, index) =>
        typeof entry?.id === "string"
          ? keptIds.has(entry.id)
          : calls[index] !== undefined && kept.includes(calls[index]),
      )
    : [];
  return new AIMessage({
    content: note === undefined ? message.content : withNote(message.content, note),
    ...(message.id !== undefined && { id: message.id }),
    ...(message.name !== undefined && { name: message.name }),
    tool_calls: kept,
    invalid_tool_calls: message.invalid_tool_calls ?? [],
    additional_kwargs: rawKept.length > 0 ? { ...additional, tool_calls: rawKept } : additional,
    response_metadata:
      kept.length > 0 ? message.response_metadata : { ...message.response_metadata, finish_reason: "stop" },
    ...(message.usage_metadata !== undefined && { usage_metadata: message.usage_metadata }),
  });
}

/**
 * Warns through a hidden reminder added to the model's request (never to state), and stops the run in
 * `afterModel` by rewriting the latest AI message without tool calls, which ends the agent loop on its own.
 */
export function loopDetectionMiddleware(options: Partial<LoopLimits> = {}) {
  const limits: LoopLimits = { ...DEFAULT_LOOP_LIMITS, ...options };
  return createMiddleware({
    name: "LoopDetectionMiddleware",
    wrapModelCall: (request, handler) => {
      const verdict = judgeToolCalls(request.messages, limits);
      if (verdict.level === "ok") return handler(request);
      return handler({ ...request, messages: [...request.messages, loopReminder(verdict)] });
    },
    afterModel: (state) => {
      const last = state.messages.at(-1);
      if (last === undefined || !AIMessage.isInstance(last)) return undefined;
      const verdict = judgeToolCalls(state.messages, limits);
      if (verdict.level !== "stop") return undefined;
      return { messages: [withToolCalls(last, () => false, loopStopNote(verdict))] };
    },
  });
}
