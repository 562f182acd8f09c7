// Settings with their API keys, the memory document, skills and MCP servers with their sign-ins, held in memory
// (contracts.ts). Records and secret keys are those of the IndexedDB repositories, so a backup reads the same.
import { emptyMemoryDocument, type McpServerEntry, type MemoryDocument } from "../../protocol/index.ts";
import type { McpOAuthStorage, McpServerStorage, MemoryStorage, SettingsStorage, SkillStorage } from "../contracts.ts";
import type { McpServerRecord, SkillRecord } from "../fawn-db.ts";
import { prefixOf, type McpOAuthPart } from "../mcp-oauth-repository.ts";
import { isMemoryDocumentShape, MEMORY_DOCUMENT_KEY } from "../memory-repository.ts";
import { secretKey, secretValuesOf } from "../settings-repository.ts";
import { PUBLIC_SKILL_STATES_KEY, SkillExistsError, statesOf } from "../skills-repository.ts";
import type { MemoryTables } from "./memory-tables.ts";

const startingWith = (prefix: string) => (key: unknown) => typeof key === "string" && key.startsWith(prefix);

export class MemorySettingsStorage implements SettingsStorage {
  constructor(private readonly tables: MemoryTables) {}

  async get(key: string): Promise<unknown> {
    return this.tables.read((tx) => tx.get("settings", key)?.value);
  }

  async put(key: string, value: unknown): Promise<void> {
    this.tables.write((tx) => tx.put("settings", { key, value }));
  }

  async secretValues(): Promise<string[]> {
    return secretValuesOf(this.tables.read((tx) => tx.all("secrets")));
  }

  async getWithApiKey(key: string): Promise<{ value: unknown; apiKey: string | undefined }> {
    return this.tables.read((tx) => ({
      value: tx.get("settings", key)?.value,
      apiKey: tx.get("secrets", secretKey(key))?.value,
    }));
  }

  async putWithApiKey(key: string, value: unknown, apiKey: string): Promise<void> {
    this.tables.write((tx) => {
      tx.put("settings", { key, value });
      if (apiKey) tx.put("secrets", { key: secretKey(key), value: apiKey });
      else tx.delete("secrets", secretKey(key));
    });
  }

  async getWithApiKeys(key: string): Promise<{ value: unknown; apiKeys: Map<string, string> }> {
    const own = secretKey(key);
    return this.tables.read((tx) => {
      const apiKeys = new Map<string, string>();
      for (const secret of tx.all("secrets", (stored) => stored === own || startingWith(`${own}.`)(stored))) {
        apiKeys.set(secret.key === own ? "" : secret.key.slice(own.length + 1), secret.value);
      }
      return { value: tx.get("settings", key)?.value, apiKeys };
    });
  }

  async putWithApiKeys(key: string, value: unknown, apiKeys: ReadonlyMap<string, string>): Promise<void> {
    const own = secretKey(key);
    this.tables.write((tx) => {
      tx.put("settings", { key, value });
      for (const stored of tx.keys("secrets", startingWith(`${own}.`))) {
        if (!apiKeys.get(String(stored).slice(own.length + 1))) tx.delete("secrets", stored);
      }
      for (const [part, apiKey] of apiKeys) {
        const name = part === "" ? own : `${own}.${part}`;
        if (apiKey) tx.put("secrets", { key: name, value: apiKey });
        else tx.delete("secrets", name);
      }
      if (!apiKeys.has("")) tx.delete("secrets", own);
    });
  }

  async putAllWithApiKeys(entries: readonly { key: string; value: unknown; apiKey: string }[]): Promise<void> {
    this.tables.write((tx) => {
      for (const { key, value, apiKey } of entries) {
        if (value === undefined) tx.delete("settings", key);
        else tx.put("settings", { key, value });
        if (apiKey) tx.put("secrets", { key: secretKey(key), value: apiKey });
        else tx.delete("secrets", secretKey(key));
      }
    });
  }
}

/** The stored memory document, or an empty one when none is stored or it is unreadable (as MemoryRepository reads). */
function documentOf(value: unknown): MemoryDocument {
  return value !== undefined && isMemoryDocumentShape(value) ? value : emptyMemoryDocument();
}

export class MemoryDocumentStorage implements MemoryStorage {
  constructor(private readonly tables: MemoryTables) {}

  async read(): Promise<MemoryDocument> {
    return documentOf(this.tables.read((tx) => tx.get("settings", MEMORY_DOCUMENT_KEY)?.value));
  }

  async update(change: (doc: MemoryDocument) => MemoryDocument): Promise<MemoryDocument> {
    return this.tables.write((tx) => {
      const next = change(documentOf(tx.get("settings", MEMORY_DOCUMENT_KEY)?.value));
      tx.put("settings", { key: MEMORY_DOCUMENT_KEY, value: next });
      return next;
    });
  }

  async replace(doc: MemoryDocument): Promise<void> {
    this.tables.write((tx) => tx.put("settings", { key: MEMORY_DOCUMENT_KEY, value: doc }));
  }
}

