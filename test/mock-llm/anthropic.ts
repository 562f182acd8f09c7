// Anthropic's Messages API for the mock LLM: parses `POST /v1/messages` into the scenarios' request, renders a script
// as Messages SSE events (message_start … message_stop) or one message, and errors as Anthropic shapes them.

import { contentText, isRecord, type ReplyMeta, type ReplyScript } from "./openai.ts";
import { DEFAULT_MODEL, type ChatMessage, type ChatRequest, type OpenAiError } from "./scenarios.ts";

export interface AnthropicRequest {
  request: ChatRequest;
  /** Extended thinking was asked for (`thinking.type` enabled or adaptive): only then the thinking model thinks. */
  thinking: boolean;
}

export interface AnthropicEvent {
  event: string;
  data: Record<string, unknown>;
  delayMs: number;
}

/** Anthropic's error types by HTTP status (its "Errors" reference); 529 is its own "overloaded". */
const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

/** `{type: "error", error: {type, message}}`, Anthropic's error body. */
export function anthropicErrorBody(status: number, error: Pick<OpenAiError, "message">): Record<string, unknown> {
  return { type: "error", error: { type: ERROR_TYPES[status] ?? "api_error", message: error.message } };
}

/** A user message's blocks: each tool_result becomes a `tool` message, the text a `user` one. */
function userMessages(content: unknown): ChatMessage[] {
  if (!Array.isArray(content)) return [{ role: "user", text: contentText(content) }];
  const messages: ChatMessage[] = [];
  for (const block of content) {
    if (isRecord(block) && block.type === "tool_result") {
      messages.push({ role: "tool", text: contentText(block.content) });
    }
  }
  const text = contentText(content.filter((block) => !(isRecord(block) && block.type === "tool_result")));
  if (text || messages.length === 0) messages.push({ role: "user", text });
  return messages;
}

export function parseAnthropicRequest(
  body: unknown,
): { ok: true; value: AnthropicRequest } | { ok: false; message: string } {
  if (!isRecord(body)) return { ok: false, message: "The request body must be a JSON object." };
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return { ok: false, message: "messages: field required (a non-empty list)" };
  }
  if (typeof body.max_tokens !== "number") return { ok: false, message: "max_tokens: field required" };
  const messages: ChatMessage[] = [];
  const system = contentText(body.system);
  if (system) messages.push({ role: "system", text: system });
  for (const message of body.messages) {
    if (!isRecord(message) || (message.role !== "user" && message.role !== "assistant")) {
      return { ok: false, message: "messages: each message has the role user or assistant" };
    }
    if (message.role === "user") messages.push(...userMessages(message.content));
    else messages.push({ role: "assistant", text: contentText(message.content) });
  }
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const thinking = isRecord(body.thinking) && (body.thinking.type === "enabled" || body.thinking.type === "adaptive");
  return {
    ok: true,
    value: {
      request: {
        model: typeof body.model === "string" && body.model !== "" ? body.model : DEFAULT_MODEL,
        messages,
        toolNames: tools.flatMap((tool) => (isRecord(tool) && typeof tool.name === "string" ? [tool.name] : [])),
        stream: body.stream === true,
        includeUsage: true,
      },
      thinking,
    },
  };
}

const REASONING_DELAY_MS = 30;
/** Stands in for the signature Anthropic puts on thinking blocks (sent back with them on the next turn). */
const MOCK_SIGNATURE = "mock-signature";

function block(index: number, content_block: Record<string, unknown>, delayMs: number): AnthropicEvent {
  return { event: "content_block_start", data: { type: "content_block_start", index, content_block }, delayMs };
}

function delta(index: number, delta: Record<string, unknown>, delayMs: number): AnthropicEvent {
  return { event: "content_block_delta", data: { type: "content_block_delta", index, delta }, delayMs };
}

function stop(index: number): AnthropicEvent {
  return { event: "content_block_stop", data: { type: "content_block_stop", index }, delayMs: 0 };
}

