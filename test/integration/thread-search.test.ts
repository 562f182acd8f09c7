// Thread search through the Gateway: titles and message text, kept up to date by runs, imports, renames and
// deletes, and filled in for threads stored before the index existed.
import { describe, expect, it } from "vitest";
import { createGatewayFetch, openGateway, type Gateway } from "../../src/gateway/index.ts";
import type { ThreadSearchResult } from "../../src/protocol/index.ts";
import { openFawnDb, ThreadRepository } from "../../src/storage/index.ts";
import { deerFlowFixtures } from "../support/deerflow-fixtures.ts";
import { runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("thread-search-test");

const titles = (result: ThreadSearchResult) => result.hits.map((hit) => hit.thread.title);

/** The marked words of each hit's snippet. */
const marked = (result: ThreadSearchResult) =>
  result.hits.map((hit) => hit.snippet?.highlights.map(([start, end]) => hit.snippet!.text.slice(start, end)) ?? []);

async function threadWith(gateway: Gateway, text: string): Promise<string> {
  const thread = await gateway.threads.create();
  await runThread(gateway, thread.thread_id, text);
  return thread.thread_id;
}

describe("gateway.threads.search", () => {
  it("finds a thread by a word of the assistant's reply, with the passage around it", async () => {
    const { gateway } = harness;
    await threadWith(gateway, "hello");
    await threadWith(gateway, "tell me about otters");

    const result = await gateway.threads.search("SCRIPT");
    expect(titles(result)).toEqual(["hello"]);
    expect(result).toMatchObject({ total: 1, indexing: false });
    expect(result.hits[0]?.snippet?.text).toContain("I will answer from a script.");
    expect(marked(result)).toEqual([["script"]]);
    // A word of the user's message, and the start of a word.
    expect(titles(await gateway.threads.search("otte"))).toEqual(["tell me about otters"]);
    expect(titles(await gateway.threads.search("nothing like this"))).toEqual([]);
  });

  it("needs every word, from the title or the messages", async () => {
    const { gateway } = harness;
    await threadWith(gateway, "hello");
    await threadWith(gateway, "otters and seals");
    expect(titles(await gateway.threads.search("seal otters"))).toEqual(["otters and seals"]);
    expect(titles(await gateway.threads.search("script hello"))).toEqual(["hello"]);
    expect(titles(await gateway.threads.search("script seals"))).toEqual([]);
  });

  it("lists matches like the thread list: pinned first, then the most recently active", async () => {
    const { gateway } = harness;
    const first = await threadWith(gateway, "apples one");
    const second = await threadWith(gateway, "apples two");
    await threadWith(gateway, "apples three");
    expect(titles(await gateway.threads.search("apples"))).toEqual(["apples three", "apples two", "apples one"]);
    await gateway.threads.pin(first, true);
    // A new message moves a thread up.
    await runThread(gateway, second, "more apples");
    expect(titles(await gateway.threads.search("apples"))).toEqual(["apples one", "apples two", "apples three"]);
    expect((await gateway.threads.search("apples", { limit: 2 })).total).toBe(3);
    expect(titles(await gateway.threads.search("apples", { limit: 2 }))).toHaveLength(2);
  });

  it("finds a thread by its new title after a rename, and not at all after a delete", async () => {
    const { gateway } = harness;
    const id = await threadWith(gateway, "hello");
    await gateway.threads.rename(id, "Weekly planning");
    const renamed = await gateway.threads.search("plan");
    expect(titles(renamed)).toEqual(["Weekly planning"]);
    expect(renamed.hits[0]?.title_highlights).toEqual([[7, 11]]);
    await gateway.threads.delete(id);
    expect(titles(await gateway.threads.search("script"))).toEqual([]);
    expect(titles(await gateway.threads.search("plan"))).toEqual([]);
  });

  it("finds an imported DeerFlow thread by the text of its messages", async () => {
    const { gateway } = harness;
    const fixture = deerFlowFixtures()[0]!;
    const summary = await gateway.threads.importDeerFlow({ thread: fixture.thread, files: fixture.files });
    const words = (fixture.thread.values.messages as { type: string; content?: unknown }[])
      .filter((message) => message.type === "ai" && typeof message.content === "string")
      .flatMap((message) => (message.content as string).match(/[A-Za-z]{9,}/g) ?? []);
    expect(words.length).toBeGreaterThan(0);
    const result = await gateway.threads.search(words[0]!);
    expect(result.hits.map((hit) => hit.thread.thread_id)).toContain(summary.thread_id);
  });

  it("indexes threads stored before the index existed, then finds them", async () => {
    const dbName = "thread-search-legacy-test";
    const db = await openFawnDb(dbName);
    const threads = new ThreadRepository(db);
    const legacy = await threads.create({ title: "old" });
    await threads.append(legacy.thread_id, [
      { kind: "message", message: { type: "human", id: "h0", content: "where is the lighthouse" } },
      { kind: "message", message: { type: "ai", id: "a0", content: "By the harbour." } },
    ]);
    db.close();
    const gateway = await openGateway(dbName);
    const result = await gateway.threads.search("harbour");
    expect(titles(result)).toEqual(["old"]);
    expect(result.indexing).toBe(false);
  });

  it("indexes again a thread whose run never ended (the page closed mid-run)", async () => {
    const { gateway } = harness;
    const id = await threadWith(gateway, "hello");
    // What a run leaves behind when its page closes before it ends: the entry it dropped as it started.
    const db = await openFawnDb(harness.gatewayDbName());
    await db.delete("thread_search", [id]);
    db.close();
    expect(titles(await gateway.threads.search("script"))).toEqual(["hello"]);
  });

  it("says it is still indexing when many threads miss the index, and finds them once done", async () => {
    const dbName = "thread-search-many-test";
    const db = await openFawnDb(dbName);
    const threads = new ThreadRepository(db);
    for (let i = 0; i < 150; i++) {
      const thread = await threads.create({ title: `Thread ${i}` });
      await threads.append(thread.thread_id, [
        { kind: "message", message: { type: "human", id: `h${i}`, content: i === 7 ? "a walrus" : "a seal" } },
      ]);
    }
    db.close();
    const gateway = await openGateway(dbName);
    const first = await gateway.threads.search("walrus");
    expect(first.indexing).toBe(true);
    await expect.poll(async () => titles(await gateway.threads.search("walrus"))).toEqual(["Thread 7"]);
    expect((await gateway.threads.search("walrus")).indexing).toBe(false);
    expect((await gateway.threads.search("seal")).total).toBe(149);
  });

  it("has no hits for an empty query", async () => {
    await threadWith(harness.gateway, "hello");
    expect(await harness.gateway.threads.search("   ")).toEqual({ query: "   ", hits: [], total: 0, indexing: false });
  });
});

describe("POST /api/threads/search with a query", () => {
  it("answers the matching threads in DeerFlow's shape", async () => {
    const { gateway } = harness;
    const hello = await threadWith(gateway, "hello");
    await threadWith(gateway, "otters");
    const handle = createGatewayFetch(gateway);
    const response = await handle(
      new Request("http://fawn.local/api/threads/search", {
        method: "POST",
        body: JSON.stringify({ query: "script", limit: 10 }),
        headers: { "content-type": "application/json" },
      }),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { thread_id: string; values: { title: string } }[];
    expect(body).toEqual([expect.objectContaining({ thread_id: hello, values: { title: "hello" } })]);
  });
});
