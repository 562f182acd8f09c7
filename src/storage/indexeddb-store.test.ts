import "fake-indexeddb/auto";
import { InMemoryStore, type BaseStore, type Item, type Operation } from "@langchain/langgraph-checkpoint";
import { describe, expect, it, vi } from "vitest";
import { openFawnDb } from "./fawn-db.ts";
import { IndexedDbStore, decodeNamespace, encodeNamespace } from "./indexeddb-store.ts";

let dbCount = 0;
function dbName(): string {
  return `indexeddb-store-test-${dbCount++}`;
}

/** An item without its timestamps (which differ between two stores by construction), or an error's name. */
function normalize(result: unknown): unknown {
  if (Array.isArray(result)) return result.map(normalize);
  if (result && typeof result === "object" && "createdAt" in result) {
    const { createdAt, updatedAt, ...rest } = result as Item;
    expect(createdAt).toBeInstanceOf(Date);
    expect(updatedAt).toBeInstanceOf(Date);
    expect(updatedAt.getTime()).toBeGreaterThanOrEqual(createdAt.getTime());
    return rest;
  }
  return result;
}

async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return { ok: normalize(await run()) };
  } catch (error) {
    return { error: (error as Error).name };
  }
}

type Step = [string, (store: BaseStore) => Promise<unknown>];

