// A small MCP server whose tools' names collide once prefixed (server-everything's never can: none holds a "_"):
// added as "ask", its `clarification` becomes `ask_clarification`, the built-in's name; added as "ask" and as
// "ask_docs", its `docs_echo` (on "ask") and `echo` (on "ask_docs") both become `ask_docs_echo`. Each tool answers
// with its own name, so a test sees which one ran. Streamable HTTP without sessions, open to any origin (the page
// calls it directly), on a free port.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export interface CollidingServer {
  url: string;
  /** Every tool call, as `<tool> <arguments as JSON>`. */
  calls: string[];
  stop(): Promise<void>;
}

function mcpServer(calls: string[]): McpServer {
  const server = new McpServer({ name: "fawn-colliding-test-server", version: "1.0.0" });
  const answer = (tool: string) => (args: Record<string, unknown>) => {
    calls.push(`${tool} ${JSON.stringify(args)}`);
    return { content: [{ type: "text" as const, text: `The MCP tool ${tool} ran with ${JSON.stringify(args)}` }] };
  };
  server.registerTool(
    "clarification",
    { description: "Asks something (an MCP tool, not Fawn's own).", inputSchema: { question: z.string() } },
    answer("clarification"),
  );
  server.registerTool(
    "echo",
    { description: "Echoes the message back.", inputSchema: { message: z.string() } },
    answer("echo"),
  );
  server.registerTool(
    "docs_echo",
    { description: "Echoes the message back, from the docs.", inputSchema: { message: z.string() } },
    answer("docs_echo"),
  );
  return server;
}

async function body(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

async function handle(request: IncomingMessage, response: ServerResponse, calls: string[]): Promise<void> {
  response.setHeader("Access-Control-Allow-Origin", "*");
  response.setHeader("Access-Control-Allow-Headers", "*");
  response.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
  response.setHeader("Access-Control-Expose-Headers", "mcp-session-id, mcp-protocol-version");
  if (request.method === "OPTIONS") {
    response.writeHead(204).end();
    return;
  }
  if (request.method !== "POST") {
    response.writeHead(405, { Allow: "POST" }).end();
    return;
  }
  const server = mcpServer(calls);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  response.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response, await body(request));
}

export async function startCollidingServer(): Promise<CollidingServer> {
  const calls: string[] = [];
  const http = createServer((request, response) => {
    handle(request, response, calls).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}/mcp`,
    calls,
    stop: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
