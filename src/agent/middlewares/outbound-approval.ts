// Tool calls that send data out (web_search, web_fetch, the user's MCP tools) wait for the user's answer in threads
// holding another person's content, or everywhere when Settings → Web asks for it. The wait happens inside the tool
// call: the browser build of LangGraph has no interrupt() (docs/architecture.md#d3-agent). Stop cancels the wait.
// A denied call is answered with a refusal the model reads, and the run goes on.
import { ToolMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { createMiddleware } from "langchain";
import { mcpToolMetadata } from "../../mcp/tool-metadata.ts";

/** A call that waits: its id, the tool, and where it would send data. */
export interface OutboundCall {
  tool_call_id: string;
  tool: string;
  /** The URL, the search query, or the MCP server and tool. */
  target: string;
  /** For an MCP tool, its server. */
  server?: string;
}

/** Where a call would send data: a URL, a query, an MCP server's tool, or a shell command. */
export interface OutboundTarget {
  target: string;
  server?: string;
}

export interface OutboundApproval {
  /** The call's target when its tool sends data out; undefined for the tools that do not (they run at once). */
  describe(call: { name: string; args: unknown }): OutboundTarget | undefined | Promise<OutboundTarget | undefined>;
  /** Resolves with the user's answer; rejects (an AbortError) when `signal` aborts first. */
  ask(call: OutboundCall, signal?: AbortSignal): Promise<"allow" | "deny">;
}

/** The refusal a denied call is answered with. */
export function deniedToolText(tool: string, target: string): string {
  return (
    `The user denied this ${tool} call (to ${target}): it was not run and nothing was sent. Do not try to reach ` +
    "the same place another way; go on without it, or ask the user."
  );
}

const WEB_TARGETS: Readonly<Record<string, string>> = { web_fetch: "url", web_search: "query", image_search: "query" };

function argument(args: unknown, key: string): string {
  const value = typeof args === "object" && args !== null ? (args as Record<string, unknown>)[key] : undefined;
  return typeof value === "string" ? value : JSON.stringify(value ?? "");
}

/**
 * Which of `tools` send data out, and to where: the web tools (web_fetch's URL, web_search's query) and every MCP
 * tool (its server and the server's name for the tool).
 */
export function outboundTargets(
  tools: readonly StructuredToolInterface[],
): (call: { name: string; args: unknown }) => { target: string; server?: string } | undefined {
  const known = new Map<string, { key?: string; server?: string; tool?: string }>();
  for (const tool of tools) {
    const mcp = mcpToolMetadata(tool as { metadata?: Record<string, unknown> });
    if (mcp) known.set(tool.name, { server: mcp.mcp_server, tool: mcp.mcp_tool });
    else if (WEB_TARGETS[tool.name]) known.set(tool.name, { key: WEB_TARGETS[tool.name]! });
  }
  return (call) => {
    const entry = known.get(call.name);
    if (!entry) return undefined;
    if (entry.server !== undefined)
      return { target: `${entry.server}: ${entry.tool ?? call.name}`, server: entry.server };
    return { target: argument(call.args, entry.key ?? "") };
  };
}

/**
 * `describe`, with the `bash` tool sending data out (its target: the command) when `networked()` says the thread's
 * shell reaches the network: a WebContainer's node and npm do; the browser sandbox's bash has no network at all.
 */
export function withNetworkedShell(
  describe: OutboundApproval["describe"],
  networked: () => Promise<boolean>,
): OutboundApproval["describe"] {
  return async (call) => {
    if (call.name === "bash" && (await networked())) return { target: argument(call.args, "command") };
    return describe(call);
  };
}

/** The approval step: the last tool-call wrapper in the chain, so only calls that would really run ask. */
export function outboundApprovalMiddleware(approval: OutboundApproval) {
  return createMiddleware({
    name: "OutboundApprovalMiddleware",
    wrapToolCall: async (request, handler) => {
      const call = request.toolCall;
      const described = await approval.describe({ name: call.name, args: call.args });
      if (!described) return handler(request);
      const answer = await approval.ask(
        { tool_call_id: call.id ?? "", tool: call.name, ...described },
        request.runtime.signal,
      );
      if (answer === "allow") return handler(request);
      return new ToolMessage({
        content: deniedToolText(call.name, described.target),
        tool_call_id: call.id ?? "",
        name: call.name,
        status: "error",
      });
    },
  });
}
