// Key-value settings kept in IndexedDB; values are validated by their owners on the way in and out.
import type { FawnDb } from "./fawn-db.ts";

export class SettingsRepository {
  constructor(private readonly db: FawnDb) {}

  async get(key: string): Promise<unknown> {
    const record = await this.db.get("settings", key);
    return record?.value;
  }

  async put(key: string, value: unknown): Promise<void> {
    await this.db.put("settings", { key, value });
  }
}
