// What an MCP agent tool carries in its metadata, readable without loading the MCP SDK: the agent's outbound
// approval names an MCP call's server and tool from it, and the SDK stays in its lazily loaded chunk.

/** What every MCP agent tool's metadata holds. */
export interface McpToolMetadata extends Record<string, unknown> {
  mcp_server: string;
  mcp_tool: string;
}

/** The server's and the tool's names, when `tool` is an MCP agent tool. */
export function mcpToolMetadata(tool: { metadata?: Record<string, unknown> }): McpToolMetadata | undefined {
  const metadata = tool.metadata;
  if (typeof metadata?.mcp_server !== "string" || typeof metadata.mcp_tool !== "string") return undefined;
  return { mcp_server: metadata.mcp_server, mcp_tool: metadata.mcp_tool };
}
