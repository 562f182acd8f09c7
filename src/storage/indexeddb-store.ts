// LangGraph's long-term memory store (BaseStore) over Fawn's IndexedDB (DESIGN.md D2). Semantics follow
// InMemoryStore without an index: reads in a batch see the data as it was before the batch, the batch's puts are
// applied after them (the last put of a key wins), and the whole batch is one transaction. Differences, on purpose:
// search results come in (namespace, key) order rather than insertion order; `query` is ignored (there are no
// embeddings, and InMemoryStore without an index ignores it too); listNamespaces lists only namespaces that still
// hold an item (InMemoryStore keeps listing a namespace after its last item was deleted).
import {
  BaseStore,
  validateNamespace,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type MatchCondition,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchItem,
  type SearchOperation,
} from "@langchain/langgraph-checkpoint";
import type { IDBPIndex, IDBPTransaction } from "idb";
import { LazyFawnDb, type FawnDb, type FawnDbSchema, type StoreItemRecord } from "./fawn-db.ts";

type ItemsTransaction = IDBPTransaction<FawnDbSchema, ["store_items"], "readwrite">;
type NamespaceIndex = IDBPIndex<FawnDbSchema, ["store_items"], "store_items", "by-namespace", "readwrite">;

export type IndexedDbStoreOptions = { dbName: string; db?: undefined } | { db: FawnDb; dbName?: undefined };

/** The separator that ends every label in an encoded namespace; `%` and `/` inside labels are escaped. */
const SEPARATOR = "/";
/** The character right after SEPARATOR: every encoding starting with `p` lies in [p, p without its last "/" + "0"). */
const AFTER_SEPARATOR = String.fromCharCode(SEPARATOR.charCodeAt(0) + 1);

/**
 * Encodes a namespace as one string: each label, with `%` and `/` percent-escaped, followed by `/`. The encoding is
 * injective, and `encodeNamespace(prefix)` is a string prefix of `encodeNamespace(ns)` exactly when `prefix` is a
 * label-wise prefix of `ns` (so `["a"]` does not match `["ab"]`).
 */
export function encodeNamespace(namespace: readonly string[]): string {
  return namespace.map((label) => label.replaceAll("%", "%25").replaceAll("/", "%2F") + SEPARATOR).join("");
}

export function decodeNamespace(path: string): string[] {
  if (path === "") return [];
  return path
    .slice(0, -1)
    .split(SEPARATOR)
    .map((label) => label.replaceAll("%2F", "/").replaceAll("%25", "%"));
}

/** The keys of `store_items` (or of its `by-namespace` index) whose namespace starts with `prefix`; all when empty. */
function namespaceRange(prefix: readonly string[], compound: boolean): IDBKeyRange | undefined {
  if (prefix.length === 0) return undefined;
  const lower = encodeNamespace(prefix);
  const upper = lower.slice(0, -1) + AFTER_SEPARATOR;
  return compound ? IDBKeyRange.bound([lower], [upper], false, true) : IDBKeyRange.bound(lower, upper, false, true);
}

const OPERATORS = new Set(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"]);

function isOperators(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.keys(value).every((key) => OPERATORS.has(key));
}

/** One filter condition, as InMemoryStore compares: exact (===) match, or every operator of an operator object. */
function matches(itemValue: unknown, condition: unknown): boolean {
  if (!isOperators(condition)) return itemValue === condition;
  return Object.entries(condition).every(([op, value]) => {
    switch (op) {
      case "$eq":
        return itemValue === value;
      case "$ne":
        return itemValue !== value;
      case "$gt":
        return Number(itemValue) > Number(value);
      case "$gte":
        return Number(itemValue) >= Number(value);
      case "$lt":
        return Number(itemValue) < Number(value);
      case "$lte":
        return Number(itemValue) <= Number(value);
      case "$in":
        return Array.isArray(value) ? value.includes(itemValue) : false;
      case "$nin":
        return Array.isArray(value) ? !value.includes(itemValue) : true;
      default:
        return false;
    }
  });
}

function matchesFilter(value: Record<string, unknown>, filter: Record<string, unknown> | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([key, condition]) => matches(value[key], condition));
}

function matchesCondition({ matchType, path }: MatchCondition, namespace: readonly string[]): boolean {
  if (matchType !== "prefix" && matchType !== "suffix") throw new Error(`Unsupported match type: ${String(matchType)}`);
  if (path.length > namespace.length) return false;
  const start = matchType === "prefix" ? 0 : namespace.length - path.length;
  return path.every((label, index) => label === "*" || namespace[start + index] === label);
}

function toItem(record: StoreItemRecord): Item {
  return {
    value: record.value,
    key: record.key,
    namespace: record.namespace,
    createdAt: new Date(record.created_at),
    updatedAt: new Date(record.updated_at),
  };
}

function isGet(op: Operation): op is GetOperation {
  return "namespace" in op && "key" in op && !("value" in op);
}

function isPut(op: Operation): op is PutOperation {
  return "namespace" in op && "value" in op;
}

function isSearch(op: Operation): op is SearchOperation {
  return "namespacePrefix" in op;
}

