import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { openFawnDb, type FawnDb } from "./fawn-db.ts";
import { MAX_SEARCH_TEXT, ThreadSearchIndex } from "./thread-search-index.ts";
import { ThreadRepository } from "./thread-repository.ts";

let dbCount = 0;
async function open(): Promise<{ db: FawnDb; index: ThreadSearchIndex; threads: ThreadRepository }> {
  const db = await openFawnDb(`thread-search-index-test-${dbCount++}`);
  return { db, index: new ThreadSearchIndex(db), threads: new ThreadRepository(db) };
}

describe("ThreadSearchIndex", () => {
  it("finds threads by the start of any word of their text", async () => {
    const { index, threads } = await open();
    await threads.create({ threadId: "a", title: "A" });
    await threads.create({ threadId: "b", title: "B" });
    await index.put([
      { threadId: "a", text: "Quarterly budget review" },
      { threadId: "b", text: "Holiday plans and a BUDGET" },
    ]);
    const [budget, quarter, holiday, nothing] = await index.threadsWithPrefixes(["budget", "quarter", "holi", "zzz"]);
    expect([...budget!].sort()).toEqual(["a", "b"]);
    expect([...quarter!]).toEqual(["a"]);
    expect([...holiday!]).toEqual(["b"]);
    expect(nothing!.size).toBe(0);
    expect(await index.texts(["a", "missing"])).toEqual(new Map([["a", "Quarterly budget review"]]));
  });

  it("replaces a thread's entry, and forgets it on remove", async () => {
    const { index, threads } = await open();
    await threads.create({ threadId: "a" });
    await index.put([{ threadId: "a", text: "old words" }]);
    await index.put([{ threadId: "a", text: "new words" }]);
    expect([...(await index.threadsWithPrefixes(["old"]))[0]!]).toEqual([]);
    expect([...(await index.threadsWithPrefixes(["new"]))[0]!]).toEqual(["a"]);
    await index.remove(["a"]);
    expect([...(await index.threadsWithPrefixes(["new"]))[0]!]).toEqual([]);
  });

  it("writes no entry for a thread that does not exist (deleted while its text was read)", async () => {
    const { index } = await open();
    await index.put([{ threadId: "gone", text: "words" }]);
    expect(await index.texts(["gone"])).toEqual(new Map());
  });

  it("tells which threads miss an entry and which entries lost their thread", async () => {
    const { db, index, threads } = await open();
    await threads.create({ threadId: "a" });
    await threads.create({ threadId: "b" });
    await index.put([{ threadId: "a", text: "x" }]);
    expect(await index.isComplete()).toBe(false);
    expect(await index.differences()).toEqual({ missing: ["b"], orphans: [] });
    await index.put([{ threadId: "b", text: "y" }]);
    expect(await index.isComplete()).toBe(true);
    // Another writer deleted only the thread record.
    await db.delete("threads", "a");
    expect(await index.differences()).toEqual({ missing: [], orphans: ["a"] });
  });

  it("goes away with the thread when the thread is deleted", async () => {
    const { index, threads } = await open();
    await threads.create({ threadId: "a" });
    await index.put([{ threadId: "a", text: "words" }]);
    await threads.delete("a");
    expect(await index.texts(["a"])).toEqual(new Map());
    expect(await index.isComplete()).toBe(true);
  });

  it("keeps a long thread's words searchable past the text it stores for passages", async () => {
    const { index, threads } = await open();
    await threads.create({ threadId: "a" });
    await index.put([{ threadId: "a", text: `${"filler ".repeat(MAX_SEARCH_TEXT / 7 + 10)}needle` }]);
    expect([...(await index.threadsWithPrefixes(["needle"]))[0]!]).toEqual(["a"]);
    expect((await index.texts(["a"])).get("a")).toHaveLength(MAX_SEARCH_TEXT);
  });
});