// Namespaces and keys are created in the order IndexedDbStore sorts them, (encoded namespace, key), so that search results
// (insertion order in InMemoryStore) compare exactly, pagination included.
const SCENARIO: Step[] = [
  ["put label with %", (s) => s.put(["docs%2Fv2"], "e", { kind: "percent", n: 5 })],
  ["put label with /", (s) => s.put(["docs/v2"], "d", { kind: "slash", n: 4 })],
  ["put docs", (s) => s.put(["docs"], "a", { kind: "doc", n: 1, tag: "x" })],
  ["put docs 2", (s) => s.put(["docs"], "b", { kind: "doc", n: 2, tag: "y" })],
  ["put docs/v2", (s) => s.put(["docs", "v2"], "c", { kind: "doc", n: 3, tag: "x" })],
  ["put users alice memories", (s) => s.put(["users", "alice", "memories"], "m1", { kind: "memory", n: 10 })],
  ["put users alice memories 2", (s) => s.put(["users", "alice", "memories"], "m2", { kind: "memory", n: 20 })],
  ["put users alice prefs", (s) => s.put(["users", "alice", "prefs"], "theme", { kind: "pref", value: "dark" })],
  ["put users bob prefs", (s) => s.put(["users", "bob", "prefs"], "theme", { kind: "pref", value: "light" })],
  ["put usersx", (s) => s.put(["usersx"], "k", { kind: "other", n: 99 })],
  ["put reserved root", (s) => s.put(["langgraph"], "k", { n: 1 })],
  ["get", (s) => s.get(["docs"], "a")],
  ["get missing key", (s) => s.get(["docs"], "zzz")],
  ["get wrong namespace", (s) => s.get(["docs", "v2"], "a")],
  ["get label with /", (s) => s.get(["docs/v2"], "d")],
  ["get label with / is not two labels", (s) => s.get(["docs", "v2"], "d")],
  ["get label with %", (s) => s.get(["docs%2Fv2"], "e")],
  ["search everything", (s) => s.search([], { limit: 100 })],
  ["search default limit", (s) => s.search([])],
  ["search prefix users", (s) => s.search(["users"])],
  ["search prefix users does not match usersx", (s) => s.search(["users"], { limit: 100 })],
  ["search prefix users alice", (s) => s.search(["users", "alice"])],
  ["search exact namespace", (s) => s.search(["users", "alice", "prefs"])],
  ["search prefix docs", (s) => s.search(["docs"])],
  ["search prefix that is a label start", (s) => s.search(["doc"])],
  ["search missing prefix", (s) => s.search(["nobody"])],
  ["filter exact", (s) => s.search([], { filter: { kind: "doc" }, limit: 100 })],
  ["filter two fields", (s) => s.search([], { filter: { kind: "doc", tag: "x" }, limit: 100 })],
  ["filter $eq", (s) => s.search([], { filter: { tag: { $eq: "y" } }, limit: 100 })],
  ["filter $ne", (s) => s.search(["docs"], { filter: { tag: { $ne: "x" } }, limit: 100 })],
  ["filter $gt", (s) => s.search([], { filter: { n: { $gt: 3 } }, limit: 100 })],
  ["filter $gte", (s) => s.search([], { filter: { n: { $gte: 3 } }, limit: 100 })],
  ["filter $lt", (s) => s.search([], { filter: { n: { $lt: 3 } }, limit: 100 })],
  ["filter $lte", (s) => s.search([], { filter: { n: { $lte: 3 } }, limit: 100 })],
  ["filter range", (s) => s.search([], { filter: { n: { $gt: 1, $lte: 10 } }, limit: 100 })],
  ["filter $in", (s) => s.search([], { filter: { kind: { $in: ["pref", "slash"] } }, limit: 100 })],
  ["filter $nin", (s) => s.search([], { filter: { kind: { $nin: ["doc", "memory"] } }, limit: 100 })],
  ["filter on a missing field", (s) => s.search([], { filter: { missing: 1 }, limit: 100 })],
  ["filter matches nothing", (s) => s.search([], { filter: { kind: "nope" } })],
  ["limit", (s) => s.search([], { limit: 3 })],
  ["limit 0", (s) => s.search([], { limit: 0 })],
  ["offset", (s) => s.search([], { limit: 3, offset: 2 })],
  ["offset past the end", (s) => s.search([], { offset: 50 })],
  ["filter with limit and offset", (s) => s.search([], { filter: { n: { $gte: 2 } }, limit: 2, offset: 1 })],
  ["query is ignored", (s) => s.search(["users"], { query: "dark theme" })],
  ["update", (s) => s.put(["docs"], "a", { kind: "doc", n: 100, tag: "z" })],
  ["get updated", (s) => s.get(["docs"], "a")],
  ["delete", (s) => s.delete(["docs"], "b")],
  ["get deleted", (s) => s.get(["docs"], "b")],
  ["delete missing", (s) => s.delete(["docs"], "never")],
  ["search after update and delete", (s) => s.search(["docs"], { limit: 100 })],
  [
    "batch: reads see the data before the batch's puts",
    (s) =>
      s.batch([
        { namespace: ["docs"], key: "new", value: { n: 7 } },
        { namespace: ["docs"], key: "new" },
        { namespacePrefix: ["docs"], filter: { n: 7 }, limit: 10, offset: 0 },
        { namespace: ["docs"], key: "a", value: null },
        { namespace: ["docs"], key: "a" },
      ] satisfies Operation[]),
  ],
  ["get after batch", (s) => s.get(["docs"], "new")],
  ["get deleted in batch", (s) => s.get(["docs"], "a")],
  [
    "batch: the last put of a key wins",
    (s) =>
      s.batch([
        { namespace: ["docs"], key: "twice", value: { n: 1 } },
        { namespace: ["docs"], key: "twice", value: { n: 2 } },
      ]),
  ],
  ["get twice", (s) => s.get(["docs"], "twice")],
  [
    "batch: put then delete",
    (s) =>
      s.batch([
        { namespace: ["docs"], key: "gone", value: { n: 1 } },
        { namespace: ["docs"], key: "gone", value: null },
      ]),
  ],
  ["get gone", (s) => s.get(["docs"], "gone")],
  ["list namespaces", (s) => s.listNamespaces()],
  ["list namespaces prefix", (s) => s.listNamespaces({ prefix: ["users"] })],
  ["list namespaces prefix with wildcard", (s) => s.listNamespaces({ prefix: ["users", "*", "prefs"] })],
  ["list namespaces prefix no match", (s) => s.listNamespaces({ prefix: ["user"] })],
  ["list namespaces suffix", (s) => s.listNamespaces({ suffix: ["prefs"] })],
  ["list namespaces suffix with wildcard", (s) => s.listNamespaces({ suffix: ["*", "prefs"] })],
  ["list namespaces prefix and suffix", (s) => s.listNamespaces({ prefix: ["users"], suffix: ["memories"] })],
  ["list namespaces max depth 1", (s) => s.listNamespaces({ maxDepth: 1 })],
  ["list namespaces max depth 2", (s) => s.listNamespaces({ prefix: ["users"], maxDepth: 2 })],
  ["list namespaces limit", (s) => s.listNamespaces({ limit: 2 })],
  ["list namespaces offset", (s) => s.listNamespaces({ limit: 2, offset: 2 })],
  ["invalid: empty namespace", (s) => s.put([], "k", { n: 1 })],
  ["invalid: label with a period", (s) => s.put(["a.b"], "k", { n: 1 })],
  ["invalid: empty label", (s) => s.put(["a", ""], "k", { n: 1 })],
  ["invalid: label with a colon", (s) => s.search(["a:b"])],
  ["invalid: reserved root", (s) => s.put(["langgraph", "x"], "k", { n: 1 })],
  [
    "invalid op in a batch writes nothing",
    (s) =>
      s.batch([
        { namespace: ["docs"], key: "never", value: { n: 1 } },
        { namespace: ["bad.label"], key: "k", value: { n: 1 } },
      ]),
  ],
  ["get never", (s) => s.get(["docs"], "never")],
];

