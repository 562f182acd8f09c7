// Key-value settings kept in IndexedDB, with their secrets (API keys) in a store of their own; values are
// validated by their owners on the way in and out.
import type { FawnDb } from "./fawn-db.ts";

const secretKey = (key: string) => `${key}.apiKey`;

export class SettingsRepository {
  constructor(private readonly db: FawnDb) {}

  /** A setting without secrets; undefined when it was never stored. */
  async get(key: string): Promise<unknown> {
    return (await this.db.get("settings", key))?.value;
  }

  async put(key: string, value: unknown): Promise<void> {
    await this.db.put("settings", { key, value });
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

  /** Stores several settings and their API keys in one transaction: all of them, or none. */
  async putAllWithApiKeys(entries: readonly { key: string; value: unknown; apiKey: string }[]): Promise<void> {
    const tx = this.db.transaction(["settings", "secrets"], "readwrite");
    const settings = tx.objectStore("settings");
    const secrets = tx.objectStore("secrets");
    await Promise.all([
      ...entries.flatMap(({ key, value, apiKey }) => [
        settings.put({ key, value }),
        apiKey ? secrets.put({ key: secretKey(key), value: apiKey }) : secrets.delete(secretKey(key)),
      ]),
      tx.done,
    ]);
  }
}
