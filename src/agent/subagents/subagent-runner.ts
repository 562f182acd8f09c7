// Runs one subagent: its own createAgent loop over the delegated prompt, with a turn budget, a timeout and the
// parent's Stop, reporting each message as it settles and ending in a SubtaskOutcome and the text the parent reads.
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { StructuredTool } from "@langchain/core/tools";
import { createAgent, createMiddleware } from "langchain";
import type {
  MessageContent,
  SubtaskOutcome,
  SubtaskStopReason,
  UsageMetadata,
  WireMessage,
} from "../../protocol/index.ts";
import { hiddenMessage } from "../hidden-messages.ts";
import { danglingToolCallMiddleware } from "../middlewares/dangling-tool-calls.ts";
import {
  DEFAULT_LOOP_LIMITS,
  judgeToolCalls,
  loopDetectionMiddleware,
  withToolCalls,
  type LoopLimits,
} from "../middlewares/loop-detection.ts";
import { modelErrorMiddleware, type ModelErrorOptions } from "../middlewares/model-retry.ts";
import { outboundApprovalMiddleware, type OutboundApproval } from "../middlewares/outbound-approval.ts";
import { toolErrorsMiddleware } from "../middlewares/tool-errors.ts";
import { redactSecrets } from "../../shared/redact.ts";
import { visibleText } from "../visible-text.ts";
import { toWireMessage } from "../wire-messages.ts";
import { toolSearchMiddleware, type ToolCatalog } from "../../mcp/tool-search.ts";
import type { SubagentType } from "./subagent-types.ts";

/** The longest result brief or error an outcome carries (head two thirds, tail one third). */
export const SUBAGENT_BRIEF_MAX_CHARS = 2_000;
/** The subagent messages an outcome keeps for the card, the latest ones. */
export const SUBAGENT_STEPS_MAX = 50;
/** The longest text of one kept step (content, reasoning, each string argument of a tool call). */
export const SUBAGENT_STEP_MAX_CHARS = 4_000;
/** The result when the subagent finished without any text. */
export const EMPTY_SUBAGENT_RESULT = "(The subagent finished without a written result.)";

/** Tools whose presence means the subagent works in the sandbox, so it is told its folders. */
const SANDBOX_TOOL_NAMES = new Set(["bash", "ls", "read_file", "write_file", "str_replace", "glob", "grep"]);

export interface SubagentRunOptions {
  type: SubagentType;
  /** The whole task: the subagent sees nothing else. */
  prompt: string;
  model: BaseChatModel;
  /** The subagent's tools, already chosen for its type. */
  tools: StructuredTool[];
  /** The parent run's signal: aborting it (Stop) cancels the subagent. */
  signal?: AbortSignal;
  now?: Date;
  /** Named in the outcome; default the model's own name (modelNameOf). */
  modelName?: string;
  /** Retry policy for model errors (tests shorten the waits). */
  retry?: ModelErrorOptions;
  /** Stored API keys: never in the error text of its tools or of its own failure. */
  secrets?: readonly string[];
  /**
   * The parent's approval of tool calls that send data out, added after the subagent's own middlewares. The timeout
   * does not run while a call waits for the user's answer.
   */
  approval?: OutboundApproval;
  /**
   * Its MCP tools that wait behind tool_search (some of `tools`, which must hold them so found ones run): the
   * subagent sees their names and tool_search, as the lead agent does (DeerFlow's deferred tools in subagents).
   */
  catalog?: ToolCatalog;
  /**
   * Told each subagent message once it is final (AI turns after the middlewares' rewrites, tool results):
   * its 1-based index, how many have been reported, and the usage summed over the AI turns so far.
   */
  onMessage?: (message: BaseMessage, index: number, total: number, usage: UsageMetadata | undefined) => void;
}

/** A subagent's end: the outcome (the `task` result's artifact) plus what the parent model reads. */
export interface SubagentRun extends SubtaskOutcome {
  /** The `task` ToolMessage's content, in DeerFlow's words (`Task Succeeded. Result: …`, `Task failed. …`). */
  text: string;
  /** The whole result of a completed subagent (the outcome keeps only a brief). */
  result?: string;
}

/** The model's name as providers report it (`model`, `modelName`), else its LangChain type. */
export function modelNameOf(model: BaseChatModel): string {
  const named = model as { model?: unknown; modelName?: unknown };
  if (typeof named.model === "string" && named.model !== "") return named.model;
  if (typeof named.modelName === "string" && named.modelName !== "") return named.modelName;
  return model._llmType();
}

