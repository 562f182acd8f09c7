// LangGraph's run stream read back into Fawn's RunEvents (docs/architecture.md#d13-workspaces): the Fawn server writes
// each stored event as a part named by its event with its data (server/langgraph/sse.ts), and a server workspace
// reads the SDK's stream back with `runEventOf`, so a feature (plan, subtask cards, clarification, approvals,
// artifacts) works the same whichever side ran it. Only the server workspace's chunk loads this module. Everything
// read from a server is untrusted: parts that do not fit are dropped, messages are rebuilt field by field (LangGraph's
// serialized messages or Fawn's wire messages alike).
import {
  isTodoItem,
  RUN_ERROR_CODES,
  type AiWireMessage,
  type AiWireMessageChunk,
  type ContentPart,
  type MessageContent,
  type RunEndStatus,
  type RunError,
  type RunErrorCode,
  type RunEvent,
  type ToolWireMessage,
  type UploadedFileRef,
  type UsageMetadata,
  type WireMessage,
  type WireToolCall,
  type WireToolCallChunk,
} from "../../protocol/index.ts";
import { splitInlineThinking } from "../../shared/text.ts";

/** One part of LangGraph's run stream (`event:` and `data:`), as the SDK yields it. */
export interface StreamPart {
  event: string;
  data: unknown;
}

const MAX_TEXT = 20_000_000;
const MAX_ERROR_TEXT = 2_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length <= MAX_TEXT ? value : undefined;
}

/** A server's error part as a RunError: Fawn's codes kept, LangGraph's own (`Error`, `CancelledError`) as `unknown`. */
export function runErrorOf(data: unknown): RunError {
  const record = isRecord(data) ? data : {};
  const code = record.error;
  const message = str(record.message)?.slice(0, MAX_ERROR_TEXT) ?? "The server's run failed.";
  return {
    error: (RUN_ERROR_CODES as readonly unknown[]).includes(code) ? (code as RunErrorCode) : "unknown",
    message,
  };
}

function contentOf(value: unknown): MessageContent {
  const text = str(value);
  if (text !== undefined) return text;
  if (!Array.isArray(value)) return "";
  const parts: ContentPart[] = [];
  for (const block of value as unknown[]) {
    if (!isRecord(block)) continue;
    if (block.type === "text" && typeof block.text === "string") parts.push({ type: "text", text: block.text });
    if (block.type === "image_url") {
      const url = typeof block.image_url === "string" ? block.image_url : (block.image_url as { url?: unknown })?.url;
      if (typeof url === "string") parts.push({ type: "image_url", image_url: { url } });
    }
  }
  return parts;
}

