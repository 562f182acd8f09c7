import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { mcpImageMessage } from "./mcp-images.ts";

const image = (data: string, mimeType = "image/png") => ({ type: "image", mimeType, data });
const result = (id: string, blocks: unknown[]) =>
  new ToolMessage({
    content: "[image image/png, 1 KB]",
    tool_call_id: id,
    name: "everything_get-tiny-image",
    artifact: { blocks, mcp_server: "everything", mcp_tool: "get-tiny-image" },
  });
const call = (id: string) =>
  new AIMessage({ content: "", tool_calls: [{ id, name: "everything_get-tiny-image", args: {} }] });

describe("MCP images for vision models", () => {
  it("shows the images of the results since the model's last message, once, as data URLs", () => {
    const messages = [
      new HumanMessage("draw"),
      call("c1"),
      result("c1", [image("T0xE")]),
      call("c2"),
      result("c2", [image("TkVX"), image("QVVE", "audio/wav"), { type: "resource_link", uri: "x://y" }]),
    ];
    const shown = mcpImageMessage(messages);
    expect(shown?.content).toEqual([
      { type: "text", text: "Image 1 from get-tiny-image on everything (image/png):" },
      { type: "image_url", image_url: { url: "data:image/png;base64,TkVX" } },
    ]);
  });

  it("adds nothing when the results since the model's last message hold no image", () => {
    expect(mcpImageMessage([new HumanMessage("hi"), call("c1"), result("c1", [])])).toBeUndefined();
    expect(mcpImageMessage([new HumanMessage("hi")])).toBeUndefined();
    expect(mcpImageMessage([call("c1"), result("c1", [image("T0xE")]), new AIMessage("done")])).toBeUndefined();
  });
});
