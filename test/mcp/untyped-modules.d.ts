// Types for the test servers' dev-only modules that ship none: express and cors come with the MCP SDK (1.x), and
// server-everything has no declarations.
declare module "express";
declare module "cors";
declare module "@modelcontextprotocol/server-everything/dist/server/index.js" {
  import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
  export function createServer(): { server: McpServer; cleanup: (sessionId?: string) => void };
}
