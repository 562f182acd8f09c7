// OpenAI's Responses API for the mock LLM: parses `POST /v1/responses` into the scenarios' request and renders a
// script as the API's streamed events (response.created … response.completed) or one response object.

import { contentText, isRecord, type ReplyMeta, type ReplyScript } from "./openai.ts";
import { DEFAULT_MODEL, type ChatMessage, type ChatRequest } from "./scenarios.ts";

export interface ResponsesRequest {
  request: ChatRequest;
  /** A reasoning summary was asked for (`reasoning.summary`): only then the thinking model's reasoning is shown. */
  summary: boolean;
}

export interface ResponsesEvent {
  event: string;
  data: Record<string, unknown>;
  delayMs: number;
}

const REASONING_DELAY_MS = 30;

/** One input item as the scenarios' messages: messages by role, a function's output as a `tool` message. */
function itemMessages(item: unknown): ChatMessage[] | null {
  if (!isRecord(item)) return null;
  const type = item.type ?? "message";
  if (type === "function_call_output") {
    return [{ role: "tool", text: typeof item.output === "string" ? item.output : contentText(item.output) }];
  }
  if (type === "function_call") return [{ role: "assistant", text: "" }];
  if (type !== "message") return []; // reasoning items and the like: nothing the scenarios read
  if (typeof item.role !== "string") return null;
  return [{ role: item.role === "developer" ? "system" : item.role, text: contentText(item.content) }];
}

export function parseResponsesRequest(
  body: unknown,
): { ok: true; value: ResponsesRequest } | { ok: false; message: string } {
  if (!isRecord(body)) return { ok: false, message: "The request body must be a JSON object." };
  const messages: ChatMessage[] = [];
  if (typeof body.instructions === "string" && body.instructions) {
    messages.push({ role: "system", text: body.instructions });
  }
  if (typeof body.input === "string") messages.push({ role: "user", text: body.input });
  else if (Array.isArray(body.input)) {
    for (const item of body.input) {
      const parsed = itemMessages(item);
      if (!parsed) return { ok: false, message: "'input' items are objects; a message has a string 'role'." };
      messages.push(...parsed);
    }
  }
  if (messages.length === 0) return { ok: false, message: "'input' must be a string or a non-empty array." };
  const tools = Array.isArray(body.tools) ? body.tools : [];
  return {
    ok: true,
    value: {
      request: {
        model: typeof body.model === "string" && body.model !== "" ? body.model : DEFAULT_MODEL,
        messages,
        toolNames: tools.flatMap((tool) =>
          isRecord(tool) && tool.type === "function" && typeof tool.name === "string" ? [tool.name] : [],
        ),
        stream: body.stream === true,
        includeUsage: true,
      },
      summary: isRecord(body.reasoning) && typeof body.reasoning.summary === "string",
    },
  };
}

/** The output items of a reply: a reasoning summary (when asked for), then a message or the function calls. */
function outputItems(meta: ReplyMeta, script: ReplyScript, reasoning: string[], callIds: string[]): Item[] {
  const items: Item[] = [];
  const suffix = meta.id.replace(/^resp_/, "");
  if (reasoning.length > 0) {
    items.push({
      type: "reasoning",
      id: `rs_${suffix}`,
      summary: [{ type: "summary_text", text: reasoning.join("") }],
    });
  }
  if (script.kind === "text") {
    const text = script.chunks.join("");
    items.push({
      type: "message",
      id: `msg_${suffix}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text, annotations: [] }],
    });
  } else {
    script.calls.forEach((call, index) => {
      const callId = callIds[index] ?? `call_${index}`;
      items.push({
        type: "function_call",
        id: `fc_${suffix}_${index}`,
        call_id: callId,
        name: call.name,
        arguments: call.arguments,
        status: "completed",
      });
    });
  }
  return items;
}

type Item = Record<string, unknown> & { type: string; id: string };

/** The response object: `status` and its output items, with usage once completed. */
function responseObject(
  meta: ReplyMeta,
  status: "in_progress" | "completed",
  output: Item[],
  usage?: { input: number; output: number },
): Record<string, unknown> {
  return {
    id: meta.id,
    object: "response",
    created_at: meta.created,
    model: meta.model,
    status,
    error: null,
    incomplete_details: null,
    output,
    usage: usage
      ? { input_tokens: usage.input, output_tokens: usage.output, total_tokens: usage.input + usage.output }
      : null,
  };
}

/** The whole reply as one response (`stream` not set). */
export function responsesBody(
  meta: ReplyMeta,
  script: ReplyScript,
  reasoning: string[],
  callIds: string[],
  inputTokens: number,
  outputTokens: number,
): Record<string, unknown> {
  const output = outputItems(meta, script, reasoning, callIds);
  return responseObject(meta, "completed", output, { input: inputTokens, output: outputTokens });
}

/** The stream of a reply, in the API's order: created, each item added, its deltas, done, then completed. */
export function responsesEvents(
  meta: ReplyMeta,
  script: ReplyScript,
  reasoning: string[],
  callIds: string[],
  inputTokens: number,
  outputTokens: number,
): ResponsesEvent[] {
  const events: ResponsesEvent[] = [];
  const push = (type: string, fields: Record<string, unknown>, delayMs = 0) =>
    events.push({ event: type, data: { type, sequence_number: events.length, ...fields }, delayMs });
  const items = outputItems(meta, script, reasoning, callIds);
  push("response.created", { response: responseObject(meta, "in_progress", []) });
  items.forEach((item, output_index) => {
    const at = { item_id: item.id, output_index };
    if (item.type === "reasoning") {
      push("response.output_item.added", { output_index, item: { ...item, summary: [] } });
      push("response.reasoning_summary_part.added", {
        ...at,
        summary_index: 0,
        part: { type: "summary_text", text: "" },
      });
      for (const part of reasoning) {
        push("response.reasoning_summary_text.delta", { ...at, summary_index: 0, delta: part }, REASONING_DELAY_MS);
      }
    } else if (item.type === "message") {
      push("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } });
      const part = { type: "output_text", text: "", annotations: [] };
      push("response.content_part.added", { ...at, content_index: 0, part });
      for (const chunk of script.kind === "text" ? script.chunks : []) {
        push("response.output_text.delta", { ...at, content_index: 0, delta: chunk }, script.delayMs);
      }
      const text = script.kind === "text" ? script.chunks.join("") : "";
      push("response.output_text.done", { ...at, content_index: 0, text });
      push("response.content_part.done", { ...at, content_index: 0, part: { ...part, text } });
    } else {
      push("response.output_item.added", { output_index, item: { ...item, arguments: "", status: "in_progress" } });
      const args = String(item.arguments);
      const size = Math.max(1, Math.ceil(args.length / 3));
      for (let start = 0; start < args.length; start += size) {
        const delta = args.slice(start, start + size);
        push("response.function_call_arguments.delta", { ...at, delta }, script.delayMs);
      }
      push("response.function_call_arguments.done", { ...at, arguments: args });
    }
    push("response.output_item.done", { output_index, item });
  });
  push("response.completed", {
    response: responseObject(meta, "completed", items, { input: inputTokens, output: outputTokens }),
  });
  return events;
}
