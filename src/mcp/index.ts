// The MCP layer's public surface: the registry the agent and the Gateway use, and what its tools and errors look like.
export {
  createMcpClient,
  McpConnection,
  proxiedFetch,
  type FetchLike,
  type McpCallOptions,
  type McpConnectionOptions,
  type McpProgress,
  type McpTransportKind,
} from "./connection.ts";
export { McpOAuthProvider, type McpOAuthPart, type McpOAuthStore } from "./oauth-provider.ts";
export { describeMcpError, McpClientError, type McpFailureKind } from "./errors.ts";
export {
  McpRegistry,
  type McpOAuthOptions,
  type McpRegistryOptions,
  type McpRegistryTools,
  type McpSecretsOf,
  type McpServerFailure,
  type McpTestResult,
} from "./registry.ts";
export {
  artifactImages,
  MCP_OUTPUT_MAX_CHARS,
  toolOutput,
  type McpImage,
  type McpMediaBlock,
  type McpToolArtifact,
  type McpToolOutput,
} from "./results.ts";
export { mcpToolMetadata, type McpToolMetadata } from "./tool-metadata.ts";
export {
  createMcpTools,
  createServersMcpTools,
  MCP_TOOL_NAME,
  mcpToolName,
  type McpAgentTools,
  type McpToolsOptions,
  type RenamedMcpTool,
  type SkippedMcpTool,
} from "./tools.ts";
export {
  deferredToolsPrompt,
  MCP_TOOL_SEARCH_THRESHOLD,
  promotedToolNames,
  searchTools,
  shouldDeferTools,
  toolCatalog,
  toolSearchMiddleware,
  toolSearchTool,
  TOOL_SEARCH_TOOL_NAME,
  type ToolCatalog,
  type ToolSearchArtifact,
} from "./tool-search.ts";
