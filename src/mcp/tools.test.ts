import { ToolMessage } from "@langchain/core/messages";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { McpServerConfig, McpToolInfo } from "../protocol/index.ts";
import type { McpCallOptions } from "./connection.ts";
import { McpClientError } from "./errors.ts";
import { mcpToolMetadata } from "./tool-metadata.ts";
import { createMcpTools, type McpToolCaller } from "./tools.ts";

const object = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };

/** A caller that answers every call with `answer` and records what it was asked. */
function fakeCaller(
  config: Partial<McpServerConfig> = {},
  answer: CallToolResult = { content: [{ type: "text", text: "ok" }] },
) {
  const calls: { name: string; args: Record<string, unknown>; options: McpCallOptions | undefined }[] = [];
  const caller: McpToolCaller = {
    config: { name: "docs", url: "https://docs.example/mcp", enabled: true, ...config },
    callTool: async (name, args, options) => {
      calls.push({ name, args, options });
      options?.onProgress?.({ progress: 1, total: 2, message: "half" });
      return answer;
    },
  };
  return { caller, calls };
}

describe("createMcpTools", () => {
  it("names tools <server>_<tool>, keeps descriptions and schemas, and marks them with server and tool", () => {
    const { caller } = fakeCaller();
    const { tools, skipped } = createMcpTools(caller, [
      { name: "search", description: "Search the docs.", inputSchema: object },
      { name: "list", inputSchema: { type: "object" } },
    ]);
    expect(skipped).toEqual([]);
    expect(tools.map((tool) => tool.name)).toEqual(["docs_search", "docs_list"]);
    expect(tools[0]?.description).toBe("Search the docs.");
    expect(tools[0]?.schema).toEqual(object);
    expect(tools[1]?.schema).toEqual({ type: "object", properties: {} });
    expect(tools[1]?.description).toBe("The list tool of the MCP server docs.");
    expect(mcpToolMetadata(tools[0]!)).toEqual({ mcp_server: "docs", mcp_tool: "search" });
    expect(mcpToolMetadata({ metadata: { other: 1 } })).toBeUndefined();
  });

  it("leaves out disabled tools silently, and badly named or too long ones with a reason", () => {
    const { caller } = fakeCaller({ disabledTools: ["secret"] });
    const infos: McpToolInfo[] = [
      { name: "secret", inputSchema: object },
      { name: "with space", inputSchema: object },
      { name: "x".repeat(60), inputSchema: object },
      { name: "fine", inputSchema: object },
      { name: "fine", inputSchema: object },
    ];
    const { tools, skipped } = createMcpTools(caller, infos);
    expect(tools.map((tool) => tool.name)).toEqual(["docs_fine"]);
    expect(skipped).toEqual([
      {
        server: "docs",
        tool: "with space",
        reason: 'its name "docs_with space" holds characters other than letters, digits, "_" and "-"',
      },
      {
        server: "docs",
        tool: "x".repeat(60),
        reason: `its name "docs_${"x".repeat(60)}" is longer than 64 characters`,
      },
      { server: "docs", tool: "fine", reason: 'the server lists "fine" twice' },
    ]);
  });

  it("calls the server's own tool name with the run's signal, and reports progress by tool call id", async () => {
    const { caller, calls } = fakeCaller();
    const progress: unknown[] = [];
    const [search] = createMcpTools(caller, [{ name: "search", inputSchema: object }], {
      onProgress: (id, update) => progress.push([id, update]),
    }).tools;
    const stop = new AbortController();
    const message = await search!.invoke(
      { id: "call_7", name: "docs_search", args: { q: "mcp" }, type: "tool_call" },
      { signal: stop.signal },
    );
    expect(message).toBeInstanceOf(ToolMessage);
    expect((message as ToolMessage).content).toBe("ok");
    expect(calls[0]?.name).toBe("search");
    expect(calls[0]?.args).toEqual({ q: "mcp" });
    // LangChain hands the tool a signal that follows the run's.
    expect(calls[0]?.options?.signal?.aborted).toBe(false);
    stop.abort();
    expect(calls[0]?.options?.signal?.aborted).toBe(true);
    expect(progress).toEqual([["call_7", { progress: 1, total: 2, message: "half" }]]);
  });

  it("throws the tool's failure as one sentence, which the tool-errors middleware passes to the model", async () => {
    const { caller } = fakeCaller({}, { isError: true, content: [{ type: "text", text: "Repository not found" }] });
    const [search] = createMcpTools(caller, [{ name: "search", inputSchema: object }]).tools;
    const error = await search!
      .invoke({ id: "call_8", name: "docs_search", args: { q: "x" }, type: "tool_call" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpClientError);
    expect((error as Error).message).toBe('The MCP tool "search" on server "docs" failed: Repository not found');
  });
});