/** `text` within `max` characters: its first two thirds and last third around `\n...\n`. */
export function boundText(text: string, max = SUBAGENT_BRIEF_MAX_CHARS): string {
  if (text.length <= max) return text;
  const marker = "\n...\n";
  const budget = Math.max(0, max - marker.length);
  const head = Math.floor((budget * 2) / 3);
  const tail = budget - head;
  return `${text.slice(0, head)}${marker}${tail > 0 ? text.slice(text.length - tail) : ""}`;
}

function seconds(ms: number): string {
  const value = ms / 1000;
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** The error the parent reads when a subagent runs out of time. */
export function timeoutMessage(timeoutMs: number): string {
  return `The subagent did not finish within ${seconds(timeoutMs)} seconds.`;
}

/** The outcome of a `task` naming a type that does not exist (or is not available). */
export function unknownTypeRun(name: string, available: readonly string[], modelName?: string): SubagentRun {
  const error = `Unknown subagent type '${name}'. Available: ${available.join(", ")}`;
  return {
    subagent_status: "failed",
    subagent_type: name,
    subagent_error: boundText(error),
    ...(modelName !== undefined && { subagent_model_name: modelName }),
    text: `Task failed. Error: ${error}`,
  };
}

const CAPPED_LABELS: Record<SubtaskStopReason, string> = {
  turn_capped: "turn budget",
  loop_capped: "repeated tool-call loop",
};

/** DeerFlow's text for the parent from an outcome (the result and error in full). */
export function parentText(
  outcome: Pick<SubtaskOutcome, "subagent_status" | "subagent_stop_reason">,
  detail: string,
): string {
  switch (outcome.subagent_status) {
    case "completed": {
      const reason = outcome.subagent_stop_reason;
      return reason
        ? `Task Succeeded (capped: ${CAPPED_LABELS[reason]}). Result: ${detail}`
        : `Task Succeeded. Result: ${detail}`;
    }
    case "failed":
      return `Task failed. Error: ${detail}`;
    case "cancelled":
      return "Task cancelled by user.";
    case "timed_out":
      return `Task timed out. Error: ${detail}`;
  }
}

/** The system prompt: the type's instructions, the sandbox's folders when it has file tools, and today's date. */
export function subagentSystemPrompt(type: SubagentType, now: Date): string {
  const sections = [type.instructions];
  if (type.toolNames.some((name) => SANDBOX_TOOL_NAMES.has(name))) {
    sections.push(
      [
        "<working_directory>",
        "You work in the lead agent's sandbox, in these folders:",
        "- /mnt/user-data/workspace: scratch space and the working directory of bash.",
        "- /mnt/user-data/uploads: the user's files; read them, never change them. A PDF, Word, Excel or PowerPoint",
        "  file has a Markdown copy beside it (report.pdf → report.md): read that one.",
        "- /mnt/user-data/outputs: files meant for the user; save deliverables here and give their full paths.",
        "- /mnt/skills: skills you may read (read-only).",
        "Nothing else exists: paths with '..' or outside these folders are refused.",
        "</working_directory>",
      ].join("\n"),
    );
  }
  sections.push(`Today's date is ${now.toISOString().slice(0, 10)}.`);
  return sections.join("\n\n");
}

/** The hidden note before the last model call the budget allows. */
export const LAST_TURN_REMINDER =
  "[Turn budget] This is your last turn: tools will not run any more. Write your final answer now from what you " +
  "have, and say what is left undone.";

const aiCount = (messages: readonly BaseMessage[]) => messages.filter((m) => AIMessage.isInstance(m)).length;

/**
 * The turn budget, and the record of why the run stopped early: before the last allowed model call the model is
 * told to answer; a last call that still asks for tools has them removed, which ends the loop. A run that uses its
 * whole budget counts as `turn_capped`. Put it last in the
 * chain: its `afterModel` then runs first, before loop detection rewrites the message, so it can tell a loop stop
 * (same `limits`) from a turn stop.
 */
function turnBudgetMiddleware(maxTurns: number, limits: LoopLimits, onStop: (reason: SubtaskStopReason) => void) {
  return createMiddleware({
    name: "SubagentTurnBudgetMiddleware",
    wrapModelCall: (request, handler) =>
      aiCount(request.messages) + 1 >= maxTurns
        ? handler({ ...request, messages: [...request.messages, hiddenMessage(LAST_TURN_REMINDER)] })
        : handler(request),
    afterModel: (state) => {
      const last = state.messages.at(-1);
      if (last === undefined || !AIMessage.isInstance(last)) return undefined;
      if (aiCount(state.messages) >= maxTurns) {
        onStop("turn_capped");
        return (last.tool_calls ?? []).length > 0 ? { messages: [withToolCalls(last, () => false)] } : undefined;
      }
      if (judgeToolCalls(state.messages, limits).level === "stop") onStop("loop_capped");
      return undefined;
    },
  });
}

function boundContent(content: MessageContent): MessageContent {
  if (typeof content === "string") return boundText(content, SUBAGENT_STEP_MAX_CHARS);
  return content.map((part) =>
    part.type === "text" ? { type: "text", text: boundText(part.text, SUBAGENT_STEP_MAX_CHARS) } : part,
  );
}

function boundArgs(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).map(([key, value]) => [
      key,
      typeof value === "string" ? boundText(value, SUBAGENT_STEP_MAX_CHARS) : value,
    ]),
  );
}

