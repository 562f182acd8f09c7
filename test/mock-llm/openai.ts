// OpenAI wire format for the mock LLM: parses chat requests and renders scripts as chunks or completions.

import { DEFAULT_MODEL, type ChatMessage, type ChatRequest, type OpenAiError, type Script } from "./scenarios.ts";

export type ReplyScript = Exclude<Script, { kind: "error" }>;
export type FinishReason = "stop" | "tool_calls";

export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: "function";
  function: { name?: string; arguments: string };
}

export interface Delta {
  role?: "assistant";
  content?: string | null;
  reasoning_content?: string;
  tool_calls?: ToolCallDelta[];
}

export interface Frame {
  delta: Delta;
  finishReason: FinishReason | null;
  /** Pause before this frame is written. */
  delayMs: number;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ReplyMeta {
  id: string;
  created: number;
  model: string;
}

/** `thinking`: the request asks the model to reason (see `asksForReasoning`). */
export type ParsedChat = { ok: true; request: ChatRequest; thinking: boolean } | { ok: false; error: OpenAiError };

const REASONING_DELAY_MS = 30;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function errorBody(error: OpenAiError): { error: OpenAiError } {
  return { error };
}

export function invalidRequest(message: string, param: string | null = null, code: string | null = null): OpenAiError {
  return { message, type: "invalid_request_error", param, code };
}

export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts = content.map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : null));
  return texts.filter((part) => part !== null).join("\n");
}

function toolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool) => {
    const fn = isRecord(tool) ? tool.function : undefined;
    return isRecord(fn) && typeof fn.name === "string" ? [fn.name] : [];
  });
}

function parseMessages(messages: unknown): ChatMessage[] | null {
  if (!Array.isArray(messages) || messages.length === 0) return null;
  const parsed: ChatMessage[] = [];
  for (const message of messages) {
    if (!isRecord(message) || typeof message.role !== "string") return null;
    parsed.push({ role: message.role, text: contentText(message.content) });
  }
  return parsed;
}

/**
 * Whether an OpenAI-compatible request asks for reasoning, by the switches Fawn sends (src/models/reasoning.ts):
 * `reasoning_effort` (other than "none"), Qwen's `enable_thinking: true`, or a `thinking: {type: "enabled"}` extra
 * body (DeepSeek, GLM). A real reasoning model given none of them answers without reasoning, and so does the mock.
 */
export function asksForReasoning(body: Record<string, unknown>): boolean {
  const effort = body.reasoning_effort;
  if (typeof effort === "string" && effort !== "none") return true;
  if (body.enable_thinking === true) return true;
  return isRecord(body.thinking) && body.thinking.type === "enabled";
}

export function parseChatRequest(body: unknown): ParsedChat {
  if (!isRecord(body)) return { ok: false, error: invalidRequest("The request body must be a JSON object.") };
  const messages = parseMessages(body.messages);
  if (!messages) {
    const message = "'messages' must be a non-empty array of objects with a string 'role'.";
    return { ok: false, error: invalidRequest(message, "messages") };
  }
  const streamOptions = body.stream_options;
  return {
    ok: true,
    request: {
      model: typeof body.model === "string" && body.model !== "" ? body.model : DEFAULT_MODEL,
      messages,
      toolNames: toolNames(body.tools),
      stream: body.stream === true,
      includeUsage: isRecord(streamOptions) && streamOptions.include_usage === true,
    },
    thinking: asksForReasoning(body),
  };
}

/** Splits a string into up to `parts` non-empty fragments, like OpenAI streams tool arguments. */
export function fragments(value: string, parts = 3): string[] {
  const size = Math.max(1, Math.ceil(value.length / parts));
  const result: string[] = [];
  for (let start = 0; start < value.length; start += size) result.push(value.slice(start, start + size));
  return result.length > 0 ? result : [value];
}

function toolCallFrames(script: Extract<Script, { kind: "tool_calls" }>, callIds: string[]): Frame[] {
  return script.calls.flatMap((call, index): Frame[] => {
    const header: ToolCallDelta = {
      index,
      id: callIds[index] ?? `call_${index}`,
      type: "function",
      function: { name: call.name, arguments: "" },
    };
    const argumentFrames = fragments(call.arguments, script.argumentParts).map((part) => ({
      delta: { tool_calls: [{ index, function: { arguments: part } }] },
      finishReason: null,
      delayMs: script.delayMs,
    }));
    return [
      { delta: { content: null, tool_calls: [header] }, finishReason: null, delayMs: script.delayMs },
      ...argumentFrames,
    ];
  });
}

/** The stream as a list of deltas: reasoning, then content or tool calls, then the finish frame. */
export function framesFor(script: ReplyScript, reasoning: string[], callIds: string[]): Frame[] {
  const reasoningFrames = reasoning.map((part) => ({
    delta: { reasoning_content: part },
    finishReason: null,
    delayMs: REASONING_DELAY_MS,
  }));
  const bodyFrames =
    script.kind === "text"
      ? script.chunks.map((chunk) => ({ delta: { content: chunk }, finishReason: null, delayMs: script.delayMs }))
      : toolCallFrames(script, callIds);
  const finish: Frame = {
    delta: {},
    finishReason: script.kind === "text" ? "stop" : "tool_calls",
    delayMs: script.delayMs,
  };
  const frames: Frame[] = [...reasoningFrames, ...bodyFrames, finish];
  const [first, ...rest] = frames;
  // The first chunk carries the role and goes out at once, so time-to-first-token stays near zero.
  return first ? [{ ...first, delta: { role: "assistant", ...first.delta }, delayMs: 0 }, ...rest] : frames;
}

function tokens(chars: number): number {
  return Math.ceil(chars / 4);
}

export function usageFor(request: ChatRequest, script: ReplyScript, reasoning: string[]): Usage {
  const promptChars = request.messages.reduce((sum, message) => sum + message.text.length, 0);
  const output =
    script.kind === "text" ? script.chunks.join("") : script.calls.map((call) => call.name + call.arguments).join("");
  const prompt_tokens = tokens(promptChars);
  const completion_tokens = tokens(output.length + reasoning.join("").length);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

export function chunkBody(meta: ReplyMeta, frame: Frame, includeUsage: boolean): Record<string, unknown> {
  return {
    id: meta.id,
    object: "chat.completion.chunk",
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, delta: frame.delta, finish_reason: frame.finishReason }],
    // OpenAI sends `usage: null` on every chunk but the last when usage was requested.
    ...(includeUsage ? { usage: null } : {}),
  };
}

export function usageChunkBody(meta: ReplyMeta, usage: Usage): Record<string, unknown> {
  return { id: meta.id, object: "chat.completion.chunk", created: meta.created, model: meta.model, choices: [], usage };
}

export function completionBody(
  meta: ReplyMeta,
  script: ReplyScript,
  reasoning: string[],
  callIds: string[],
  usage: Usage,
): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: "assistant",
    content: script.kind === "text" ? script.chunks.join("") : null,
  };
  if (reasoning.length > 0) message.reasoning_content = reasoning.join("");
  if (script.kind === "tool_calls") {
    message.tool_calls = script.calls.map((call, index) => ({
      id: callIds[index] ?? `call_${index}`,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  const finishReason: FinishReason = script.kind === "text" ? "stop" : "tool_calls";
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, finish_reason: finishReason }],
    usage,
  };
}