function isListNamespaces(op: Operation): op is ListNamespacesOperation {
  return "matchConditions" in op || ("limit" in op && "offset" in op && !("namespacePrefix" in op));
}

/** Validates every operation before anything is read or written, as InMemoryStore does. */
function validate(op: Operation): void {
  if ("namespace" in op) validateNamespace(op.namespace, { allowReservedRoot: true });
  else if (isSearch(op) && op.namespacePrefix.length > 0) {
    validateNamespace(op.namespacePrefix, { allowReservedRoot: true });
  }
}

export class IndexedDbStore extends BaseStore {
  private readonly connection: LazyFawnDb;

  constructor(options: IndexedDbStoreOptions) {
    super();
    this.connection = new LazyFawnDb(options);
  }

  private database(): Promise<FawnDb> {
    return this.connection.get();
  }

  /** Closes the connection when this store opened it (a `db` passed in belongs to the caller). */
  close(): Promise<void> {
    return this.connection.close();
  }

  override stop(): Promise<void> {
    return this.close();
  }

  /**
   * Runs the operations in one transaction (readwrite when there is a put): gets, searches and namespace listings
   * first, in order, on the data as it was; then the puts (value null deletes). A failure aborts it all.
   */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    for (const op of operations) validate(op);
    if (operations.length === 0) return [] as unknown as OperationResults<Op>;
    const puts = new Map<string, PutOperation>();
    for (const op of operations) {
      if (isPut(op)) puts.set(JSON.stringify([encodeNamespace(op.namespace), op.key]), op);
    }
    const db = await this.database();
    // Typed as readwrite so that one code path serves both; only a batch with puts writes.
    const tx = db.transaction("store_items", puts.size > 0 ? "readwrite" : "readonly") as ItemsTransaction;
    const done = tx.done;
    done.catch(() => undefined);
    const store = tx.store;
    const results: unknown[] = [];
    try {
      for (const op of operations) {
        if (isPut(op)) {
          results.push(null); // As InMemoryStore (the declared type is void).
        } else if (isGet(op)) {
          const record = await store.get([encodeNamespace(op.namespace), op.key]);
          results.push(record ? toItem(record) : null);
        } else if (isSearch(op)) {
          const offset = op.offset ?? 0;
          const limit = op.limit ?? 10;
          const found: SearchItem[] = [];
          let skipped = 0;
          let cursor = limit > 0 ? await store.openCursor(namespaceRange(op.namespacePrefix, true)) : null;
          while (cursor && found.length < limit) {
            if (matchesFilter(cursor.value.value, op.filter)) {
              if (skipped < offset) skipped++;
              else found.push({ ...toItem(cursor.value), score: undefined });
            }
            cursor = await cursor.continue();
          }
          results.push(found);
        } else if (isListNamespaces(op)) {
          results.push(await this.listNamespacesIn(store.index("by-namespace"), op));
        } else {
          throw new Error(`Unsupported store operation: ${JSON.stringify(op)}`);
        }
      }
      if (puts.size > 0) {
        const now = Date.now();
        const requests: Promise<unknown>[] = [];
        for (const op of puts.values()) {
          const key: [string, string] = [encodeNamespace(op.namespace), op.key];
          if (op.value === null) {
            requests.push(store.delete(key));
            continue;
          }
          const existing = await store.get(key);
          requests.push(
            store.put({
              namespace_path: key[0],
              key: op.key,
              namespace: [...op.namespace],
              value: op.value,
              created_at: existing?.created_at ?? now,
              updated_at: now,
            }),
          );
        }
        await Promise.all(requests);
      }
    } catch (error) {
      if (!tx.error) tx.abort();
      throw error;
    }
    await done;
    return results as OperationResults<Op>;
  }

  /** Distinct namespaces read from the index keys alone (no values), filtered, truncated, sorted as InMemoryStore. */
  private async listNamespacesIn(index: NamespaceIndex, op: ListNamespacesOperation): Promise<string[][]> {
    const conditions = op.matchConditions ?? [];
    // Narrow the scan to the labels a prefix condition fixes before its first wildcard.
    const prefix = conditions.find((condition) => condition.matchType === "prefix")?.path ?? [];
    const wildcard = prefix.indexOf("*");
    const fixed = wildcard === -1 ? prefix : prefix.slice(0, wildcard);
    const seen = new Map<string, string[]>();
    let cursor = await index.openKeyCursor(namespaceRange(fixed, false), "nextunique");
    while (cursor) {
      let namespace = decodeNamespace(cursor.key);
      if (conditions.every((condition) => matchesCondition(condition, namespace))) {
        if (op.maxDepth !== undefined) namespace = namespace.slice(0, op.maxDepth);
        seen.set(encodeNamespace(namespace), namespace);
      }
      cursor = await cursor.continue();
    }
    const namespaces = [...seen.values()].sort((a, b) => a.join(":").localeCompare(b.join(":")));
    const offset = op.offset ?? 0;
    return namespaces.slice(offset, offset + (op.limit ?? namespaces.length));
  }
}
