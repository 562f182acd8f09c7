// Fawn's IndexedDB database: one typed schema, one version, upgrades in one place (docs/architecture.md#d2-storage).
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from "idb";
import type {
  FeedbackRating,
  McpServerConfig,
  RunError,
  SandboxLogEntry,
  SkillMetadata,
  ThreadEntry,
  ThreadSummary,
} from "../protocol/index.ts";
import { movedSecrets, upgradeSettings } from "./settings-upgrade.ts";

export const DB_VERSION = 7;

/**
 * What a checkpointed thread keeps beside its messages (which live in the checkpoints): a run's error, shown after
 * the first `after` messages, the mark on a reply the user stopped, and each command the agent ran in the thread's
 * sandbox (its log; not part of the conversation).
 */
export type HistoryNote =
  | { kind: "run-error"; id: string; error: RunError; at: number; after: number }
  | { kind: "stopped"; id: string; message_id: string }
  | ({ kind: "sandbox-command" } & SandboxLogEntry)
  | FeedbackNote;

/** The user's rating of a reply, or (`rating: null`) its withdrawal; a message's last note is its feedback. */
export interface FeedbackNote {
  kind: "feedback";
  id: string;
  message_id: string;
  rating: FeedbackRating | null;
  comment?: string;
  at: number;
}

/**
 * An item of the `entries` store: a note, or (threads from before checkpoints, store version 1) a whole message
 * or error in order.
 */
export type StoredEntry = ThreadEntry | HistoryNote;