/** The content blocks a script becomes: thinking first (when asked for), then the text or the tool_use blocks. */
export function anthropicContent(
  script: ReplyScript,
  reasoning: string[],
  callIds: string[],
): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  if (reasoning.length > 0) blocks.push({ type: "thinking", thinking: reasoning.join(""), signature: MOCK_SIGNATURE });
  if (script.kind === "text") blocks.push({ type: "text", text: script.chunks.join("") });
  else {
    script.calls.forEach((call, index) => {
      blocks.push({ type: "tool_use", id: callIds[index], name: call.name, input: safeJson(call.arguments) });
    });
  }
  return blocks;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}

/** The stream of a reply: message_start, each block's start, deltas and stop, message_delta, message_stop. */
export function anthropicEvents(
  meta: ReplyMeta,
  script: ReplyScript,
  reasoning: string[],
  callIds: string[],
  inputTokens: number,
  outputTokens: number,
): AnthropicEvent[] {
  const events: AnthropicEvent[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id: meta.id,
          type: "message",
          role: "assistant",
          model: meta.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: inputTokens, output_tokens: 1 },
        },
      },
      delayMs: 0,
    },
  ];
  let index = 0;
  if (reasoning.length > 0) {
    events.push(block(index, { type: "thinking", thinking: "", signature: "" }, 0));
    for (const part of reasoning)
      events.push(delta(index, { type: "thinking_delta", thinking: part }, REASONING_DELAY_MS));
    events.push(delta(index, { type: "signature_delta", signature: MOCK_SIGNATURE }, 0), stop(index));
    index++;
  }
  if (script.kind === "text") {
    events.push(block(index, { type: "text", text: "" }, 0));
    for (const chunk of script.chunks) events.push(delta(index, { type: "text_delta", text: chunk }, script.delayMs));
    events.push(stop(index));
  } else {
    script.calls.forEach((call, n) => {
      const at = index + n;
      events.push(block(at, { type: "tool_use", id: callIds[n], name: call.name, input: {} }, script.delayMs));
      for (const part of fragmentsOf(call.arguments, script.argumentParts ?? 3)) {
        events.push(delta(at, { type: "input_json_delta", partial_json: part }, script.delayMs));
      }
      events.push(stop(at));
    });
  }
  events.push(
    {
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: script.kind === "text" ? "end_turn" : "tool_use", stop_sequence: null },
        usage: { output_tokens: outputTokens },
      },
      delayMs: 0,
    },
    { event: "message_stop", data: { type: "message_stop" }, delayMs: 0 },
  );
  return events;
}

function fragmentsOf(value: string, parts: number): string[] {
  const size = Math.max(1, Math.ceil(value.length / parts));
  const result: string[] = [];
  for (let start = 0; start < value.length; start += size) result.push(value.slice(start, start + size));
  return result.length > 0 ? result : [value];
}

/** The whole reply as one message (`stream` not set). */
export function anthropicMessage(
  meta: ReplyMeta,
  script: ReplyScript,
  reasoning: string[],
  callIds: string[],
  inputTokens: number,
  outputTokens: number,
): Record<string, unknown> {
  return {
    id: meta.id,
    type: "message",
    role: "assistant",
    model: meta.model,
    content: anthropicContent(script, reasoning, callIds),
    stop_reason: script.kind === "text" ? "end_turn" : "tool_use",
    stop_sequence: null,
    usage: { input_tokens: inputTokens, output_tokens: outputTokens },
  };
}

/** `GET /v1/models` as Anthropic answers it: ids, display names, no limits. */
export function anthropicModels(ids: readonly string[]): Record<string, unknown> {
  const data = ids.map((id) => ({
    type: "model",
    id,
    display_name: `Mock ${id}`,
    created_at: "2025-01-01T00:00:00Z",
  }));
  return { data, has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null };
}
