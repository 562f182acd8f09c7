// A tool call's result (MCP CallToolResult) as the model and the UI get it, DeerFlow's way: text blocks are the
// text; every image, audio clip and resource stays a block beside a short stub in the text ("[image image/png,
// 5.3 KB]"), because OpenAI-style APIs take only text in tool messages; structuredContent is kept as the artifact.
import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import { formatBytes, truncateMiddle } from "../shared/text.ts";

/** The longest text an MCP tool result gives the model (like bash's output: head and tail kept). */
export const MCP_OUTPUT_MAX_CHARS = 20_000;

/** An image a tool returned, for showing it to a vision model the view_image way. */
export interface McpImage {
  mimeType: string;
  /** Base64, as the server sent it. */
  data: string;
}

/** A non-text block, as a LangChain standard content block (what the UI and exports keep). */
export type McpMediaBlock =
  | { type: "image"; mimeType: string; data: string }
  | { type: "audio"; mimeType: string; data: string }
  | { type: "file"; mimeType?: string; data: string; metadata: { uri: string } }
  | { type: "file"; mimeType?: string; url: string; metadata: { name: string; uri: string } }
  | { type: "text-plain"; mimeType?: string; text: string; metadata: { uri: string } };

/** The ToolMessage artifact of an MCP call: what the model does not read but the UI may show. */
export interface McpToolArtifact {
  /** The server and its name for the tool, for the conversation's step. */
  mcp_server?: string;
  mcp_tool?: string;
  /** The tool's structuredContent, as DeerFlow stores it. */
  structured_content?: Record<string, unknown>;
  blocks?: McpMediaBlock[];
}

/** A result made ready for a ToolMessage. */
export interface McpToolOutput {
  /** What the model reads: the text blocks, a stub per other block, capped at MCP_OUTPUT_MAX_CHARS. */
  text: string;
  blocks: McpMediaBlock[];
  /** The images among `blocks`. */
  images: McpImage[];
  /** undefined when there is nothing beyond the text. */
  artifact: McpToolArtifact | undefined;
}

/** The decoded size of base64 data. */
function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function mediaStub(kind: string, mimeType: string | undefined, data: string): string {
  return `[${kind} ${mimeType ?? "application/octet-stream"}, ${formatBytes(base64Bytes(data))}]`;
}

/** One block's text for the model and, when it is not plain text, the block itself. */
function convertBlock(block: ContentBlock): { text: string; media?: McpMediaBlock } {
  switch (block.type) {
    case "text":
      return { text: block.text };
    case "image":
      return {
        text: mediaStub("image", block.mimeType, block.data),
        media: { type: "image", mimeType: block.mimeType, data: block.data },
      };
    case "audio":
      return {
        text: mediaStub("audio", block.mimeType, block.data),
        media: { type: "audio", mimeType: block.mimeType, data: block.data },
      };
    case "resource_link":
      return {
        text: `[resource_link ${block.uri} ${JSON.stringify(block.name)}]`,
        media: {
          type: "file",
          url: block.uri,
          ...(block.mimeType && { mimeType: block.mimeType }),
          metadata: { name: block.name, uri: block.uri },
        },
      };
    case "resource": {
      const resource = block.resource;
      const mime = resource.mimeType;
      if ("text" in resource && typeof resource.text === "string") {
        // An embedded text resource is text the model should read, as DeerFlow does.
        return { text: `[resource ${resource.uri}]\n${resource.text}` };
      }
      const data = "blob" in resource && typeof resource.blob === "string" ? resource.blob : "";
      const media: McpMediaBlock = mime?.startsWith("image/")
        ? { type: "image", mimeType: mime, data }
        : { type: "file", data, ...(mime && { mimeType: mime }), metadata: { uri: resource.uri } };
      return {
        text: `[resource ${resource.uri} ${mime ?? "application/octet-stream"}, ${formatBytes(base64Bytes(data))}]`,
        media,
      };
    }
    default:
      return { text: `[${(block as { type?: string }).type ?? "unknown"} block]` };
  }
}

/** The text a failed result (`isError`) carries: its text blocks joined. */
export function resultText(result: CallToolResult): string {
  return result.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

/** A CallToolResult as the text the model reads, the blocks the UI keeps and the images for vision models. */
export function toolOutput(result: CallToolResult, maxChars = MCP_OUTPUT_MAX_CHARS): McpToolOutput {
  const texts: string[] = [];
  const blocks: McpMediaBlock[] = [];
  for (const block of result.content) {
    const converted = convertBlock(block);
    texts.push(converted.text);
    if (converted.media) blocks.push(converted.media);
  }
  const structured = result.structuredContent;
  // A tool that returns only structuredContent still tells the model something.
  if (texts.length === 0 && structured) texts.push(JSON.stringify(structured));
  const text = truncateMiddle(texts.join("\n"), maxChars) || "(the tool returned nothing)";
  const images = blocks.flatMap((block) =>
    block.type === "image" ? [{ mimeType: block.mimeType, data: block.data }] : [],
  );
  const artifact: McpToolArtifact = {
    ...(structured && { structured_content: structured }),
    ...(blocks.length > 0 && { blocks }),
  };
  return { text, blocks, images, artifact: Object.keys(artifact).length > 0 ? artifact : undefined };
}

/** The images in a ToolMessage's artifact, when it is an MCP tool's: what a vision model may be shown. */
export function artifactImages(artifact: unknown): McpImage[] {
  const blocks = (artifact as McpToolArtifact | undefined)?.blocks;
  if (!Array.isArray(blocks)) return [];
  return blocks.flatMap((block) =>
    block.type === "image" && typeof block.data === "string" ? [{ mimeType: block.mimeType, data: block.data }] : [],
  );
}
