// Fawn's IndexedDB database: one typed schema, one version, upgrades in one place (DESIGN.md D2).
import { openDB, type DBSchema, type IDBPDatabase } from "idb";
import type { ThreadEntry, ThreadSummary } from "../protocol/index.ts";

export const DB_VERSION = 2;

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

/** A LangGraph channel version (integers by default; savers may use strings). */
export type ChannelVersionKey = number | string;

/** One checkpoint, without its channel values (those live in `checkpoint_blobs`). */
export interface CheckpointRecord {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id?: string;
  /** The checkpoint format version (pending sends moved into writes at v4). */
  v: number;
  /** serde type and bytes of the checkpoint with `channel_values` emptied. */
  type: string;
  checkpoint: Uint8Array;
  metadata_type: string;
  metadata: Uint8Array;
  /** Plain copy of the checkpoint's channel versions, readable inside a transaction without the serde. */
  channel_versions: Record<string, ChannelVersionKey>;
}

/** A channel value stored whole. */
export interface ChannelValueBlob {
  kind: "value";
  type: string;
  bytes: Uint8Array;
}

/** `[message id, content hash]`: the key of a record in `checkpoint_messages` (with the thread id). */
export type MessageRef = [string, string];

/**
 * A message-list channel value stored as references to per-message records (see message-delta.ts): `refs` are
 * the list's items from position `len - refs.length`; the items before come from the record at version `base`.
 */
export interface MessageListBlob {
  kind: "messages";
  seq: number;
  len: number;
  base?: ChannelVersionKey;
  refs: MessageRef[];
}

/** One channel value at one version; the key is [thread_id, checkpoint_ns, channel, version]. */
export type ChannelBlobRecord = {
  thread_id: string;
  checkpoint_ns: string;
  channel: string;
  version: ChannelVersionKey;
} & (ChannelValueBlob | MessageListBlob);

/** One pending write; the key is [thread_id, checkpoint_ns, checkpoint_id, task_id, idx]. */
export interface CheckpointWriteRecord {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  task_id: string;
  idx: number;
  task_path: string;
  channel: string;
  type: string;
  bytes: Uint8Array;
}

/** One message of a thread, content-addressed: the key is [thread_id, message_id, hash]. */
export interface CheckpointMessageRecord {
  thread_id: string;
  message_id: string;
  hash: string;
  type: string;
  bytes: Uint8Array;
}

export interface FawnDbSchema extends DBSchema {
  threads: { key: string; value: ThreadSummary; indexes: { "by-updated": number } };
  entries: { key: [string, number]; value: EntryRecord; indexes: { "by-thread": string } };
  settings: { key: string; value: SettingRecord };
  checkpoints: { key: [string, string, string]; value: CheckpointRecord; indexes: { "by-thread": string } };
  checkpoint_blobs: { key: [string, string, string, ChannelVersionKey]; value: ChannelBlobRecord };
  checkpoint_writes: { key: [string, string, string, string, number]; value: CheckpointWriteRecord };
  checkpoint_messages: { key: [string, string, string]; value: CheckpointMessageRecord };
}

/** The LangGraph checkpointer's stores; every key starts with the thread id. */
export const CHECKPOINT_STORES = [
  "checkpoints",
  "checkpoint_blobs",
  "checkpoint_writes",
  "checkpoint_messages",
] as const;

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
      if (oldVersion < 2) {
        const checkpoints = database.createObjectStore("checkpoints", {
          keyPath: ["thread_id", "checkpoint_ns", "checkpoint_id"],
        });
        checkpoints.createIndex("by-thread", "thread_id");
        database.createObjectStore("checkpoint_blobs", {
          keyPath: ["thread_id", "checkpoint_ns", "channel", "version"],
        });
        database.createObjectStore("checkpoint_writes", {
          keyPath: ["thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "idx"],
        });
        database.createObjectStore("checkpoint_messages", { keyPath: ["thread_id", "message_id", "hash"] });
      }
    },
    blocking() {
      // A newer version is waiting for us: step aside so the other tab can upgrade.
      db.close();
    },
  });
  return db;
}
