// Settings with their API keys, the memory document, skills and MCP servers with their sign-ins, over Fawn's tables
// (contracts.ts). Records and secret keys are those of the IndexedDB repositories, so a backup reads the same.
import { emptyMemoryDocument, type McpServerEntry, type MemoryDocument } from "../../protocol/index.ts";
import type { McpOAuthStorage, McpServerStorage, MemoryStorage, SettingsStorage, SkillStorage } from "../contracts.ts";
import type { McpServerRecord, SkillRecord } from "../fawn-db.ts";
import { prefixOf, type McpOAuthPart } from "../mcp-oauth-repository.ts";
import { isMemoryDocumentShape, MEMORY_DOCUMENT_KEY } from "../memory-repository.ts";
import { secretKey, secretValuesOf } from "../settings-repository.ts";
import { PUBLIC_SKILL_STATES_KEY, SkillExistsError, statesOf } from "../skills-repository.ts";
import type { Tables } from "./tables.ts";

const startingWith = (prefix: string) => ({ startsWith: prefix });

export class TableSettingsStorage implements SettingsStorage {
  constructor(private readonly tables: Tables) {}

  async get(key: string): Promise<unknown> {
    return (await this.tables.read((tx) => tx.get("settings", key)))?.value;
  }

  async put(key: string, value: unknown): Promise<void> {
    await this.tables.write((tx) => tx.put("settings", { key, value }));
  }

  async secretValues(): Promise<string[]> {
    return secretValuesOf(await this.tables.read((tx) => tx.all("secrets")));
  }

  async getWithApiKey(key: string): Promise<{ value: unknown; apiKey: string | undefined }> {
    return this.tables.read(async (tx) => ({
      value: (await tx.get("settings", key))?.value,
      apiKey: (await tx.get("secrets", secretKey(key)))?.value,
    }));
  }

  async putWithApiKey(key: string, value: unknown, apiKey: string): Promise<void> {
    await this.tables.write(async (tx) => {
      await tx.put("settings", { key, value });
      if (apiKey) await tx.put("secrets", { key: secretKey(key), value: apiKey });
      else await tx.delete("secrets", secretKey(key));
    });
  }

  async getWithApiKeys(key: string): Promise<{ value: unknown; apiKeys: Map<string, string> }> {
    const own = secretKey(key);
    return this.tables.read(async (tx) => {
      const apiKeys = new Map<string, string>();
      const ownSecret = await tx.get("secrets", own);
      // Key order, as one read of both would give them: `own` sorts before `own.<part>`.
      for (const secret of [...(ownSecret ? [ownSecret] : []), ...(await tx.all("secrets", startingWith(`${own}.`)))]) {
        apiKeys.set(secret.key === own ? "" : secret.key.slice(own.length + 1), secret.value);
      }
      return { value: (await tx.get("settings", key))?.value, apiKeys };
    });
  }

  async putWithApiKeys(key: string, value: unknown, apiKeys: ReadonlyMap<string, string>): Promise<void> {
    const own = secretKey(key);
    await this.tables.write(async (tx) => {
      await tx.put("settings", { key, value });
      for (const stored of await tx.keys("secrets", startingWith(`${own}.`))) {
        if (!apiKeys.get(String(stored).slice(own.length + 1))) await tx.delete("secrets", stored);
      }
      for (const [part, apiKey] of apiKeys) {
        const name = part === "" ? own : `${own}.${part}`;
        if (apiKey) await tx.put("secrets", { key: name, value: apiKey });
        else await tx.delete("secrets", name);
      }
      if (!apiKeys.has("")) await tx.delete("secrets", own);
    });
  }

  async putAllWithApiKeys(entries: readonly { key: string; value: unknown; apiKey: string }[]): Promise<void> {
    await this.tables.write(async (tx) => {
      for (const { key, value, apiKey } of entries) {
        if (value === undefined) await tx.delete("settings", key);
        else await tx.put("settings", { key, value });
        if (apiKey) await tx.put("secrets", { key: secretKey(key), value: apiKey });
        else await tx.delete("secrets", secretKey(key));
      }
    });
  }
}

/** The stored memory document, or an empty one when none is stored or it is unreadable (as MemoryRepository reads). */
function documentOf(value: unknown): MemoryDocument {
  return value !== undefined && isMemoryDocumentShape(value) ? value : emptyMemoryDocument();
}

export class TableDocumentStorage implements MemoryStorage {
  constructor(private readonly tables: Tables) {}

  async read(): Promise<MemoryDocument> {
    return documentOf((await this.tables.read((tx) => tx.get("settings", MEMORY_DOCUMENT_KEY)))?.value);
  }

  async update(change: (doc: MemoryDocument) => MemoryDocument): Promise<MemoryDocument> {
    return this.tables.write(async (tx) => {
      const next = change(documentOf((await tx.get("settings", MEMORY_DOCUMENT_KEY))?.value));
      await tx.put("settings", { key: MEMORY_DOCUMENT_KEY, value: next });
      return next;
    });
  }

  async replace(doc: MemoryDocument): Promise<void> {
    await this.tables.write((tx) => tx.put("settings", { key: MEMORY_DOCUMENT_KEY, value: doc }));
  }
}