/** A subagent message as a card step: its content, reasoning and string arguments bounded. */
export function stepOf(message: BaseMessage): WireMessage {
  const wire = toWireMessage(message);
  const bounded = { ...wire, content: boundContent(wire.content) } as WireMessage;
  if (bounded.type === "ai") {
    if (bounded.reasoning) bounded.reasoning = boundText(bounded.reasoning, SUBAGENT_STEP_MAX_CHARS);
    if (bounded.tool_calls) bounded.tool_calls = bounded.tool_calls.map((c) => ({ ...c, args: boundArgs(c.args) }));
  }
  return bounded;
}

/** Usage summed over the AI messages that carry it; undefined when none does. */
export function sumUsage(messages: readonly BaseMessage[]): UsageMetadata | undefined {
  let total: UsageMetadata | undefined;
  for (const message of messages) {
    const usage = AIMessage.isInstance(message) ? message.usage_metadata : undefined;
    if (!usage) continue;
    total = {
      input_tokens: (total?.input_tokens ?? 0) + (usage.input_tokens ?? 0),
      output_tokens: (total?.output_tokens ?? 0) + (usage.output_tokens ?? 0),
      total_tokens: (total?.total_tokens ?? 0) + (usage.total_tokens ?? 0),
    };
  }
  return total;
}

/** The result: the last AI message's visible text, else the latest AI text before it. */
function resultOf(messages: readonly BaseMessage[]): string {
  for (const message of [...messages].reverse()) {
    if (!AIMessage.isInstance(message)) continue;
    const text = visibleText(message);
    if (text !== "") return text;
  }
  return EMPTY_SUBAGENT_RESULT;
}

function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message || error.name : String(error);
  // LangChain appends a troubleshooting link to provider errors; the parent needs the reason only.
  return message.split("\n\nTroubleshooting URL:")[0]!.trim() || "The subagent failed without saying why.";
}

/** The subagent's own messages: its AI turns and tool results (not the prompt). */
const isStep = (message: BaseMessage) => AIMessage.isInstance(message) || ToolMessage.isInstance(message);

/**
 * Runs the subagent to its end and never throws: `completed` (possibly capped by its turn budget or a tool-call
 * loop) with its last answer, `failed` with the error, `cancelled` when `signal` aborted (the run's Stop; the
 * subagent stops calling its model), `timed_out` after `type.timeoutMs`. Its model calls are not streamed to the
 * parent's callbacks: the parent learns of its messages through `onMessage`.
 */
