// Fawn's IndexedDB database: one typed schema, one version, upgrades in one place (DESIGN.md D2).
import { openDB, type DBSchema, type IDBPDatabase } from "idb";
import type { ThreadEntry, ThreadSummary } from "../protocol/index.ts";

export const DB_VERSION = 1;

export interface EntryRecord {
  thread_id: string;
  /** Position in the thread, from 0; the key is [thread_id, seq]. */
  seq: number;
  entry: ThreadEntry;
}

export interface SettingRecord {
  key: string;
  value: unknown;
}

export interface FawnDbSchema extends DBSchema {
  threads: { key: string; value: ThreadSummary; indexes: { "by-updated": number } };
  entries: { key: [string, number]; value: EntryRecord; indexes: { "by-thread": string } };
  settings: { key: string; value: SettingRecord };
}

export type FawnDb = IDBPDatabase<FawnDbSchema>;

/**
 * Opens (and creates or upgrades) the database. Another tab holding an older version is asked to close
 * through `versionchange`; this connection closes itself when a newer version appears.
 */
export async function openFawnDb(name: string): Promise<FawnDb> {
  const db = await openDB<FawnDbSchema>(name, DB_VERSION, {
    upgrade(database, oldVersion) {
      if (oldVersion < 1) {
        const threads = database.createObjectStore("threads", { keyPath: "thread_id" });
        threads.createIndex("by-updated", "updated_at");
        const entries = database.createObjectStore("entries", { keyPath: ["thread_id", "seq"] });
        entries.createIndex("by-thread", "thread_id");
        database.createObjectStore("settings", { keyPath: "key" });
      }
    },
    blocking() {
      // A newer version is waiting for us: step aside so the other tab can upgrade.
      db.close();
    },
  });
  return db;
}
