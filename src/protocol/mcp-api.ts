// The MCP domain's contract (`gateway.mcp`): Settings → Tools' servers, their connection test and OAuth sign-in, and
// DeerFlow's extensions_config.json.
import type { McpConfigImport, McpConnectionTest, McpServerEntry, McpSignInAnswer, McpSignInStart } from "./mcp.ts";

export interface McpApi {
  /** Settings → Tools: the MCP servers, each with its secrets (a bearer token, header values). */
  list(): Promise<McpServerEntry[]>;
  /**
   * Stores the MCP servers in place of the ones there were; a bad entry is refused with one sentence naming the server
   * and nothing changes. Secrets are kept apart and never exported.
   */
  save(servers: McpServerEntry[]): Promise<McpServerEntry[]>;
  /** "Test connection": the server's tools, or the sentence saying why it could not be reached. */
  test(server: McpServerEntry): Promise<McpConnectionTest>;
  /** The names of the stored MCP servers signed in with OAuth (their tokens are kept as secrets, never exported). */
  signedIn(): Promise<string[]>;
  /**
   * "Sign in" for a server that wants OAuth: the authorization page to open (oauth-callback.html brings the answer
   * back), or `signedIn` when its stored tokens still work. Rejects with one sentence when the server's sign-in
   * cannot begin.
   */
  beginSignIn(server: McpServerEntry): Promise<McpSignInStart>;
  /** Finishes the sign-in whose state the answer carries (code → tokens, saved as secrets); names the server. */
  finishSignIn(answer: McpSignInAnswer): Promise<{ server: string }>;
  /** "Sign out": forgets the server's OAuth tokens and registration. */
  signOut(name: string): Promise<void>;
  /** Reads DeerFlow's `extensions_config.json` (or an `mcpServers` object) for the form; nothing is stored. */
  importConfig(text: string): Promise<McpConfigImport>;
  /** The MCP servers as DeerFlow's `extensions_config.json`, without a secret. */
  exportConfig(): Promise<{ file_name: string; blob: Blob }>;
}
