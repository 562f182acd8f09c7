// An MCP server's OAuth sign-in (its registered client, tokens, and the PKCE verifier and state of a sign-in under
// way), kept in `secrets` under `mcp-oauth.<server>.…` so that no backup or export ever holds it, and apart from the
// `mcp.` keys Settings → Tools replaces whole on every save. Each record names the server URL it was made for.
import type { FawnDb } from "./fawn-db.ts";
import type { McpOAuthStorage } from "./contracts.ts";

const PREFIX = "mcp-oauth.";

/** The parts of a sign-in, one record each. */
export type McpOAuthPart = "client" | "tokens" | "verifier" | "state" | "discovery" | "scope";

export function prefixOf(server: string): string {
  return `${PREFIX}${server}.`;
}

export class McpOAuthRepository implements McpOAuthStorage {
  constructor(private readonly db: FawnDb) {}

  /** The part as stored for `url`; undefined when missing or made for another URL. */
  async get(server: string, url: string, part: McpOAuthPart): Promise<unknown> {
    const record = await this.db.get("secrets", `${prefixOf(server)}${part}`);
    if (!record) return undefined;
    try {
      const parsed = JSON.parse(record.value) as { url?: unknown; value?: unknown };
      return parsed.url === url ? parsed.value : undefined;
    } catch {
      return undefined;
    }
  }

  async set(server: string, url: string, part: McpOAuthPart, value: unknown): Promise<void> {
    await this.db.put("secrets", { key: `${prefixOf(server)}${part}`, value: JSON.stringify({ url, value }) });
  }

  async delete(server: string, parts: readonly McpOAuthPart[]): Promise<void> {
    const tx = this.db.transaction("secrets", "readwrite");
    await Promise.all([...parts.map((part) => tx.store.delete(`${prefixOf(server)}${part}`)), tx.done]);
  }

  /** Forgets everything of the server's sign-in (signed out, removed, or its URL changed). */
  async forget(server: string): Promise<void> {
    const prefix = prefixOf(server);
    await this.db.delete("secrets", IDBKeyRange.bound(prefix, `${prefix}\uffff`));
  }

  /** The servers with tokens stored for the URL given. */
  async signedIn(servers: readonly { name: string; url: string }[]): Promise<string[]> {
    const found = await Promise.all(
      servers.map(async (server) => ((await this.get(server.name, server.url, "tokens")) ? server.name : undefined)),
    );
    return found.filter((name): name is string => name !== undefined);
  }
}
