// Conversion between LangChain messages and the protocol's plain wire messages.
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type {
  AiWireMessage,
  AiWireMessageChunk,
  ContentPart,
  MessageContent,
  UsageMetadata,
  WireMessage,
  WireToolCall,
  WireToolCallChunk,
} from "../protocol/index.ts";
import { newId } from "../shared/ids.ts";
import { UPLOADS_ANNOUNCED, uploadedFilesOf, withoutUploadsBlock } from "./middlewares/upload-announcement.ts";

/** Keeps text and image parts; drops provider-specific blocks (reasoning travels separately). */
function toWireContent(content: unknown): MessageContent {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: ContentPart[] = [];
  for (const block of content as unknown[]) {
    if (typeof block !== "object" || block === null) continue;
    const part = block as { type?: unknown; text?: unknown; image_url?: unknown };
    if (part.type === "text" && typeof part.text === "string") parts.push({ type: "text", text: part.text });
    if (part.type === "image_url") {
      const url = typeof part.image_url === "string" ? part.image_url : (part.image_url as { url?: unknown })?.url;
      if (typeof url === "string") parts.push({ type: "image_url", image_url: { url } });
    }
  }
  return parts;
}

/**
 * The reasoning a message carries: OpenAI-compatible providers' `reasoning_content` (DeepSeek, Qwen, vLLM), the
 * `thinking` blocks of Anthropic's and Gemini's content (their signatures stay in the checkpoint, for the next call), or
 * the `reasoning` blocks of OpenAI's Responses API (its reasoning summary).
 */
function reasoningOf(message: BaseMessage): string | undefined {
  const reasoning = message.additional_kwargs?.reasoning_content;
  if (typeof reasoning === "string" && reasoning.length > 0) return reasoning;
  if (!Array.isArray(message.content)) return undefined;
  const thoughts = (message.content as unknown[])
    .map((block) => {
      const part = block as { type?: unknown; thinking?: unknown; reasoning?: unknown } | null;
      if (part?.type === "thinking" && typeof part.thinking === "string") return part.thinking;
      return part?.type === "reasoning" && typeof part.reasoning === "string" ? part.reasoning : "";
    })
    .join("");
  return thoughts.length > 0 ? thoughts : undefined;
}

function usageOf(message: BaseMessage): UsageMetadata | undefined {
  const usage = (message as { usage_metadata?: UsageMetadata }).usage_metadata;
  if (!usage) return undefined;
  return { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, total_tokens: usage.total_tokens };
}

/** A tool's artifact as JSON data (it crosses postMessage), or undefined when there is none or it is not JSON. */
function jsonArtifact(artifact: unknown): unknown {
  if (artifact === undefined || artifact === null) return undefined;
  try {
    return JSON.parse(JSON.stringify(artifact)) as unknown;
  } catch {
    return undefined;
  }
}

/** A LangChain message as wire data; a message without an id gets one, so the UI can key it. */
export function toWireMessage(message: BaseMessage): WireMessage {
  const id = message.id ?? newId();
  const content = toWireContent(message.content);
  switch (message.type) {
    case "human": {
      const files = uploadedFilesOf(message);
      // The `<uploaded_files>` block is for the model; the user sees the files as chips.
      const shown =
        typeof content === "string" && message.additional_kwargs?.[UPLOADS_ANNOUNCED]
          ? withoutUploadsBlock(content)
          : content;
      return { type: "human", id, content: shown, ...(files && { files }) };
    }
    case "system":
      return { type: "system", id, content };
    case "tool": {
      const tool = message as ToolMessage;
      const artifact = jsonArtifact(tool.artifact);
      return {
        type: "tool",
        id,
        content,
        tool_call_id: tool.tool_call_id,
        ...(tool.name ? { name: tool.name } : {}),
        ...(tool.status ? { status: tool.status } : {}),
        ...(artifact !== undefined && { artifact }),
      };
    }
    default: {
      const ai = message as AIMessage;
      const wire: AiWireMessage = { type: "ai", id, content };
      const reasoning = reasoningOf(message);
      if (reasoning) wire.reasoning = reasoning;
      const toolCalls: WireToolCall[] = (ai.tool_calls ?? []).map((call) => ({
        id: call.id ?? newId(),
        name: call.name,
        args: call.args,
      }));
      if (toolCalls.length > 0) wire.tool_calls = toolCalls;
      const usage = usageOf(message);
      if (usage) wire.usage_metadata = usage;
      if (message.response_metadata && Object.keys(message.response_metadata).length > 0) {
        wire.response_metadata = JSON.parse(JSON.stringify(message.response_metadata)) as Record<string, unknown>;
      }
      return wire;
    }
  }
}

/** A streamed AI chunk as a wire delta; `id` groups the deltas of one message. */
export function toWireChunk(chunk: BaseMessage, fallbackId: string): AiWireMessageChunk {
  const content = toWireContent(chunk.content);
  const text = typeof content === "string" ? content : content.map((p) => (p.type === "text" ? p.text : "")).join("");
  const wire: AiWireMessageChunk = { type: "AIMessageChunk", id: chunk.id ?? fallbackId, content: text };
  const reasoning = reasoningOf(chunk);
  if (reasoning) wire.reasoning = reasoning;
  const toolCallChunks = (chunk as { tool_call_chunks?: WireToolCallChunk[] }).tool_call_chunks;
  if (toolCallChunks && toolCallChunks.length > 0) {
    wire.tool_call_chunks = toolCallChunks.map((part) => ({
      ...(part.id ? { id: part.id } : {}),
      ...(part.name ? { name: part.name } : {}),
      ...(part.args ? { args: part.args } : {}),
      ...(part.index !== undefined ? { index: part.index } : {}),
    }));
  }
  const usage = usageOf(chunk);
  if (usage) wire.usage_metadata = usage;
  return wire;
}

/** A wire message back as the LangChain message the model is given. */
export function fromWireMessage(message: WireMessage): BaseMessage {
  const content = message.content as string;
  switch (message.type) {
    case "human":
      return new HumanMessage({
        id: message.id,
        content,
        ...(message.files && message.files.length > 0 && { additional_kwargs: { files: message.files } }),
      });
    case "system":
      return new SystemMessage({ id: message.id, content });
    case "tool":
      return new ToolMessage({
        id: message.id,
        content,
        tool_call_id: message.tool_call_id,
        ...(message.name ? { name: message.name } : {}),
        ...(message.status ? { status: message.status } : {}),
        ...(message.artifact !== undefined && { artifact: message.artifact }),
      });
    case "ai":
      return new AIMessage({
        id: message.id,
        content,
        tool_calls: (message.tool_calls ?? []).map((call) => ({ ...call, type: "tool_call" as const })),
        ...(message.reasoning ? { additional_kwargs: { reasoning_content: message.reasoning } } : {}),
        // The turn's token usage and model, shown beside the reply (toWireMessage keeps them too).
        ...(message.usage_metadata && { usage_metadata: message.usage_metadata }),
        ...(message.response_metadata && { response_metadata: message.response_metadata }),
      });
  }
}
