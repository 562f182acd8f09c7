// The tables the in-memory repositories share (docs/architecture.md#d2-storage): Fawn's stores with IndexedDB's keys
// and key order, values copied in and out (as IndexedDB's structured clone does), and writes that are all or nothing
// (a write that throws is undone). Transactions are synchronous, so no other work runs inside one.
import type { StoreNames } from "idb";
import type { FawnDbSchema } from "../fawn-db.ts";

export type StoreName = StoreNames<FawnDbSchema>;
export type StoreValue<Name extends StoreName> = FawnDbSchema[Name]["value"];
export type Key = string | number | Key[];

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

/** IndexedDB's order of keys: numbers, then strings (by code unit), then arrays (element by element). */
export function compareKeys(a: Key, b: Key): number {
  const rank = (key: Key) => (typeof key === "number" ? 0 : typeof key === "string" ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === "number") return a - (b as number);
  if (typeof a === "string") return a < (b as string) ? -1 : a > (b as string) ? 1 : 0;
  const other = b as Key[];
  for (let index = 0; index < Math.min(a.length, other.length); index++) {
    const order = compareKeys(a[index] as Key, other[index] as Key);
    if (order !== 0) return order;
  }
  return a.length - other.length;
}

/** Whether an array key starts with `prefix`'s elements. */
function startsWith(key: Key, prefix: readonly Key[]): boolean {
  return (
    Array.isArray(key) &&
    prefix.every((part, index) => index < key.length && compareKeys(key[index] as Key, part) === 0)
  );
}

/** Which keys a read or a delete covers: an array key's first elements, or a test of the key. */
export type KeyMatch = readonly Key[] | ((key: Key) => boolean);

function matches(key: Key, match: KeyMatch | undefined): boolean {
  if (match === undefined) return true;
  return typeof match === "function" ? match(key) : startsWith(key, match);
}

const encode = (key: Key) => JSON.stringify(key);

interface Row {
  key: Key;
  value: unknown;
}

/** One transaction over the tables: reads see its own writes. */
export interface MemoryTransaction {
  get<Name extends StoreName>(name: Name, key: Key): StoreValue<Name> | undefined;
  has(name: StoreName, key: Key): boolean;
  /** The values in key order; `match` limits them. */
  all<Name extends StoreName>(name: Name, match?: KeyMatch): StoreValue<Name>[];
  keys(name: StoreName, match?: KeyMatch): Key[];
  count(name: StoreName, match?: KeyMatch): number;
  put<Name extends StoreName>(name: Name, value: StoreValue<Name>): void;
  /** Like put, but a key already stored fails with IndexedDB's ConstraintError. */
  add<Name extends StoreName>(name: Name, value: StoreValue<Name>): void;
  delete(name: StoreName, key: Key): void;
  deleteWhere(name: StoreName, match: KeyMatch): void;
  clear(name: StoreName): void;
}

export class MemoryTables {
  private readonly tables = new Map<StoreName, Map<string, Row>>();

  private table(name: StoreName): Map<string, Row> {
    let table = this.tables.get(name);
    if (!table) {
      table = new Map();
      this.tables.set(name, table);
    }
    return table;
  }

  /** Runs `read` over the tables; nothing it does is written. */
  read<T>(read: (tx: Pick<MemoryTransaction, "get" | "has" | "all" | "keys" | "count">) => T): T {
    return read(this.transaction([]));
  }

  /** Runs `write` as one transaction: when it throws, every change it made is undone and the error rethrown. */
  write<T>(write: (tx: MemoryTransaction) => T): T {
    const undo: (() => void)[] = [];
    try {
      return write(this.transaction(undo));
    } catch (error) {
      for (const step of undo.reverse()) step();
      throw error;
    }
  }

  private transaction(undo: (() => void)[]): MemoryTransaction {
    const rowsOf = (name: StoreName, match?: KeyMatch) =>
      [...this.table(name).values()].filter((row) => matches(row.key, match)).sort((a, b) => compareKeys(a.key, b.key));
    const set = (name: StoreName, key: Key, value: unknown) => {
      const table = this.table(name);
      const id = encode(key);
      const before = table.get(id);
      undo.push(() => (before ? table.set(id, before) : table.delete(id)));
      if (value === undefined) table.delete(id);
      else table.set(id, { key: structuredClone(key), value: structuredClone(value) });
    };
    const keyOf = (name: StoreName, value: unknown): Key => {
      const path = KEY_PATHS[name];
      const record = value as Record<string, Key>;
      const key = typeof path === "string" ? record[path] : path.map((field) => record[field] as Key);
      if (key === undefined || (Array.isArray(key) && key.some((part) => part === undefined))) {
        throw new DOMException("The object store's key path yielded no key.", "DataError");
      }
      return key as Key;
    };
    const tx: MemoryTransaction = {
      get: (name, key) => structuredClone(this.table(name).get(encode(key))?.value) as never,
      has: (name, key) => this.table(name).has(encode(key)),
      all: (name, match) => rowsOf(name, match).map((row) => structuredClone(row.value)) as never,
      keys: (name, match) => rowsOf(name, match).map((row) => structuredClone(row.key)),
      count: (name, match) => rowsOf(name, match).length,
      put: (name, value) => set(name, keyOf(name, value), value),
      add: (name, value) => {
        const key = keyOf(name, value);
        if (tx.has(name, key)) throw new DOMException("Key already exists in the object store.", "ConstraintError");
        set(name, key, value);
      },
      delete: (name, key) => {
        if (tx.has(name, key)) set(name, key, undefined);
      },
      deleteWhere: (name, match) => {
        for (const row of rowsOf(name, match)) set(name, row.key, undefined);
      },
      clear: (name) => {
        for (const row of rowsOf(name)) set(name, row.key, undefined);
      },
    };
    return tx;
  }
}