export async function runSubagent(options: SubagentRunOptions): Promise<SubagentRun> {
  const { type } = options;
  const modelName = options.modelName ?? modelNameOf(options.model);
  const timeout = new AbortController();
  const deadline = pausableTimer(
    () => timeout.abort(new DOMException(timeoutMessage(type.timeoutMs), "TimeoutError")),
    type.timeoutMs,
  );
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
  let stopReason: SubtaskStopReason | undefined;
  const agent = createAgent({
    model: options.model,
    tools: options.tools,
    systemPrompt: subagentSystemPrompt(type, options.now ?? new Date()),
    middleware: [
      danglingToolCallMiddleware,
      modelErrorMiddleware(options.retry),
      toolErrorsMiddleware({ ...(options.secrets && { secrets: options.secrets }) }),
      ...(options.catalog && options.catalog.tools.length > 0 ? [toolSearchMiddleware(options.catalog)] : []),
      loopDetectionMiddleware(DEFAULT_LOOP_LIMITS),
      turnBudgetMiddleware(type.maxTurns, DEFAULT_LOOP_LIMITS, (reason) => {
        stopReason ??= reason;
      }),
      ...(options.approval ? [outboundApprovalMiddleware(pausingWhileAsked(options.approval, deadline))] : []),
    ],
  });

  let messages: BaseMessage[] = [];
  let reported = 0;
  const report = (settled: number) => {
    const steps = messages.filter(isStep);
    for (; reported < Math.min(settled, steps.length); reported++) {
      options.onMessage?.(steps[reported]!, reported + 1, reported + 1, sumUsage(steps.slice(0, reported + 1)));
    }
  };
  const outcome = (status: SubtaskOutcome["subagent_status"]): SubtaskOutcome => {
    const steps = messages.filter(isStep);
    const usage = sumUsage(steps);
    return {
      subagent_status: status,
      subagent_type: type.name,
      subagent_model_name: modelName,
      ...(usage && { subagent_token_usage: usage }),
      ...(steps.length > 0 && { subagent_steps: steps.slice(-SUBAGENT_STEPS_MAX).map(stepOf) }),
    };
  };

  try {
    signal.throwIfAborted();
    const stream = await agent.stream(
      { messages: [new HumanMessage(options.prompt)] },
      {
        // "messages" makes the model stream its reply (the tokens themselves are dropped here): a non-streamed
        // ChatOpenAI call estimates tokens with tiktoken, whose download hangs offline (see internal-call.ts).
        streamMode: ["values", "messages"],
        signal,
        // Each model call passes a few nodes (model, the middlewares' after-model hooks, tools).
        recursionLimit: type.maxTurns * 6 + 20,
        // A fresh run, not a part of the parent's: where AsyncLocalStorage exists it would otherwise hand the
        // parent's callbacks (its token stream) and its graph keys (its checkpointer) down to this agent.
        callbacks: [],
        configurable: {},
      },
    );
    for await (const [mode, state] of stream as AsyncIterable<[string, { messages: BaseMessage[] }]>) {
      if (mode !== "values") continue;
      messages = state.messages;
      // An AI message at the end may still be rewritten by an after-model hook: it is final once something follows.
      const steps = messages.filter(isStep);
      report(AIMessage.isInstance(messages.at(-1)) ? steps.length - 1 : steps.length);
    }
    report(Number.POSITIVE_INFINITY);
    const result = resultOf(messages);
    const done: SubtaskOutcome = {
      ...outcome("completed"),
      ...(stopReason && { subagent_stop_reason: stopReason }),
      subagent_result_brief: boundText(result),
    };
    return { ...done, result, text: parentText(done, result) };
  } catch (error) {
    report(Number.POSITIVE_INFINITY);
    if (options.signal?.aborted) {
      const cancelled = outcome("cancelled");
      return { ...cancelled, text: parentText(cancelled, "") };
    }
    if (timeout.signal.aborted) {
      const message = timeoutMessage(type.timeoutMs);
      const timedOut: SubtaskOutcome = { ...outcome("timed_out"), subagent_error: message };
      return { ...timedOut, text: parentText(timedOut, message) };
    }
    const message = redactSecrets(errorText(error), options.secrets ?? []);
    const failed: SubtaskOutcome = { ...outcome("failed"), subagent_error: boundText(message) };
    return { ...failed, text: parentText(failed, message) };
  } finally {
    deadline.clear();
  }
}

interface PausableTimer {
  /** Stops the clock until as many `resume` calls as `pause` calls came. */
  pause(): void;
  resume(): void;
  clear(): void;
}

/** Calls `fire` once `ms` milliseconds have run, not counting the time it is paused. */
function pausableTimer(fire: () => void, ms: number): PausableTimer {
  let left = ms;
  let startedAt = Date.now();
  let paused = 0;
  let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(fire, left);
  return {
    pause() {
      if (paused++ > 0 || timer === undefined) return;
      clearTimeout(timer);
      timer = undefined;
      left -= Date.now() - startedAt;
    },
    resume() {
      if (paused === 0 || --paused > 0 || left === Number.NEGATIVE_INFINITY) return;
      startedAt = Date.now();
      timer = setTimeout(fire, Math.max(0, left));
    },
    clear() {
      clearTimeout(timer);
      timer = undefined;
      left = Number.NEGATIVE_INFINITY;
    },
  };
}

/** `approval`, with the subagent's clock stopped while a call waits for the user. */
function pausingWhileAsked(approval: OutboundApproval, deadline: PausableTimer): OutboundApproval {
  return {
    describe: (call) => approval.describe(call),
    ask: async (call, signal) => {
      deadline.pause();
      try {
        return await approval.ask(call, signal);
      } finally {
        deadline.resume();
      }
    },
  };
}
