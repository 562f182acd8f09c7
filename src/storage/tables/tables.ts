// The tables Fawn's storage is kept in on a host without IndexedDB (docs/architecture.md#d2-storage): the stores of
// fawn-db.ts with IndexedDB's keys and key order, read and written through async transactions. The repositories in
// this folder are written once over `Tables`; MemoryTables (src/storage/memory/) and the server's PostgresTables
// implement it. Every implementation: values are copied in and out (structured clone), a write is all or nothing
// and sees its own changes, writes of one `Tables` run one at a time, and the errors are IndexedDB's
// (`ConstraintError` for an add over a stored key, `DataError` for a value with no valid key).
import type { StoreNames } from "idb";
import type { FawnDbSchema } from "../fawn-db.ts";

export type StoreName = StoreNames<FawnDbSchema>;
export type StoreValue<Name extends StoreName> = FawnDbSchema[Name]["value"];
/** A valid key: a number (not NaN), a string, or an array of keys. */
export type Key = string | number | Key[];

/**
 * Which keys a read or a delete covers: an array key's first elements (`[threadId]`), or the keys whose string
 * starts with `startsWith` — the key itself, or with `within`, the element after those first elements (a thread's
 * files under a folder: `{ within: [threadId], startsWith: "/mnt/user-data/outputs/" }`).
 */
export type KeyMatch = readonly Key[] | { readonly within?: readonly Key[]; readonly startsWith: string };

/** Limits a read in key order: `reverse` starts from the last key, `limit` caps how many come back. */
export interface ReadOptions {
  reverse?: boolean;
  limit?: number;
}

/** Reads inside a transaction. */
export interface TableReader {
  get<Name extends StoreName>(name: Name, key: Key): Promise<StoreValue<Name> | undefined>;
  /** The values of `keys`, in their order (undefined where none is stored): one read, however many keys. */
  getMany<Name extends StoreName>(name: Name, keys: readonly Key[]): Promise<(StoreValue<Name> | undefined)[]>;
  has(name: StoreName, key: Key): Promise<boolean>;
  /** The values in key order; `match` limits them. */
  all<Name extends StoreName>(name: Name, match?: KeyMatch, options?: ReadOptions): Promise<StoreValue<Name>[]>;
  keys(name: StoreName, match?: KeyMatch, options?: ReadOptions): Promise<Key[]>;
  count(name: StoreName, match?: KeyMatch): Promise<number>;
}

/** One write transaction: reads see its own writes. */
export interface TableTransaction extends TableReader {
  put<Name extends StoreName>(name: Name, value: StoreValue<Name>): Promise<void>;
  /** Like put, but a key already stored fails with IndexedDB's ConstraintError. */
  add<Name extends StoreName>(name: Name, value: StoreValue<Name>): Promise<void>;
  delete(name: StoreName, key: Key): Promise<void>;
  deleteWhere(name: StoreName, match: KeyMatch): Promise<void>;
  clear(name: StoreName): Promise<void>;
}

/**
 * Fawn's stores for one user. `read` and `write` run `work` with a transaction; `work` must use only that
 * transaction (calling `read` or `write` again from inside it may wait forever for the one it is in).
 */
export interface Tables {
  /**
   * Runs `work` over committed data; nothing it does is written. Each call may see a later state than the one
   * before it unless `snapshot` asks for one state throughout (a backup's records of a thread that is running).
   */
  read<T>(work: (tx: TableReader) => Promise<T>, options?: { snapshot?: boolean }): Promise<T>;
  /** Runs `work` as one transaction: committed when it resolves; when it throws, nothing of it is kept. */
  write<T>(work: (tx: TableTransaction) => Promise<T>): Promise<T>;
}

/** Each store's key, read from its value as IndexedDB's key paths do (fawn-db.ts). */
const KEY_PATHS: { [Name in StoreName]: readonly string[] | string } = {
  threads: "thread_id",
  entries: ["thread_id", "seq"],
  settings: "key",
  checkpoints: ["thread_id", "checkpoint_ns", "checkpoint_id"],
  checkpoint_blobs: ["thread_id", "checkpoint_ns", "channel", "version"],
  checkpoint_writes: ["thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "idx"],
  checkpoint_messages: ["thread_id", "message_id", "hash"],
  store_items: ["namespace_path", "key"],
  thread_files: ["thread_id", "path"],
  thread_file_meta: ["thread_id", "path"],
  secrets: "key",
  runs: ["thread_id", "run_id"],
  skills: "name",
  mcp_servers: "name",
  thread_search: ["thread_id"],
  thread_file_versions: ["thread_id", "checkpoint_id"],
  thread_file_blobs: ["thread_id", "sha256"],
};

const dataError = (message: string) => new DOMException(message, "DataError");

/** Throws IndexedDB's DataError unless `key` is a valid key. */
export function assertKey(key: unknown): asserts key is Key {
  if (typeof key === "string") return;
  if (typeof key === "number") {
    if (Number.isNaN(key)) throw dataError("NaN is not a valid key.");
    return;
  }
  if (!Array.isArray(key)) throw dataError("The parameter is not a valid key.");
  for (const part of key as unknown[]) assertKey(part);
}

/** A value's key in store `name`, as its key path yields it; DataError when that is no valid key. */
export function keyOf(name: StoreName, value: unknown): Key {
  const path = KEY_PATHS[name];
  if (typeof value !== "object" || value === null) throw dataError("The object store's key path yielded no key.");
  const record = value as Record<string, unknown>;
  const key = typeof path === "string" ? record[path] : path.map((field) => record[field]);
  if (key === undefined || (Array.isArray(key) && key.some((part) => part === undefined))) {
    throw dataError("The object store's key path yielded no key.");
  }
  assertKey(key);
  return key;
}

/** IndexedDB's order of keys: numbers, then strings (by UTF-16 code unit), then arrays (element by element). */
export function compareKeys(a: Key, b: Key): number {
  const rank = (key: Key) => (typeof key === "number" ? 0 : typeof key === "string" ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === "number") return a === b ? 0 : a < (b as number) ? -1 : 1;
  if (typeof a === "string") return a < (b as string) ? -1 : a > (b as string) ? 1 : 0;
  const other = b as Key[];
  for (let index = 0; index < Math.min(a.length, other.length); index++) {
    const order = compareKeys(a[index] as Key, other[index] as Key);
    if (order !== 0) return order;
  }
  return a.length - other.length;
}

/** Whether `key` is one `match` covers (undefined covers every key). */
export function keyMatches(key: Key, match: KeyMatch | undefined): boolean {
  if (match === undefined) return true;
  const prefix = Array.isArray(match) ? (match as readonly Key[]) : (match as { within?: readonly Key[] }).within;
  let rest: Key = key;
  if (prefix !== undefined) {
    if (!Array.isArray(key) || key.length < prefix.length) return false;
    if (!prefix.every((part, index) => compareKeys(key[index] as Key, part) === 0)) return false;
    if (Array.isArray(match)) return true;
    if (key.length === prefix.length) return false;
    rest = key[prefix.length] as Key;
  }
  const { startsWith } = match as { startsWith: string };
  return typeof rest === "string" && rest.startsWith(startsWith);
}