function textOf(content: MessageContent): string {
  return typeof content === "string"
    ? content
    : content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

function reasoningOf(message: Record<string, unknown>): string | undefined {
  const direct = str(message.reasoning);
  if (direct) return direct;
  const extra = isRecord(message.additional_kwargs) ? message.additional_kwargs : {};
  const reasoning = str(extra.reasoning_content);
  if (reasoning) return reasoning;
  if (!Array.isArray(message.content)) return undefined;
  const thoughts = (message.content as unknown[])
    .map((block) =>
      isRecord(block) && block.type === "thinking" && typeof block.thinking === "string" ? block.thinking : "",
    )
    .join("");
  return thoughts || undefined;
}

function usageOf(value: unknown): UsageMetadata | undefined {
  if (!isRecord(value)) return undefined;
  const { input_tokens, output_tokens, total_tokens } = value;
  if (typeof input_tokens !== "number" || typeof output_tokens !== "number") return undefined;
  return {
    input_tokens,
    output_tokens,
    total_tokens: typeof total_tokens === "number" ? total_tokens : input_tokens + output_tokens,
  };
}

function filesOf(message: Record<string, unknown>): UploadedFileRef[] | undefined {
  const extra = isRecord(message.additional_kwargs) ? message.additional_kwargs : {};
  const list = Array.isArray(message.files) ? message.files : extra.files;
  if (!Array.isArray(list)) return undefined;
  const files = list.flatMap((file: unknown): UploadedFileRef[] => {
    if (!isRecord(file) || typeof file.filename !== "string") return [];
    // Fawn names a file's place `virtual_path`; DeerFlow's messages name it `path`.
    const where = typeof file.virtual_path === "string" ? file.virtual_path : file.path;
    if (typeof where !== "string") return [];
    return [
      {
        filename: file.filename,
        size: typeof file.size === "number" ? file.size : 0,
        virtual_path: where,
        ...(typeof file.markdown_virtual_path === "string" && { markdown_virtual_path: file.markdown_virtual_path }),
      },
    ];
  });
  return files.length > 0 ? files : undefined;
}

/** The block Fawn's agent puts before a message's text to tell the model of its uploads; the user never sees it. */
const UPLOADS_BLOCK = /^<uploaded_files>[\s\S]*?<\/uploaded_files>\n*/;

/**
 * A message from a server (LangGraph's serialization, `{lc: 1, kwargs}` constructors, or Fawn's wire message) as a
 * wire message, or undefined when it is not one. `fallbackId` keys a message that comes without an id.
 */
export function wireMessageOf(value: unknown, fallbackId?: string): WireMessage | undefined {
  if (!isRecord(value)) return undefined;
  let message = value;
  let type = str(value.type);
  if (value.lc === 1 && isRecord(value.kwargs) && Array.isArray(value.id)) {
    message = value.kwargs;
    type = String(value.id.at(-1) ?? "");
  }
  const kind = normalType(type ?? str(message.role));
  const id = str(message.id) ?? fallbackId;
  if (!kind || !id) return undefined;
  const content = contentOf(message.content);
  switch (kind) {
    case "human": {
      const files = filesOf(message);
      const shown = typeof content === "string" ? content.replace(UPLOADS_BLOCK, "") : content;
      return { type: "human", id, content: shown, ...(files && { files }) };
    }
    case "system":
      return { type: "system", id, content };
    case "tool": {
      const callId = str(message.tool_call_id);
      if (callId === undefined) return undefined;
      const status = message.status === "success" || message.status === "error" ? message.status : undefined;
      const tool: ToolWireMessage = { type: "tool", id, content, tool_call_id: callId };
      if (typeof message.name === "string") tool.name = message.name;
      if (status) tool.status = status;
      if (message.artifact !== undefined && message.artifact !== null) tool.artifact = message.artifact;
      return tool;
    }
    case "ai": {
      // A model that thinks inline starts its text with <think>…</think>: shown as reasoning, as an import reads it.
      const inline = typeof content === "string" ? splitInlineThinking(content) : undefined;
      const ai: AiWireMessage = { type: "ai", id, content: inline ? inline.text : content };
      const reasoning = reasoningOf(message) || inline?.reasoning;
      if (reasoning) ai.reasoning = reasoning;
      const calls = toolCallsOf(message.tool_calls);
      if (calls.length > 0) ai.tool_calls = calls;
      const usage = usageOf(message.usage_metadata);
      if (usage) ai.usage_metadata = usage;
      if (isRecord(message.response_metadata) && Object.keys(message.response_metadata).length > 0) {
        ai.response_metadata = message.response_metadata;
      }
      return ai;
    }
  }
}

function normalType(type: string | undefined): "human" | "ai" | "tool" | "system" | undefined {
  switch (type) {
    case "human":
    case "user":
    case "HumanMessage":
    case "HumanMessageChunk":
      return "human";
    case "ai":
    case "assistant":
    case "AIMessage":
    case "AIMessageChunk":
      return "ai";
    case "tool":
    case "ToolMessage":
    case "ToolMessageChunk":
      return "tool";
    case "system":
    case "SystemMessage":
      return "system";
    default:
      return undefined;
  }
}

function toolCallsOf(value: unknown): WireToolCall[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((call: unknown): WireToolCall[] => {
    if (!isRecord(call) || typeof call.name !== "string") return [];
    const id = typeof call.id === "string" ? call.id : `call-${call.name}`;
    return [{ id, name: call.name, args: isRecord(call.args) ? call.args : {} }];
  });
}

function toolCallChunksOf(value: unknown): WireToolCallChunk[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((part: unknown): WireToolCallChunk[] => {
    if (!isRecord(part)) return [];
    const chunk: WireToolCallChunk = {};
    if (typeof part.id === "string") chunk.id = part.id;
    if (typeof part.name === "string") chunk.name = part.name;
    if (typeof part.args === "string") chunk.args = part.args;
    if (typeof part.index === "number") chunk.index = part.index;
    return [chunk];
  });
}

/** The wire messages of a list from a server; what is not a message is left out. */
export function wireMessagesOf(value: unknown): WireMessage[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown, index) =>
    hiddenFromUi(item) ? [] : (wireMessageOf(item, `message-${index}`) ?? []),
  );
}

