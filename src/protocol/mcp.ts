// MCP servers (Settings → Tools): what the page, the Gateway and the agent's MCP client agree on. A server is reached
// by URL over Streamable HTTP (SSE for older servers), directly or through Fawn's proxy; a local stdio server is
// reached through the proxy's bridge, at the proxy's /mcp/<name>. docs/architecture.md#d7-mcp.

/** A server's name: it prefixes its tools' names (`<server>_<tool>`), as DeerFlow's do. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]{1,32}$/;

/** The longest tool name a model API takes (OpenAI's function names). */
export const MCP_TOOL_NAME_MAX = 64;

/** How long one tool call may take unless the server's settings say otherwise. */
export const MCP_DEFAULT_TIMEOUT_SECONDS = 60;

/** One MCP server as the user configured it (without its secrets). */
export interface McpServerConfig {
  name: string;
  /** The server's MCP endpoint (http or https). */
  url: string;
  enabled: boolean;
  /** Reach it through Fawn's proxy (Settings → Web's proxy URL), for servers that refuse browser requests. */
  useProxy?: boolean;
  /** Extra request headers (an API key header, say); their values are kept with the secrets, never exported. */
  headers?: Record<string, string>;
  /** Tools switched off, by the server's own tool name. */
  disabledTools?: string[];
  /** The most one call may take, in seconds (progress from the server restarts the count). */
  timeoutSeconds?: number;
  /** What the server is for, shown in the prompt beside its name. */
  description?: string;
  /**
   * The OAuth client ID registered for Fawn with the server's authorization server beforehand, for servers without
   * dynamic client registration; its secret, if any, is kept with the secrets.
   */
  oauthClientId?: string;
}

/** A server's secrets: kept in the secrets store, never exported. */
export interface McpServerSecrets {
  /** Sent as `Authorization: Bearer <token>`. */
  bearerToken?: string;
  /** The secret of the pre-registered OAuth client (`oauthClientId`), sent only to the authorization server. */
  oauthClientSecret?: string;
}

/** One tool a server offers, as it describes it. */
export interface McpToolInfo {
  /** The server's own name for it. */
  name: string;
  description?: string;
  /** JSON Schema of its arguments (an object schema). */
  inputSchema: Record<string, unknown>;
}

/** A server as Settings → Tools edits it: its settings with its secrets. */
export type McpServerEntry = McpServerConfig & McpServerSecrets;

/** A server signs in with OAuth when it has no bearer token or Authorization header of its own. */
export function usesMcpOAuth(config: McpServerConfig, secrets: McpServerSecrets): boolean {
  if (secrets.bearerToken?.trim()) return false;
  return !Object.keys(config.headers ?? {}).some((name) => name.toLowerCase() === "authorization");
}

/** What "Import" of a DeerFlow `mcpServers` file gives the form: the servers it could take, and why others not. */
export interface McpConfigImport {
  servers: McpServerEntry[];
  /** Entries left out, each with one sentence saying why (a stdio command, a bad URL…). */
  skipped: { name: string; reason: string }[];
}

/**
 * The answer to "Test connection": the server's tools, or why it could not be reached; `signIn` when the server wants
 * an OAuth sign-in (Settings → Tools then offers "Sign in"), or asked for more access than it was granted (a step-up).
 */
export type McpConnectionTest =
  { ok: true; tools: McpToolInfo[]; signIn?: boolean } | { ok: false; error: string; signIn?: boolean };

/** Beginning a server's OAuth sign-in: the authorization page to open, or already signed in (tokens that work). */
export type McpSignInStart = { signedIn: true } | { signedIn: false; authorizationUrl: string };

/** What Fawn's oauth-callback.html posts on the `fawn-oauth` BroadcastChannel when the authorization server is done. */
export interface McpSignInAnswer {
  state: string;
  code?: string;
  /** The authorization server's `error` (and `error_description`), when it refused. */
  error?: string;
}

/** The BroadcastChannel oauth-callback.html posts its McpSignInAnswer on. */
export const MCP_OAUTH_CHANNEL = "fawn-oauth";

/** A running MCP tool call's progress, as a run's `custom` event: the conversation's step shows it. */
export interface ToolProgressEvent {
  type: "tool_progress";
  tool_call_id: string;
  progress: number;
  total?: number;
  message?: string;
}

export function isToolProgressEvent(value: unknown): value is ToolProgressEvent {
  const event = value as Partial<ToolProgressEvent> | null;
  return (
    typeof event === "object" &&
    event !== null &&
    event.type === "tool_progress" &&
    typeof event.tool_call_id === "string" &&
    typeof event.progress === "number"
  );
}
