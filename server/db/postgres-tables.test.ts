// PostgresTables' own promises: key bytes sort as IndexedDB sorts keys and a match is one range of them, and values
// come back as structured clone gives them (over PGlite).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareKeys, keyMatches, type Key, type KeyMatch } from "../../src/storage/index.ts";
import { openDatabase, type Database } from "./database.ts";
import { encodeKey, matchPrefix, prefixEnd } from "./postgres-tables-keys.ts";
import { PostgresTables } from "./postgres-tables.ts";

/** A small deterministic generator (mulberry32), so a failure is the same on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const UNITS = [0, 1, 0x41, 0x7e, 0x7f, 0x80, 0xff, 0x100, 0x407e, 0x407f, 0xd800, 0xdc00, 0xe000, 0xfffe, 0xffff];
const NUMBERS = [
  -Infinity,
  -1e300,
  -2,
  -1.5,
  -1,
  -0.5,
  -Number.MIN_VALUE,
  0,
  -0,
  Number.MIN_VALUE,
  0.5,
  1,
  2,
  1e300,
  Infinity,
];

function randomKey(next: () => number, depth = 0): Key {
  const kind = next();
  if (kind < 0.3) return NUMBERS[Math.floor(next() * NUMBERS.length)]!;
  if (kind < 0.75 || depth > 2) {
    const length = Math.floor(next() * 4);
    return String.fromCharCode(...Array.from({ length }, () => UNITS[Math.floor(next() * UNITS.length)]!));
  }
  return Array.from({ length: Math.floor(next() * 4) }, () => randomKey(next, depth + 1));
}

const byteOrder = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b);
const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);

describe("Postgres tables: key bytes", () => {
  it("sort every pair of keys as IndexedDB orders them, equal bytes only for equal keys", () => {
    const next = random(30);
    const keys = Array.from({ length: 400 }, () => randomKey(next));
    const encoded = keys.map((key) => encodeKey(key));
    const disagreements: string[] = [];
    keys.forEach((a, i) =>
      keys.forEach((b, j) => {
        if (sign(byteOrder(encoded[i]!, encoded[j]!)) !== sign(compareKeys(a, b))) {
          disagreements.push(`${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
        }
      }),
    );
    expect(disagreements).toEqual([]);
  });

  it("cover with one range exactly the keys a match covers", () => {
    const next = random(31);
    const keys = Array.from({ length: 300 }, () => randomKey(next));
    const matches: KeyMatch[] = [
      [],
      ["a"],
      ["", 1],
      [[]],
      { startsWith: "" },
      { startsWith: "\u0080" },
      { within: [""], startsWith: "A" },
      { within: [1], startsWith: "" },
      ...keys
        .slice(0, 40)
        .flatMap((key): KeyMatch[] =>
          Array.isArray(key) ? [key, key.slice(0, 1)] : typeof key === "string" ? [{ startsWith: key }] : [],
        ),
    ];
    const disagreements: string[] = [];
    for (const match of matches) {
      const start = matchPrefix(match);
      const end = prefixEnd(start);
      for (const key of keys) {
        const bytes = encodeKey(key);
        const inRange = byteOrder(bytes, start) >= 0 && (end === undefined || byteOrder(bytes, end) < 0);
        if (inRange !== keyMatches(key, match)) disagreements.push(`${JSON.stringify(match)} ${JSON.stringify(key)}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it("refuse what is no key with IndexedDB's DataError", () => {
    for (const bad of [Number.NaN, true, null, undefined, {}, ["a", Number.NaN]]) {
      expect(() => encodeKey(bad as Key)).toThrow(expect.objectContaining({ name: "DataError" }));
    }
  });
});

describe("Postgres tables: values", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase();
  }, 120_000);
  afterAll(() => db.close());

  it("come back as structured clone gives them: bytes as a Uint8Array of their own, dates, maps, undefined", async () => {
    const tables = new PostgresTables(db, "values");
    const pooled = Buffer.from("pooled"); // a view into Node's shared 8 KB pool
    const view = new Uint8Array([9, 8, 7, 6]).subarray(1, 3);
    const value = { when: new Date(5), map: new Map([["k", 1]]), nothing: undefined, pooled, view, big: 2n ** 70n };
    await tables.write((tx) => tx.put("settings", { key: "v", value }));
    const stored = (await tables.read((tx) => tx.get("settings", "v")))?.value as typeof value;
    expect(stored).toEqual({ ...value, pooled: new Uint8Array(pooled), view: new Uint8Array([8, 7]) });
    expect(stored.pooled.constructor).toBe(Uint8Array);
    expect(stored.pooled.buffer.byteLength).toBe(6);
    expect(stored.view.buffer.byteLength).toBe(2);
    const [row] = await db.query<{ value: Uint8Array; key: string }>(
      "SELECT key, value FROM fawn_rows WHERE owner = 'values'",
    );
    expect(row?.key).toBe('"v"');
    expect(row?.value.byteLength).toBeLessThan(200); // not the pool's 8 KB
  });

  it("are read in key order, backwards and limited, by prefix and by string prefix", async () => {
    const tables = new PostgresTables(db, "order");
    await tables.write(async (tx) => {
      for (const path of ["/b/2", "/a/1", "/b/1", "/c"])
        await tx.put("thread_files", { thread_id: "t", path } as never);
      await tx.put("thread_files", { thread_id: "u", path: "/b/0" } as never);
    });
    const paths = (match?: KeyMatch, options?: { reverse?: boolean; limit?: number }) =>
      tables.read(async (tx) => (await tx.all("thread_files", match, options)).map((file) => file.path));
    expect(await paths()).toEqual(["/a/1", "/b/1", "/b/2", "/c", "/b/0"]);
    expect(await paths(["t"], { reverse: true, limit: 2 })).toEqual(["/c", "/b/2"]);
    expect(await paths({ within: ["t"], startsWith: "/b/" })).toEqual(["/b/1", "/b/2"]);
    expect(await tables.read((tx) => tx.count("thread_files", ["u"]))).toBe(1);
    const many = await tables.read((tx) =>
      tx.getMany("thread_files", [
        ["u", "/b/0"],
        ["t", "/none"],
        ["t", "/c"],
        ["u", "/b/0"],
      ]),
    );
    expect(many.map((file) => file?.path)).toEqual(["/b/0", undefined, "/c", "/b/0"]);
    expect(many[0]).not.toBe(many[3]);
    await tables.write((tx) => tx.deleteWhere("thread_files", { within: ["t"], startsWith: "/b" }));
    expect(await paths()).toEqual(["/a/1", "/c", "/b/0"]);
    expect(await tables.read((tx) => tx.keys("thread_files", ["t"]))).toEqual([
      ["t", "/a/1"],
      ["t", "/c"],
    ]);
  });
});
