// A server's tools as LangChain tools the agent binds like its own: named `<server>_<tool>` (DeerFlow's prefix) unless
// that is a built-in tool's or another server's tool's name (protocol/mcp-tool-names.ts renames it then), the server's description and JSON Schema kept, `{ mcp_server, mcp_tool }` in their metadata. A call passes the
// run's signal on (Stop cancels it on the server), reports progress by tool call id, and throws the one-sentence
// McpClientError the tool-errors middleware turns into the error ToolMessage.
import { DynamicStructuredTool, type ToolRunnableConfig } from "@langchain/core/tools";
import type { JSONSchema } from "@langchain/core/utils/json_schema";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  MCP_TOOL_NAME,
  mcpToolName,
  mcpToolNamingReason,
  nameMcpTools,
  type McpServerConfig,
  type McpToolInfo,
} from "../protocol/index.ts";
import type { McpCallOptions, McpProgress } from "./connection.ts";
import { toolFailed } from "./errors.ts";
import type { McpToolMetadata } from "./tool-metadata.ts";
import { MCP_OUTPUT_MAX_CHARS, resultText, toolOutput, type McpToolArtifact } from "./results.ts";

export { MCP_TOOL_NAME, mcpToolName };

/** What the agent tools need from a connection. */
export interface McpToolCaller {
  readonly config: McpServerConfig;
  callTool(name: string, args: Record<string, unknown>, options?: McpCallOptions): Promise<CallToolResult>;
}

/** A tool left out, and why (for the caller's log or Settings). */
export interface SkippedMcpTool {
  server: string;
  tool: string;
  reason: string;
}

export interface McpToolsOptions {
  /** Progress of a running call, by the model's tool call id. */
  onProgress?: (toolCallId: string, progress: McpProgress) => void;
  /** Default MCP_OUTPUT_MAX_CHARS. */
  maxOutputChars?: number;
}

/** A tool the model knows by another name than `<server>_<tool>`, and why. */
export interface RenamedMcpTool {
  server: string;
  tool: string;
  name: string;
  reason: string;
}

export interface McpAgentTools {
  tools: DynamicStructuredTool[];
  skipped: SkippedMcpTool[];
  renamed: RenamedMcpTool[];
}

/** An object schema model APIs accept: `type: "object"` and `properties` always present. */
function argumentSchema(inputSchema: Record<string, unknown>): JSONSchema {
  return {
    ...inputSchema,
    type: "object",
    properties: (inputSchema.properties as object | undefined) ?? {},
  } as JSONSchema;
}

/**
 * The agent tools of one server's `tools` (from listTools): disabled ones left out silently, badly named or too
 * long ones left out with a reason, and one whose name is a built-in tool's renamed.
 */
export function createMcpTools(
  caller: McpToolCaller,
  tools: McpToolInfo[],
  options: McpToolsOptions = {},
): McpAgentTools {
  return createServersMcpTools([{ caller, tools }], options);
}

/**
 * The agent tools of several servers at once: named together by nameMcpTools, so a built-in tool keeps its name and
 * two servers' tools never share one.
 */
export function createServersMcpTools(
  servers: readonly { caller: McpToolCaller; tools: McpToolInfo[] }[],
  options: McpToolsOptions = {},
): McpAgentTools {
  const result: McpAgentTools = { tools: [], skipped: [], renamed: [] };
  const offered = servers.map(({ caller, tools }) => {
    const disabled = new Set(caller.config.disabledTools ?? []);
    return { caller, tools: tools.filter((info) => !disabled.has(info.name)) };
  });
  const names = nameMcpTools(
    offered.map(({ caller, tools }) => ({ server: caller.config.name, tools: tools.map((info) => info.name) })),
  );
  const items = offered.flatMap(({ caller, tools }) => tools.map((info) => ({ caller, info })));
  for (const [index, { caller, info }] of items.entries()) {
    const naming = names[index]!;
    const server = caller.config.name;
    const reason = mcpToolNamingReason(naming) ?? "";
    if (naming.kind === "refused") {
      result.skipped.push({ server, tool: info.name, reason });
      continue;
    }
    if (naming.kind === "renamed") result.renamed.push({ server, tool: info.name, name: naming.name, reason });
    const name = naming.name;
    result.tools.push(
      new DynamicStructuredTool({
        name,
        description: info.description?.trim() || `The ${info.name} tool of the MCP server ${server}.`,
        schema: argumentSchema(info.inputSchema),
        responseFormat: "content_and_artifact",
        metadata: { mcp_server: server, mcp_tool: info.name } satisfies McpToolMetadata,
        func: async (input: unknown, _runManager, config?: ToolRunnableConfig): Promise<[string, McpToolArtifact]> => {
          const toolCallId = config?.toolCall?.id;
          const onProgress = options.onProgress;
          const call = await caller.callTool(info.name, (input ?? {}) as Record<string, unknown>, {
            ...(config?.signal && { signal: config.signal }),
            ...(onProgress &&
              toolCallId && { onProgress: (progress: McpProgress) => onProgress(toolCallId, progress) }),
          });
          if (call.isError) throw toolFailed({ server, tool: info.name }, resultText(call));
          const output = toolOutput(call, options.maxOutputChars ?? MCP_OUTPUT_MAX_CHARS);
          // The step in the conversation names the server and its own name for the tool.
          return [output.text, { ...output.artifact, mcp_server: server, mcp_tool: info.name }];
        },
      }),
    );
  }
  return result;
}