describe("IndexedDbStore", () => {
  it("behaves as InMemoryStore on the same scenario", async () => {
    const memory = new InMemoryStore();
    const indexed = new IndexedDbStore({ dbName: dbName() });
    const compared: string[] = [];
    for (const [name, step] of SCENARIO) {
      const expected = await outcome(() => step(memory));
      const actual = await outcome(() => step(indexed));
      expect({ name, result: actual }).toEqual({ name, result: expected });
      compared.push(name);
    }
    expect(compared).toHaveLength(SCENARIO.length);
    // A few spot checks that the scenario exercises what it says (not just two stores agreeing on nothing).
    const everything = await indexed.search([], { limit: 100 });
    expect(everything.map((item) => item.key)).toEqual([
      "e",
      "d",
      "new",
      "twice",
      "c",
      "m1",
      "m2",
      "theme",
      "theme",
      "k",
    ]);
    expect(await indexed.search(["users"], { limit: 100 })).toHaveLength(4);
    await indexed.close();
  });

  it("keeps createdAt across updates and advances updatedAt, as Dates", async () => {
    const store = new IndexedDbStore({ dbName: dbName() });
    await store.put(["notes"], "n", { text: "one" });
    const first = await store.get(["notes"], "n");
    await new Promise((resolve) => setTimeout(resolve, 5));
    await store.put(["notes"], "n", { text: "two" });
    const second = await store.get(["notes"], "n");
    expect(first?.createdAt).toBeInstanceOf(Date);
    expect(second?.createdAt.getTime()).toBe(first?.createdAt.getTime());
    expect(second?.updatedAt.getTime()).toBeGreaterThan(first?.updatedAt.getTime() ?? Infinity);
    expect(second?.value).toEqual({ text: "two" });
    const [found] = await store.search(["notes"]);
    expect(found?.updatedAt).toEqual(second?.updatedAt);
    expect(found?.score).toBeUndefined();
    await store.close();
  });

  it("persists across connections and stores a copy of the value", async () => {
    const name = dbName();
    const writer = new IndexedDbStore({ dbName: name });
    const value = { nested: { list: [1, 2] } };
    await writer.put(["users", "u1"], "profile", value);
    value.nested.list.push(3);
    await writer.close();
    const reader = new IndexedDbStore({ db: await openFawnDb(name) });
    expect((await reader.get(["users", "u1"], "profile"))?.value).toEqual({ nested: { list: [1, 2] } });
    expect(await reader.listNamespaces()).toEqual([["users", "u1"]]);
  });

  it("writes all puts of a batch in one transaction, and none when one of them fails", async () => {
    const db = await openFawnDb(dbName());
    const store = new IndexedDbStore({ db });
    const transaction = vi.spyOn(db, "transaction");
    const puts = Array.from({ length: 50 }, (_, i) => ({ namespace: ["bulk"], key: `k${i}`, value: { i } }));
    await store.batch([...puts, { namespacePrefix: ["bulk"], limit: 100, offset: 0 }]);
    expect(transaction).toHaveBeenCalledTimes(1);
    expect(await store.search(["bulk"], { limit: 100 })).toHaveLength(50);

    // A value the structured clone cannot copy fails the batch after other puts were issued: none of them stays.
    const failing = [
      { namespace: ["bulk"], key: "k0", value: { i: "changed" } },
      { namespace: ["bulk"], key: "fresh", value: { i: 1 } },
      { namespace: ["bulk"], key: "bad", value: { fn: () => 1 } },
    ];
    await expect(store.batch(failing)).rejects.toThrow();
    expect((await store.get(["bulk"], "k0"))?.value).toEqual({ i: 0 });
    expect(await store.get(["bulk"], "fresh")).toBeNull();
    db.close();
  });

  it("lists only namespaces that still hold an item (InMemoryStore keeps emptied ones)", async () => {
    const store = new IndexedDbStore({ dbName: dbName() });
    await store.put(["a"], "k", { n: 1 });
    await store.put(["b"], "k", { n: 1 });
    await store.delete(["a"], "k");
    expect(await store.listNamespaces()).toEqual([["b"]]);
    const memory = new InMemoryStore();
    await memory.put(["a"], "k", { n: 1 });
    await memory.delete(["a"], "k");
    expect(await memory.listNamespaces()).toEqual([["a"]]);
    await store.close();
  });

  it("returns search results in (namespace, key) order", async () => {
    const store = new IndexedDbStore({ dbName: dbName() });
    await store.put(["z"], "b", { n: 1 });
    await store.put(["z"], "a", { n: 2 });
    await store.put(["a", "b"], "x", { n: 3 });
    await store.put(["a"], "y", { n: 4 });
    const found = await store.search([]);
    expect(found.map((item) => [item.namespace, item.key])).toEqual([
      [["a"], "y"],
      [["a", "b"], "x"],
      [["z"], "a"],
      [["z"], "b"],
    ]);
    await store.close();
  });

  it("encodes namespaces injectively, with label-wise prefixes as string prefixes", () => {
    const namespaces = [
      [],
      ["a"],
      ["a", "b"],
      ["a/b"],
      ["a%2Fb"],
      ["a%"],
      ["a", "b/"],
      ["ab"],
      ["%", "/"],
      ["a/", "b"],
    ];
    const encoded = namespaces.map(encodeNamespace);
    expect(new Set(encoded).size).toBe(namespaces.length);
    for (const [i, namespace] of namespaces.entries()) {
      expect(decodeNamespace(encoded[i] ?? "")).toEqual(namespace);
      for (const [j, other] of namespaces.entries()) {
        const isPrefix = namespace.length <= other.length && namespace.every((label, k) => other[k] === label);
        expect((encoded[j] ?? "").startsWith(encoded[i] ?? "")).toBe(isPrefix);
      }
    }
  });

  it("finds labels containing the separator under the right prefix only", async () => {
    const store = new IndexedDbStore({ dbName: dbName() });
    await store.put(["a/b"], "one", { n: 1 });
    await store.put(["a", "b"], "two", { n: 2 });
    await store.put(["a0"], "three", { n: 3 });
    expect((await store.search(["a"])).map((item) => item.key)).toEqual(["two"]);
    expect((await store.search(["a/b"])).map((item) => item.key)).toEqual(["one"]);
    expect(await store.listNamespaces({ prefix: ["a"] })).toEqual([["a", "b"]]);
    await store.close();
  });
});
