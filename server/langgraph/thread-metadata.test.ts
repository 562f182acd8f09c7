// LangGraph's thread metadata beside Fawn's threads: merged on patch, kept per owner, filtered by JSON equality.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/database.ts";
import { matchesMetadata, ThreadMetadataTable } from "./thread-metadata.ts";

let db: Database;
// Starting PGlite takes seconds on a busy machine.
beforeAll(async () => {
  db = await openDatabase();
}, 60_000);
afterAll(async () => {
  await db.close();
});

describe("ThreadMetadataTable", () => {
  it("merges patches key by key, keeps owners apart, and forgets a deleted thread", async () => {
    const table = new ThreadMetadataTable(db);
    expect(await table.get("ann", "t1")).toEqual({});
    await table.merge("ann", "t1", { team: "red", n: 1 });
    expect(await table.merge("ann", "t1", { n: 2, tags: ["a"] })).toEqual({ team: "red", n: 2, tags: ["a"] });
    await table.merge("bob", "t1", { team: "blue" });
    expect(await table.get("ann", "t1")).toEqual({ team: "red", n: 2, tags: ["a"] });
    expect([...(await table.all("bob")).entries()]).toEqual([["t1", { team: "blue" }]]);
    await table.delete("ann", "t1");
    expect(await table.get("ann", "t1")).toEqual({});
    expect(await table.get("bob", "t1")).toEqual({ team: "blue" });
  });
});

describe("matchesMetadata", () => {
  it("asks every key of the filter for an equal JSON value", () => {
    const metadata = { team: "red", n: 2, nested: { a: [1, 2] } };
    expect(matchesMetadata(metadata, undefined)).toBe(true);
    expect(matchesMetadata(metadata, { team: "red", nested: { a: [1, 2] } })).toBe(true);
    expect(matchesMetadata(metadata, { nested: { a: [1] } })).toBe(false);
    expect(matchesMetadata(metadata, { team: "blue" })).toBe(false);
    expect(matchesMetadata(metadata, { missing: null })).toBe(false);
  });
});
