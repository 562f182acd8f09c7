// Messages as plain data, shaped like LangGraph's serialized messages, so they cross postMessage and IndexedDB.

/** A text or image part of a multimodal message. */
export type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

export type MessageContent = string | ContentPart[];

export interface WireToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** A streamed fragment of a tool call: `args` is a partial JSON string. */
export interface WireToolCallChunk {
  id?: string;
  name?: string;
  args?: string;
  index?: number;
}

export interface UsageMetadata {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

/** A file uploaded with a message (what the agent is told, and what the message shows). */
export interface UploadedFileRef {
  filename: string;
  size: number;
  /** `/mnt/user-data/uploads/<filename>` */
  virtual_path: string;
  /** The Markdown made from a PDF, DOCX, XLSX or PPTX, beside it. */
  markdown_virtual_path?: string;
}

export interface HumanWireMessage {
  type: "human";
  id: string;
  content: MessageContent;
  /** Files the user attached to this message. */
  files?: UploadedFileRef[];
}

export interface AiWireMessage {
  type: "ai";
  id: string;
  content: MessageContent;
  /** The model's reasoning ("thinking"), shown apart from the answer. */
  reasoning?: string;
  tool_calls?: WireToolCall[];
  usage_metadata?: UsageMetadata;
  response_metadata?: Record<string, unknown>;
}

export interface ToolWireMessage {
  type: "tool";
  id: string;
  content: MessageContent;
  tool_call_id: string;
  name?: string;
  status?: "success" | "error";
  /** Data for the UI beside the text the model reads (JSON-safe), e.g. ask_clarification's `human_input`. */
  artifact?: unknown;
}

export interface SystemWireMessage {
  type: "system";
  id: string;
  content: MessageContent;
}

export type WireMessage = HumanWireMessage | AiWireMessage | ToolWireMessage | SystemWireMessage;

/** One streamed delta of an assistant message (LangGraph's `messages` stream mode). */
export interface AiWireMessageChunk {
  type: "AIMessageChunk";
  id: string;
  content: string;
  reasoning?: string;
  tool_call_chunks?: WireToolCallChunk[];
  usage_metadata?: UsageMetadata;
}

/** The text of a message's content, ignoring non-text parts. */
export function contentText(content: MessageContent): string {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text : "")).join("");
}
