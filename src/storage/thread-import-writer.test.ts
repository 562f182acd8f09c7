import "fake-indexeddb/auto";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { uuid6 } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import type { ThreadSummary } from "../protocol/index.ts";
import { keyPrefixRange, openFawnDb, THREAD_STORES, type FawnDb } from "./fawn-db.ts";
import { IndexedDbCheckpointSaver } from "./indexeddb-checkpoint-saver.ts";
import { ThreadFiles } from "./thread-files.ts";
import { ThreadIdTakenError, ThreadImporter } from "./thread-import-writer.ts";
import { ThreadRepository } from "./thread-repository.ts";
import { ThreadSearchIndex } from "./thread-search-index.ts";

let dbCount = 0;
async function open(): Promise<{
  db: FawnDb;
  saver: IndexedDbCheckpointSaver;
  importer: ThreadImporter;
  /** The stores the saver itself wrote to, one entry per record. */
  written: string[];
}> {
  const db = await openFawnDb(`thread-import-test-${dbCount++}`);
  const written: string[] = [];
  const saver = new IndexedDbCheckpointSaver({ db, onWrite: (stat) => written.push(stat.store) });
  return { db, saver, importer: new ThreadImporter(db, saver), written };
}

const text = (value: string): Uint8Array => new TextEncoder().encode(value);

function summary(threadId: string): ThreadSummary {
  return { thread_id: threadId, title: "Imported", created_at: 1, updated_at: 2, status: "idle" };
}

const MESSAGES: BaseMessage[] = [
  new HumanMessage({ id: "h1", content: "Write a report" }),
  new AIMessage({
    id: "a1",
    content: "Here it is.",
    additional_kwargs: { reasoning_content: "A short report will do." },
    usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
  }),
];

