// Fawn's tables held in memory (tables/tables.ts): IndexedDB's keys and key order, values copied in and out (as
// IndexedDB's structured clone does), and writes that are all or nothing (a write that throws is undone). Reads and
// writes take turns through one promise chain, so a read never sees a write half done.
import {
  compareKeys,
  keyMatches,
  keyOf,
  assertKey,
  type Key,
  type KeyMatch,
  type ReadOptions,
  type StoreName,
  type TableReader,
  type Tables,
  type TableTransaction,
} from "../tables/tables.ts";

interface Row {
  key: Key;
  value: unknown;
}

const encode = (key: Key) => {
  assertKey(key);
  return JSON.stringify(key);
};

export class MemoryTables implements Tables {
  private readonly tables = new Map<StoreName, Map<string, Row>>();
  /** The end of the last transaction queued; each one starts when the one before it has ended. */
  private queue: Promise<unknown> = Promise.resolve();

  private table(name: StoreName): Map<string, Row> {
    let table = this.tables.get(name);
    if (!table) {
      table = new Map();
      this.tables.set(name, table);
    }
    return table;
  }

  private turn<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  read<T>(work: (tx: TableReader) => Promise<T>): Promise<T> {
    return this.turn(() => work(this.transaction([])));
  }

  write<T>(work: (tx: TableTransaction) => Promise<T>): Promise<T> {
    return this.turn(async () => {
      const undo: (() => void)[] = [];
      try {
        return await work(this.transaction(undo));
      } catch (error) {
        for (const step of undo.reverse()) step();
        throw error;
      }
    });
  }

  private transaction(undo: (() => void)[]): TableTransaction {
    const rowsOf = (name: StoreName, match?: KeyMatch, options: ReadOptions = {}) => {
      const rows = [...this.table(name).values()]
        .filter((row) => keyMatches(row.key, match))
        .sort((a, b) => compareKeys(a.key, b.key));
      if (options.reverse) rows.reverse();
      return options.limit === undefined ? rows : rows.slice(0, Math.max(0, options.limit));
    };
    const set = (name: StoreName, key: Key, value: unknown) => {
      const table = this.table(name);
      const id = encode(key);
      const before = table.get(id);
      undo.push(() => (before ? table.set(id, before) : table.delete(id)));
      if (value === undefined) table.delete(id);
      else table.set(id, { key: structuredClone(key), value: structuredClone(value) });
    };
    const has = (name: StoreName, key: Key) => this.table(name).has(encode(key));
    const get = (name: StoreName, key: Key) => structuredClone(this.table(name).get(encode(key))?.value) as never;
    return {
      get: async (name, key) => get(name, key),
      getMany: async (name, keys) => keys.map((key) => get(name, key)),
      has: async (name, key) => has(name, key),
      all: async (name, match, options) =>
        rowsOf(name, match, options).map((row) => structuredClone(row.value)) as never,
      keys: async (name, match, options) => rowsOf(name, match, options).map((row) => structuredClone(row.key)),
      count: async (name, match) => rowsOf(name, match).length,
      put: async (name, value) => set(name, keyOf(name, value), value),
      add: async (name, value) => {
        const key = keyOf(name, value);
        if (has(name, key)) throw new DOMException("Key already exists in the object store.", "ConstraintError");
        set(name, key, value);
      },
      delete: async (name, key) => {
        if (has(name, key)) set(name, key, undefined);
      },
      deleteWhere: async (name, match) => {
        for (const row of rowsOf(name, match)) set(name, row.key, undefined);
      },
      clear: async (name) => {
        for (const row of rowsOf(name)) set(name, row.key, undefined);
      },
    };
  }
}
