// Settings → Tools' MCP servers: their settings in `mcp_servers`, their secrets (a bearer token, header values, an
// OAuth client secret) in
// `secrets` under `mcp.<server>.…`, so that no backup or export ever holds them. The list is replaced whole, in one
// transaction.
import type { McpServerEntry } from "../protocol/index.ts";
import type { FawnDb, McpServerRecord } from "./fawn-db.ts";
import type { McpServerStorage } from "./contracts.ts";

const PREFIX = "mcp.";
const BEARER = "bearer";
const CLIENT_SECRET = "client-secret";
const HEADER = "header.";

function secretKey(server: string, part: string): string {
  return `${PREFIX}${server}.${part}`;
}

export class McpServersRepository implements McpServerStorage {
  constructor(private readonly db: FawnDb) {}

  /** Every server with its secrets, by name. */
  async list(): Promise<McpServerEntry[]> {
    const tx = this.db.transaction(["mcp_servers", "secrets"], "readonly");
    const [records, secrets] = await Promise.all([
      tx.objectStore("mcp_servers").getAll(),
      tx.objectStore("secrets").getAll(IDBKeyRange.bound(PREFIX, `${PREFIX}\uffff`)),
      tx.done,
    ]);
    const byKey = new Map(secrets.map((secret) => [secret.key, secret.value]));
    return records
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(({ transport: _transport, ...config }) => {
        const bearerToken = byKey.get(secretKey(config.name, BEARER));
        const oauthClientSecret = byKey.get(secretKey(config.name, CLIENT_SECRET));
        const headerPrefix = secretKey(config.name, HEADER);
        const headers = Object.fromEntries(
          [...byKey]
            .filter(([key]) => key.startsWith(headerPrefix))
            .map(([key, value]) => [key.slice(headerPrefix.length), value]),
        );
        return {
          ...config,
          ...(Object.keys(headers).length > 0 && { headers }),
          ...(bearerToken && { bearerToken }),
          ...(oauthClientSecret && { oauthClientSecret }),
        };
      });
  }

  /** Stores `servers` in place of every server there was, secrets included, in one transaction. */
  async replaceAll(servers: readonly McpServerEntry[]): Promise<void> {
    const tx = this.db.transaction(["mcp_servers", "secrets"], "readwrite");
    const records = tx.objectStore("mcp_servers");
    const secrets = tx.objectStore("secrets");
    const writes: Promise<unknown>[] = [records.clear(), secrets.delete(IDBKeyRange.bound(PREFIX, `${PREFIX}\uffff`))];
    for (const { bearerToken, headers, oauthClientSecret, ...config } of servers) {
      const record: McpServerRecord = config;
      writes.push(records.put(record));
      if (bearerToken) writes.push(secrets.put({ key: secretKey(config.name, BEARER), value: bearerToken }));
      if (oauthClientSecret) {
        writes.push(secrets.put({ key: secretKey(config.name, CLIENT_SECRET), value: oauthClientSecret }));
      }
      for (const [name, value] of Object.entries(headers ?? {})) {
        writes.push(secrets.put({ key: secretKey(config.name, `${HEADER}${name}`), value }));
      }
    }
    await Promise.all([...writes, tx.done]);
  }
}