/** A message its client marked never to show (DeerFlow's reminders and a clarification's answer: `hide_from_ui`). */
function hiddenFromUi(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const message = value.lc === 1 && isRecord(value.kwargs) ? value.kwargs : value;
  return isRecord(message.additional_kwargs) && message.additional_kwargs.hide_from_ui === true;
}

/** A `messages` part's payload: a piece of the reply, or a tool's whole result. */
function messagePartOf(data: unknown, runId: string): RunEvent | undefined {
  if (!Array.isArray(data) || data.length < 1) return undefined;
  const [raw, meta] = data as [unknown, unknown];
  if (!isRecord(raw)) return undefined;
  const metadata = isRecord(meta) ? meta : {};
  const type = str(raw.type);
  if (type === "AIMessageChunk" || type === "ai" || type === "AIMessage") {
    const content = textOf(contentOf(raw.content));
    const chunk: AiWireMessageChunk = { type: "AIMessageChunk", id: str(raw.id) ?? `run-${runId}`, content };
    const reasoning = reasoningOf(raw);
    if (reasoning) chunk.reasoning = reasoning;
    const calls = toolCallChunksOf(raw.tool_call_chunks);
    if (calls.length > 0) chunk.tool_call_chunks = calls;
    const usage = usageOf(raw.usage_metadata);
    if (usage) chunk.usage_metadata = usage;
    return { event: "messages", data: [chunk, metadata] };
  }
  const message = wireMessageOf(raw);
  if (message?.type !== "tool") return undefined;
  return { event: "messages", data: [message, metadata] };
}

/**
 * One part of the SDK's stream as the RunEvent it carries, or undefined for a part Fawn does not show (another mode,
 * a subgraph's namespace `values|ns`, a malformed payload). `runId` names reply pieces that come without an id.
 */
export function runEventOf(part: StreamPart, runId: string): RunEvent | undefined {
  const { event, data } = part;
  switch (event) {
    case "metadata": {
      if (!isRecord(data) || typeof data.run_id !== "string") return undefined;
      return { event: "metadata", data: { run_id: data.run_id, thread_id: str(data.thread_id) ?? "" } };
    }
    case "values": {
      if (!isRecord(data)) return undefined;
      // Only what the page reads of the state: the rest (a sandbox's, a middleware's) stays on the server.
      const values: Extract<RunEvent, { event: "values" }>["data"] = { messages: wireMessagesOf(data.messages) };
      if (Array.isArray(data.todos)) values.todos = data.todos.filter(isTodoItem);
      if (Array.isArray(data.artifacts)) values.artifacts = data.artifacts.filter((path) => typeof path === "string");
      if (typeof data.title === "string") values.title = data.title.slice(0, 200);
      return { event: "values", data: values };
    }
    case "messages":
      return messagePartOf(data, runId);
    case "updates":
      return isRecord(data) ? { event: "updates", data } : undefined;
    case "custom":
      return { event: "custom", data };
    case "error":
      return { event: "error", data: runErrorOf(data) };
    default:
      return undefined;
  }
}

/** The status a run's `end` carries, from the run's status as LangGraph's API reports it. */
export function endStatusOf(status: unknown, sawError: boolean): RunEndStatus {
  if (status === "success") return "success";
  if (status === "interrupted" || status === "timeout") return "interrupted";
  if (status === "error" || sawError) return "error";
  return "success";
}
