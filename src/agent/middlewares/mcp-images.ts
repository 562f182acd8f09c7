// Images an MCP tool returned, for vision models. A tool message's content is text (OpenAI-style APIs refuse images
// outside user messages), so right before the next model call the images of the MCP results since the model's last
// message are shown to it as a hidden message with data URLs, added to that request only, like view_image's.
import { AIMessage, ToolMessage, type BaseMessage, type HumanMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";
import { artifactImages } from "../../mcp/results.ts";
import { hiddenMessage } from "../hidden-messages.ts";

/** Image types a model takes as a data URL. */
const SHOWN_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);
/** The most image bytes shown at once (base64 characters), so one tool cannot blow a request up. */
const MAX_BASE64_CHARS = 20 * 1024 * 1024;

/** The hidden message with the images of the MCP results after the model's last message, if there are any. */
export function mcpImageMessage(messages: readonly BaseMessage[]): HumanMessage | undefined {
  const lastAi = messages.findLastIndex((message) => AIMessage.isInstance(message));
  if (lastAi < 0) return undefined;
  const content: ({ type: "text"; text: string } | { type: "image_url"; image_url: { url: string } })[] = [];
  let budget = MAX_BASE64_CHARS;
  for (const message of messages.slice(lastAi + 1)) {
    if (!ToolMessage.isInstance(message)) continue;
    const artifact = message.artifact as { mcp_server?: unknown; mcp_tool?: unknown } | undefined;
    const images = artifactImages(message.artifact).filter((image) => SHOWN_TYPES.has(image.mimeType));
    for (const [index, image] of images.entries()) {
      if (image.data.length > budget) break;
      budget -= image.data.length;
      const from = `${String(artifact?.mcp_tool ?? message.name)} on ${String(artifact?.mcp_server ?? "MCP")}`;
      content.push({ type: "text", text: `Image ${index + 1} from ${from} (${image.mimeType}):` });
      content.push({ type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } });
    }
  }
  return content.length > 0 ? hiddenMessage(content) : undefined;
}

/** Shows a vision model the images its MCP tools just returned. */
export function mcpImagesMiddleware() {
  return createMiddleware({
    name: "McpImagesMiddleware",
    wrapModelCall: (request, handler) => {
      const message = mcpImageMessage(request.messages);
      return handler(message ? { ...request, messages: [...request.messages, message] } : request);
    },
  });
}