export class TableSkillStorage implements SkillStorage {
  constructor(private readonly tables: Tables) {}

  async listCustom(): Promise<SkillRecord[]> {
    return this.tables.read((tx) => tx.all("skills"));
  }

  async getCustom(name: string): Promise<SkillRecord | undefined> {
    return this.tables.read((tx) => tx.get("skills", name));
  }

  async installCustom(record: SkillRecord): Promise<void> {
    await this.tables.write(async (tx) => {
      if (await tx.has("skills", record.name)) throw new SkillExistsError(record.name);
      await tx.add("skills", record);
    });
  }

  async deleteCustom(name: string): Promise<boolean> {
    return this.tables.write(async (tx) => {
      const existed = await tx.has("skills", name);
      await tx.delete("skills", name);
      return existed;
    });
  }

  async setCustomEnabled(name: string, enabled: boolean): Promise<SkillRecord | undefined> {
    return this.tables.write(async (tx) => {
      const record = await tx.get("skills", name);
      const updated = record && { ...record, enabled };
      if (updated) await tx.put("skills", updated);
      return updated;
    });
  }

  async publicEnabledStates(): Promise<Record<string, boolean>> {
    return statesOf((await this.tables.read((tx) => tx.get("settings", PUBLIC_SKILL_STATES_KEY)))?.value);
  }

  async setPublicEnabled(name: string, enabled: boolean): Promise<void> {
    await this.tables.write(async (tx) => {
      const states = statesOf((await tx.get("settings", PUBLIC_SKILL_STATES_KEY))?.value);
      await tx.put("settings", { key: PUBLIC_SKILL_STATES_KEY, value: { ...states, [name]: enabled } });
    });
  }
}

/**
 * As mcp-servers-repository.ts keeps them: `mcp.<server>.bearer`, `mcp.<server>.client-secret` and
 * `mcp.<server>.header.<name>`.
 */
const MCP_PREFIX = "mcp.";
const mcpSecret = (server: string, part: string) => `${MCP_PREFIX}${server}.${part}`;

export class TableMcpServerStorage implements McpServerStorage {
  constructor(private readonly tables: Tables) {}

  async list(): Promise<McpServerEntry[]> {
    const [records, secrets] = await this.tables.read((tx) =>
      Promise.all([tx.all("mcp_servers"), tx.all("secrets", startingWith(MCP_PREFIX))]),
    );
    const byKey = new Map(secrets.map((secret) => [secret.key, secret.value]));
    return records
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(({ transport: _transport, ...config }) => {
        const bearerToken = byKey.get(mcpSecret(config.name, "bearer"));
        const oauthClientSecret = byKey.get(mcpSecret(config.name, "client-secret"));
        const headerPrefix = mcpSecret(config.name, "header.");
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

  async replaceAll(servers: readonly McpServerEntry[]): Promise<void> {
    await this.tables.write(async (tx) => {
      await tx.clear("mcp_servers");
      await tx.deleteWhere("secrets", startingWith(MCP_PREFIX));
      for (const { bearerToken, headers, oauthClientSecret, ...config } of servers) {
        const record: McpServerRecord = config;
        await tx.put("mcp_servers", record);
        if (bearerToken) await tx.put("secrets", { key: mcpSecret(config.name, "bearer"), value: bearerToken });
        if (oauthClientSecret) {
          await tx.put("secrets", { key: mcpSecret(config.name, "client-secret"), value: oauthClientSecret });
        }
        for (const [name, value] of Object.entries(headers ?? {})) {
          await tx.put("secrets", { key: mcpSecret(config.name, `header.${name}`), value });
        }
      }
    });
  }
}

export class TableMcpOAuthStorage implements McpOAuthStorage {
  constructor(private readonly tables: Tables) {}

  async get(server: string, url: string, part: McpOAuthPart): Promise<unknown> {
    const record = await this.tables.read((tx) => tx.get("secrets", `${prefixOf(server)}${part}`));
    if (!record) return undefined;
    try {
      const parsed = JSON.parse(record.value) as { url?: unknown; value?: unknown };
      return parsed.url === url ? parsed.value : undefined;
    } catch {
      return undefined;
    }
  }

  async set(server: string, url: string, part: McpOAuthPart, value: unknown): Promise<void> {
    await this.tables.write((tx) =>
      tx.put("secrets", { key: `${prefixOf(server)}${part}`, value: JSON.stringify({ url, value }) }),
    );
  }

  async delete(server: string, parts: readonly McpOAuthPart[]): Promise<void> {
    await this.tables.write(async (tx) => {
      for (const part of parts) await tx.delete("secrets", `${prefixOf(server)}${part}`);
    });
  }

  async forget(server: string): Promise<void> {
    await this.tables.write((tx) => tx.deleteWhere("secrets", startingWith(prefixOf(server))));
  }

  async signedIn(servers: readonly { name: string; url: string }[]): Promise<string[]> {
    const found = await Promise.all(
      servers.map(async (server) => ((await this.get(server.name, server.url, "tokens")) ? server.name : undefined)),
    );
    return found.filter((name): name is string => name !== undefined);
  }
}