export class MemorySkillStorage implements SkillStorage {
  constructor(private readonly tables: MemoryTables) {}

  async listCustom(): Promise<SkillRecord[]> {
    return this.tables.read((tx) => tx.all("skills"));
  }

  async getCustom(name: string): Promise<SkillRecord | undefined> {
    return this.tables.read((tx) => tx.get("skills", name));
  }

  async installCustom(record: SkillRecord): Promise<void> {
    this.tables.write((tx) => {
      if (tx.has("skills", record.name)) throw new SkillExistsError(record.name);
      tx.add("skills", record);
    });
  }

  async deleteCustom(name: string): Promise<boolean> {
    return this.tables.write((tx) => {
      const existed = tx.has("skills", name);
      tx.delete("skills", name);
      return existed;
    });
  }

  async setCustomEnabled(name: string, enabled: boolean): Promise<SkillRecord | undefined> {
    return this.tables.write((tx) => {
      const record = tx.get("skills", name);
      const updated = record && { ...record, enabled };
      if (updated) tx.put("skills", updated);
      return updated;
    });
  }

  async publicEnabledStates(): Promise<Record<string, boolean>> {
    return statesOf(this.tables.read((tx) => tx.get("settings", PUBLIC_SKILL_STATES_KEY)?.value));
  }

  async setPublicEnabled(name: string, enabled: boolean): Promise<void> {
    this.tables.write((tx) => {
      const states = statesOf(tx.get("settings", PUBLIC_SKILL_STATES_KEY)?.value);
      tx.put("settings", { key: PUBLIC_SKILL_STATES_KEY, value: { ...states, [name]: enabled } });
    });
  }
}

/** As mcp-servers-repository.ts keeps them: `mcp.<server>.bearer` and `mcp.<server>.header.<name>`. */
const MCP_PREFIX = "mcp.";
const mcpSecret = (server: string, part: string) => `${MCP_PREFIX}${server}.${part}`;

export class MemoryMcpServerStorage implements McpServerStorage {
  constructor(private readonly tables: MemoryTables) {}

  async list(): Promise<McpServerEntry[]> {
    const [records, secrets] = this.tables.read(
      (tx) => [tx.all("mcp_servers"), tx.all("secrets", startingWith(MCP_PREFIX))] as const,
    );
    const byKey = new Map(secrets.map((secret) => [secret.key, secret.value]));
    return records
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(({ transport: _transport, ...config }) => {
        const bearerToken = byKey.get(mcpSecret(config.name, "bearer"));
        const headerPrefix = mcpSecret(config.name, "header.");
        const headers = Object.fromEntries(
          [...byKey]
            .filter(([key]) => key.startsWith(headerPrefix))
            .map(([key, value]) => [key.slice(headerPrefix.length), value]),
        );
        return { ...config, ...(Object.keys(headers).length > 0 && { headers }), ...(bearerToken && { bearerToken }) };
      });
  }

  async replaceAll(servers: readonly McpServerEntry[]): Promise<void> {
    this.tables.write((tx) => {
      tx.clear("mcp_servers");
      tx.deleteWhere("secrets", startingWith(MCP_PREFIX));
      for (const { bearerToken, headers, ...config } of servers) {
        const record: McpServerRecord = config;
        tx.put("mcp_servers", record);
        if (bearerToken) tx.put("secrets", { key: mcpSecret(config.name, "bearer"), value: bearerToken });
        for (const [name, value] of Object.entries(headers ?? {})) {
          tx.put("secrets", { key: mcpSecret(config.name, `header.${name}`), value });
        }
      }
    });
  }
}

export class MemoryMcpOAuthStorage implements McpOAuthStorage {
  constructor(private readonly tables: MemoryTables) {}

  async get(server: string, url: string, part: McpOAuthPart): Promise<unknown> {
    const record = this.tables.read((tx) => tx.get("secrets", `${prefixOf(server)}${part}`));
    if (!record) return undefined;
    try {
      const parsed = JSON.parse(record.value) as { url?: unknown; value?: unknown };
      return parsed.url === url ? parsed.value : undefined;
    } catch {
      return undefined;
    }
  }

  async set(server: string, url: string, part: McpOAuthPart, value: unknown): Promise<void> {
    this.tables.write((tx) =>
      tx.put("secrets", { key: `${prefixOf(server)}${part}`, value: JSON.stringify({ url, value }) }),
    );
  }

  async delete(server: string, parts: readonly McpOAuthPart[]): Promise<void> {
    this.tables.write((tx) => {
      for (const part of parts) tx.delete("secrets", `${prefixOf(server)}${part}`);
    });
  }

  async forget(server: string): Promise<void> {
    this.tables.write((tx) => tx.deleteWhere("secrets", startingWith(prefixOf(server))));
  }

  async signedIn(servers: readonly { name: string; url: string }[]): Promise<string[]> {
    const found = await Promise.all(
      servers.map(async (server) => ((await this.get(server.name, server.url, "tokens")) ? server.name : undefined)),
    );
    return found.filter((name): name is string => name !== undefined);
  }
}