export interface EntryRecord {
  thread_id: string;
  /** Position in the thread, from 0; the key is [thread_id, seq]. */
  seq: number;
  entry: StoredEntry;
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
  /**
   * Written elsewhere: it came in an imported thread (a `.fawn`, a share link, a backup). A run never resumes from
   * it, so no tool call another model made runs here (imported-thread.ts).
   */
  imported?: boolean;
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

/**
 * One item of a LangGraph-style key-value store; the key is [namespace_path, key], `namespace_path` being each label
 * of `namespace` followed by `/` (with `%` and `/` percent-escaped). Nothing writes these today (memory is one
 * `settings` record, memory-repository.ts); the store stays so that schema version 3 and backups holding items keep
 * opening and restoring unchanged.
 */
export interface StoreItemRecord {
  namespace_path: string;
  key: string;
  namespace: string[];
  value: Record<string, unknown>;
  /** Milliseconds since the epoch. */
  created_at: number;
  updated_at: number;
}

/** The bytes of one file of a thread; the key is [thread_id, path]. Its meta is in `thread_file_meta`. */
export interface ThreadFileRecord {
  thread_id: string;
  path: string;
  bytes: Uint8Array;
}

/** What is known about one file of a thread without reading its bytes. */
export interface ThreadFileMeta {
  /** Virtual absolute path, e.g. `/mnt/user-data/outputs/report.md`. */
  path: string;
  /** Length in bytes. */
  size: number;
  /** SHA-256 of the bytes, lowercase hex. */
  sha256: string;
  mimeType: string;
  /** When it was written, in milliseconds since the epoch. */
  mtime: number;
}

/** The meta of one file of a thread, written in the same transaction as its bytes; the key is [thread_id, path]. */
export type ThreadFileMetaRecord = ThreadFileMeta & { thread_id: string };

/** A secret (an API key): kept apart from settings so exports and logs can leave the whole store out. */
export interface SecretRecord {
  key: string;
  value: string;
}

/**
 * The workspace and outputs of a thread as they were at one checkpoint (a run's end), so a branch forked there, or
 * shown again, gets the files of its own; the key is [thread_id, checkpoint_id]. Bytes are in `thread_file_blobs`.
 */
export interface ThreadFileVersionRecord {
  thread_id: string;
  checkpoint_id: string;
  files: ThreadFileMeta[];
}

/** File bytes kept for `thread_file_versions`, once per content; the key is [thread_id, sha256]. */
export interface ThreadFileBlobRecord {
  thread_id: string;
  sha256: string;
  bytes: Uint8Array;
}

/** One run of the agent on a thread; the key is [thread_id, run_id]. */
export interface RunRecord {
  thread_id: string;
  run_id: string;
  status: "running" | "success" | "error" | "interrupted";
  created_at: number;
  updated_at: number;
  model?: string;
  error?: RunError;
  /**
   * Branches (edit, regenerate, resume). `base`: the checkpoint the thread was at when the run started (absent:
   * none yet); runs with the same base are versions of one turn. `end`: the thread's newest checkpoint once the run
   * saved its last step. `user_message_id`: the message the run added.
   */
  kind?: "send" | "edit" | "regenerate" | "resume";
  base?: string;
  end?: string;
  user_message_id?: string;
  /** A regeneration: the run whose reply it regenerates (the first version of that reply). */
  regenerates?: string;
  /** A resumption: the cut-off run it continues. */
  continues?: string;
  /** Made elsewhere: it came in an imported thread, and "Continue" never resumes it. */
  imported?: boolean;
}

/** What an installed skill's SKILL.md frontmatter says, beside its name (the record's key). */
export type SkillRecordMetadata = Omit<SkillMetadata, "name">;

/** A skill the user installed from an archive, by name: its files by path relative to the skill's root. */
export interface SkillRecord {
  name: string;
  enabled: boolean;
  files: Record<string, Uint8Array>;
  /** Milliseconds since the epoch. */
  installed_at: number;
  metadata: SkillRecordMetadata;
}

/**
 * An MCP server's settings, by name (Settings → Tools). Its bearer token and header values go to `secrets`
 * (mcp-servers-repository.ts). `transport` is a field of the first version of this record, which nothing wrote; it is
 * read and ignored.
 */
export type McpServerRecord = McpServerConfig & { transport?: "streamable-http" | "sse" | "stdio-proxy" };

/**
 * A thread's entry in the search index (store version 5): the words of its messages, and their text for the passage
 * shown with a match. Derived data: rebuilt from the thread's messages whenever it is missing; the key is [thread_id].
 */
export interface ThreadSearchRecord {
  thread_id: string;
  /** The format of `terms` (search-text.ts); a new format empties the store in an upgrade, to index again. */
  v: number;
  /** Distinct lowercased words (search-text.ts `searchTerms`), each an entry of the multi-entry index `by-term`. */
  terms: string[];
  /** The user's and the assistant's message text, in order. */
  text: string;
  /** Milliseconds since the epoch. */
  indexed_at: number;
}

export interface FawnDbSchema extends DBSchema {
  threads: { key: string; value: ThreadSummary; indexes: { "by-updated": number } };
  entries: { key: [string, number]; value: EntryRecord; indexes: { "by-thread": string } };
  settings: { key: string; value: SettingRecord };
  checkpoints: { key: [string, string, string]; value: CheckpointRecord; indexes: { "by-thread": string } };
  checkpoint_blobs: { key: [string, string, string, ChannelVersionKey]; value: ChannelBlobRecord };
  checkpoint_writes: { key: [string, string, string, string, number]; value: CheckpointWriteRecord };
  checkpoint_messages: { key: [string, string, string]; value: CheckpointMessageRecord };
  store_items: { key: [string, string]; value: StoreItemRecord; indexes: { "by-namespace": string } };
  thread_files: { key: [string, string]; value: ThreadFileRecord; indexes: { "by-thread": string } };
  thread_file_meta: { key: [string, string]; value: ThreadFileMetaRecord; indexes: { "by-thread": string } };
  secrets: { key: string; value: SecretRecord };
  runs: { key: [string, string]; value: RunRecord; indexes: { "by-thread": string } };
  skills: { key: string; value: SkillRecord };
  mcp_servers: { key: string; value: McpServerRecord };
  thread_search: { key: [string]; value: ThreadSearchRecord; indexes: { "by-term": string } };
  thread_file_versions: { key: [string, string]; value: ThreadFileVersionRecord };
  thread_file_blobs: { key: [string, string]; value: ThreadFileBlobRecord };
}

/** The LangGraph checkpointer's stores; every key starts with the thread id. */
export const CHECKPOINT_STORES = [
  "checkpoints",
  "checkpoint_blobs",
  "checkpoint_writes",
  "checkpoint_messages",
] as const;

/**
 * Every store holding per-thread records: deleting a thread everywhere means deleting its records in each (their
 * keys start with the thread id, except `threads`, whose key is the thread id).
 */
export const THREAD_STORES = [
  "threads",
  "entries",
  ...CHECKPOINT_STORES,
  "thread_files",
  "thread_file_meta",
  "runs",
  "thread_search",
  "thread_file_versions",
  "thread_file_blobs",
] as const;

export type FawnDb = IDBPDatabase<FawnDbSchema>;

/** Every array key that starts with `prefix` (an array element sorts below `[]`, the highest key type). */
export function keyPrefixRange(...prefix: string[]): IDBKeyRange {
  return IDBKeyRange.bound(prefix, [...prefix, []]);
}

type UpgradeTransaction = IDBPTransaction<FawnDbSchema, StoreNames<FawnDbSchema>[], "versionchange">;

/** Each store version's changes, in order; a database at version n gets every step after n. */
const UPGRADES: readonly [version: number, step: (database: FawnDb, transaction: UpgradeTransaction) => void][] = [
  [
    1,
    (database) => {
      const threads = database.createObjectStore("threads", { keyPath: "thread_id" });
      threads.createIndex("by-updated", "updated_at");
      const entries = database.createObjectStore("entries", { keyPath: ["thread_id", "seq"] });
      entries.createIndex("by-thread", "thread_id");
      database.createObjectStore("settings", { keyPath: "key" });
    },
  ],
  [
    2,
    (database) => {
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
    },
  ],
  [
    3,
    (database) => {
      const items = database.createObjectStore("store_items", { keyPath: ["namespace_path", "key"] });
      items.createIndex("by-namespace", "namespace_path");
      const files = database.createObjectStore("thread_files", { keyPath: ["thread_id", "path"] });
      files.createIndex("by-thread", "thread_id");
      const meta = database.createObjectStore("thread_file_meta", { keyPath: ["thread_id", "path"] });
      meta.createIndex("by-thread", "thread_id");
    },
  ],
  [
    4,
    (database) => {
      database.createObjectStore("secrets", { keyPath: "key" });
      const runs = database.createObjectStore("runs", { keyPath: ["thread_id", "run_id"] });
      runs.createIndex("by-thread", "thread_id");
      database.createObjectStore("skills", { keyPath: "name" });
      database.createObjectStore("mcp_servers", { keyPath: "name" });
    },
  ],
  [
    5,
    (database) => {
      // Filled outside the upgrade: reading messages needs the checkpointer's async serde, which an upgrade
      // transaction would not outlive. The Gateway indexes every thread missing here (ThreadSearchService).
      const search = database.createObjectStore("thread_search", { keyPath: ["thread_id"] });
      search.createIndex("by-term", "terms", { multiEntry: true });
    },
  ],
  [
    6,
    (_database, transaction) => {
      // Settings keep one shape at a time: older records (an inline key, the first model endpoint apart from the
      // others, the proxy inside Settings → Web) are rewritten in this same transaction (settings-upgrade.ts).
      void upgradeStoredSettings(transaction);
    },
  ],
  [
    7,
    (database) => {
      // Branches: each run's files are kept at its end, so an edit or a regeneration starts from the files as they
      // were at its fork point (thread-file-versions.ts).
      database.createObjectStore("thread_file_versions", { keyPath: ["thread_id", "checkpoint_id"] });
      database.createObjectStore("thread_file_blobs", { keyPath: ["thread_id", "sha256"] });
    },
  ],
];

/**
 * Opens (and creates or upgrades) the database. Another tab holding an older version is asked to close
 * through `versionchange`; this connection closes itself when a newer version appears. `version` is for tests
 * that make a database as an earlier Fawn left it.
 */
export async function openFawnDb(name: string, version: number = DB_VERSION): Promise<FawnDb> {
  const db = await openDB<FawnDbSchema>(name, version, {
    upgrade(database, oldVersion, _newVersion, transaction) {
      for (const [step, upgrade] of UPGRADES) {
        if (oldVersion < step && step <= version) upgrade(database, transaction);
      }
    },
    blocking() {
      // A newer version is waiting for us: step aside so the other tab can upgrade.
      db.close();
    },
  });
  return db;
}

/** Rewrites the settings and their secrets as this version stores them, inside the upgrade's transaction. */
async function upgradeStoredSettings(transaction: UpgradeTransaction): Promise<void> {
  const settings = transaction.objectStore("settings");
  const secrets = transaction.objectStore("secrets");
  const [records, stored] = await Promise.all([settings.getAll(), secrets.getAll()]);
  const upgrade = upgradeSettings(records);
  const keys = movedSecrets(upgrade, new Map(stored.map((secret) => [secret.key, secret.value])));
  await Promise.all([
    ...upgrade.delete.map((key) => settings.delete(key)),
    ...upgrade.put.map((record) => settings.put(record)),
    ...keys.delete.map((key) => secrets.delete(key)),
    ...keys.put.map((secret) => secrets.put(secret)),
  ]);
}

/** Where a storage class gets its connection: a database name (opened on demand) or an open connection. */
export type FawnDbSource = { dbName: string; db?: undefined } | { db: FawnDb; dbName?: undefined };

/** A connection opened on first use, once (again after a failed open); closed only when it opened it itself. */
export class LazyFawnDb {
  private promise: Promise<FawnDb> | undefined;
  private readonly dbName: string | undefined;

  constructor(source: FawnDbSource) {
    if (source.db) this.promise = Promise.resolve(source.db);
    else this.dbName = source.dbName;
  }

  get(): Promise<FawnDb> {
    if (!this.promise) {
      const opening = openFawnDb(this.dbName as string);
      this.promise = opening;
      opening.catch(() => {
        if (this.promise === opening) this.promise = undefined;
      });
    }
    return this.promise;
  }

  /** Closes the connection if it was opened here (a `db` passed in belongs to the caller). */
  async close(): Promise<void> {
    if (this.dbName === undefined || !this.promise) return;
    const db = await this.promise.catch(() => undefined);
    this.promise = undefined;
    db?.close();
  }
}