async function recordsOf(db: FawnDb, threadId: string): Promise<number> {
  const counts = await Promise.all(
    THREAD_STORES.map((name) =>
      name === "threads" ? db.count(name, threadId) : db.count(name, keyPrefixRange(threadId)),
    ),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

describe("ThreadImporter", () => {
  it("stores the thread, its checkpoint and its files, which the saver and ThreadFiles read back", async () => {
    const { db, saver, importer } = await open();
    await importer.write({
      thread: summary("t1"),
      values: { messages: MESSAGES, artifacts: ["/mnt/user-data/outputs/report.md"] },
      files: [{ path: "/mnt/user-data/outputs/report.md", bytes: text("# Report") }],
    });
    expect(await new ThreadRepository(db).get("t1")).toEqual(summary("t1"));
    const tuple = await saver.getTuple({ configurable: { thread_id: "t1", checkpoint_ns: "" } });
    const messages = tuple?.checkpoint.channel_values.messages as BaseMessage[];
    expect(messages.map((message) => [message.id, message.type, message.content])).toEqual([
      ["h1", "human", "Write a report"],
      ["a1", "ai", "Here it is."],
    ]);
    expect(messages[1]?.additional_kwargs.reasoning_content).toBe("A short report will do.");
    expect((messages[1] as AIMessage).usage_metadata).toMatchObject({ total_tokens: 15 });
    expect(tuple?.checkpoint.channel_values.artifacts).toEqual(["/mnt/user-data/outputs/report.md"]);
    const file = await new ThreadFiles(db).read("t1", "/mnt/user-data/outputs/report.md");
    expect(new TextDecoder().decode(file?.bytes)).toBe("# Report");
    expect(file?.meta).toMatchObject({ size: 8, mimeType: "text/markdown" });
  });

  it("leaves a checkpoint the saver can build on: the next one stores only the new messages", async () => {
    const { saver, importer, written } = await open();
    await importer.write({ thread: summary("t1"), values: { messages: MESSAGES }, files: [] });
    const tuple = await saver.getTuple({ configurable: { thread_id: "t1", checkpoint_ns: "" } });
    if (!tuple) throw new Error("no checkpoint");
    const checkpoint = tuple.checkpoint;
    const version = saver.getNextVersion(checkpoint.channel_versions.messages as number);
    const next = {
      ...checkpoint,
      id: uuid6(1),
      channel_values: { messages: [...MESSAGES, new HumanMessage({ id: "h2", content: "Thanks" })] },
      channel_versions: { ...checkpoint.channel_versions, messages: version },
    };
    await saver.put(tuple.config, next, { source: "loop", step: 1, parents: {} }, { messages: version });
    expect(written.filter((store) => store === "checkpoint_messages")).toHaveLength(1);
    const latest = await saver.getTuple({ configurable: { thread_id: "t1", checkpoint_ns: "" } });
    expect((latest?.checkpoint.channel_values.messages as BaseMessage[]).map((message) => message.id)).toEqual([
      "h1",
      "a1",
      "h2",
    ]);
  });

  it("refuses an id that is taken and changes nothing", async () => {
    const { db, importer } = await open();
    await importer.write({
      thread: summary("t1"),
      values: { messages: MESSAGES },
      files: [{ path: "/mnt/user-data/outputs/a.txt", bytes: text("first") }],
    });
    const before = await recordsOf(db, "t1");
    await expect(
      importer.write({
        thread: { ...summary("t1"), title: "Second" },
        values: { messages: [] },
        files: [{ path: "/mnt/user-data/outputs/a.txt", bytes: text("second") }],
      }),
    ).rejects.toBeInstanceOf(ThreadIdTakenError);
    expect(await recordsOf(db, "t1")).toBe(before);
    expect((await new ThreadRepository(db).get("t1"))?.title).toBe("Imported");
    const file = await new ThreadFiles(db).read("t1", "/mnt/user-data/outputs/a.txt");
    expect(new TextDecoder().decode(file?.bytes)).toBe("first");
  });

  it("stores nothing when one record cannot be written", async () => {
    const { db, importer } = await open();
    // A function cannot be stored (DataCloneError): the transaction aborts with the files and checkpoint queued.
    const thread = { ...summary("t1"), broken: () => undefined } as unknown as ThreadSummary;
    await expect(
      importer.write({
        thread,
        values: { messages: MESSAGES },
        files: [{ path: "/mnt/user-data/outputs/a.txt", bytes: text("a") }],
      }),
    ).rejects.toThrow();
    expect(await recordsOf(db, "t1")).toBe(0);
  });

  it("refuses a bad file path before writing anything", async () => {
    const { db, importer } = await open();
    await expect(
      importer.write({
        thread: summary("t1"),
        values: { messages: MESSAGES },
        files: [{ path: "/mnt/user-data/outputs/../../etc/passwd", bytes: text("x") }],
      }),
    ).rejects.toThrow(/"\." or "\.\." segments/);
    expect(await recordsOf(db, "t1")).toBe(0);
  });

  it("replaces records an interrupted earlier write left under the id", async () => {
    const { db, importer } = await open();
    await new ThreadFiles(db).write("t1", [{ path: "/mnt/user-data/outputs/stale.txt", bytes: text("stale") }]);
    await importer.write({ thread: summary("t1"), values: { messages: MESSAGES }, files: [] });
    expect(await new ThreadFiles(db).list("t1")).toEqual([]);
  });

  it("indexes the thread for search in the same write, and not at all when the write fails", async () => {
    const { db, importer } = await open();
    const search = new ThreadSearchIndex(db);
    await importer.write({
      thread: summary("t1"),
      values: { messages: MESSAGES },
      files: [],
      searchText: "Write a report",
    });
    expect([...(await search.threadsWithPrefixes(["report"]))[0]!]).toEqual(["t1"]);
    await expect(
      importer.write({ thread: summary("t1"), values: { messages: [] }, files: [], searchText: "Other words" }),
    ).rejects.toBeInstanceOf(ThreadIdTakenError);
    expect((await search.texts(["t1"])).get("t1")).toBe("Write a report");
  });
});
