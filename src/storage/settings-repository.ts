// Key-value settings kept in IndexedDB, with their secrets (API keys) in a store of their own; values are
// validated by their owners on the way in and out.
import type { FawnDb, SecretRecord } from "./fawn-db.ts";
import type { SettingsStorage } from "./contracts.ts";

/** Where the API key of the setting `key` is kept in `secrets`. */
export const secretKey = (key: string) => `${key}.apiKey`;

/** The secrets key prefix of MCP sign-ins (mcp-oauth-repository.ts). */
const MCP_OAUTH_PREFIX = "mcp-oauth.";
const CREDENTIAL_FIELDS = new Set(["access_token", "refresh_token", "id_token", "client_secret"]);

/** The token and client secret strings a JSON sign-in record holds, at any depth. */
function credentialsIn(json: string): string[] {
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        if (CREDENTIAL_FIELDS.has(key) && typeof inner === "string" && inner !== "") found.push(inner);
        else visit(inner);
      }
    }
  };
  try {
    visit(JSON.parse(json));
  } catch {
    // Not JSON: the value itself is already listed.
  }
  return found;
}

/** The secret strings to redact from error text, of the `secrets` records given. */
export function secretValuesOf(secrets: readonly SecretRecord[]): string[] {
  return secrets.flatMap((secret) => {
    if (typeof secret.value !== "string" || secret.value === "") return [];
    // An MCP sign-in is kept as JSON: its tokens and client secret are what an error could echo.
    return secret.key.startsWith(MCP_OAUTH_PREFIX) ? [secret.value, ...credentialsIn(secret.value)] : [secret.value];
  });
}

export class SettingsRepository implements SettingsStorage {
  constructor(private readonly db: FawnDb) {}

  /** A setting without secrets; undefined when it was never stored. */
  async get(key: string): Promise<unknown> {
    return (await this.db.get("settings", key))?.value;
  }

  async put(key: string, value: unknown): Promise<void> {
    await this.db.put("settings", { key, value });
  }

  /** Every secret stored (each endpoint's and web provider's key, and any later one), for redacting error text. */
  async secretValues(): Promise<string[]> {
    return secretValuesOf(await this.db.getAll("secrets"));
  }

  /** A setting and its API key (undefined when none is stored), read together. */
  async getWithApiKey(key: string): Promise<{ value: unknown; apiKey: string | undefined }> {
    const tx = this.db.transaction(["settings", "secrets"], "readonly");
    const [record, secret] = await Promise.all([
      tx.objectStore("settings").get(key),
      tx.objectStore("secrets").get(secretKey(key)),
      tx.done,
    ]);
    return { value: record?.value, apiKey: secret?.value };
  }

  /** Stores a setting and its API key in one transaction; an empty key removes the stored one. */
  async putWithApiKey(key: string, value: unknown, apiKey: string): Promise<void> {
    const tx = this.db.transaction(["settings", "secrets"], "readwrite");
    const secrets = tx.objectStore("secrets");
    await Promise.all([
      tx.objectStore("settings").put({ key, value }),
      apiKey ? secrets.put({ key: secretKey(key), value: apiKey }) : secrets.delete(secretKey(key)),
      tx.done,
    ]);
  }

  /**
   * A setting with parts that each hold a key (the model endpoints): the setting's own key under `""`, each part's
   * under its id.
   */
  async getWithApiKeys(key: string): Promise<{ value: unknown; apiKeys: Map<string, string> }> {
    const own = secretKey(key);
    const tx = this.db.transaction(["settings", "secrets"], "readonly");
    const [record, secrets] = await Promise.all([
      tx.objectStore("settings").get(key),
      tx.objectStore("secrets").getAll(IDBKeyRange.bound(own, `${own}.\uffff`)),
      tx.done,
    ]);
    const apiKeys = new Map<string, string>();
    for (const secret of secrets) {
      if (secret.key === own) apiKeys.set("", secret.value);
      else if (secret.key.startsWith(`${own}.`)) apiKeys.set(secret.key.slice(own.length + 1), secret.value);
    }
    return { value: record?.value, apiKeys };
  }

  /** Stores such a setting and its keys in one transaction; keys of parts no longer in `apiKeys` are deleted. */
  async putWithApiKeys(key: string, value: unknown, apiKeys: ReadonlyMap<string, string>): Promise<void> {
    const own = secretKey(key);
    const tx = this.db.transaction(["settings", "secrets"], "readwrite");
    const secrets = tx.objectStore("secrets");
    const stored = await secrets.getAllKeys(IDBKeyRange.bound(`${own}.`, `${own}.\uffff`));
    const writes: Promise<unknown>[] = [tx.objectStore("settings").put({ key, value })];
    for (const storedKey of stored) {
      const part = String(storedKey).slice(own.length + 1);
      if (!apiKeys.get(part)) writes.push(secrets.delete(storedKey));
    }
    for (const [part, apiKey] of apiKeys) {
      const name = part === "" ? own : `${own}.${part}`;
      writes.push(apiKey ? secrets.put({ key: name, value: apiKey }) : secrets.delete(name));
    }
    if (!apiKeys.has("")) writes.push(secrets.delete(own));
    await Promise.all([...writes, tx.done]);
  }

  /**
   * Stores several settings and their API keys in one transaction: all of them, or none. A setting whose value is
   * undefined is removed.
   */
  async putAllWithApiKeys(entries: readonly { key: string; value: unknown; apiKey: string }[]): Promise<void> {
    const tx = this.db.transaction(["settings", "secrets"], "readwrite");
    const settings = tx.objectStore("settings");
    const secrets = tx.objectStore("secrets");
    await Promise.all([
      ...entries.flatMap(({ key, value, apiKey }) => [
        value === undefined ? settings.delete(key) : settings.put({ key, value }),
        apiKey ? secrets.put({ key: secretKey(key), value: apiKey }) : secrets.delete(secretKey(key)),
      ]),
      tx.done,
    ]);
  }
}
