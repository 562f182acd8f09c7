import "fake-indexeddb/auto";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { emptyCheckpoint, uuid6, type Checkpoint } from "@langchain/langgraph-checkpoint";
import { validate } from "@langchain/langgraph-checkpoint-validation";
import { deleteDB, openDB } from "idb";
import { describe, expect, it } from "vitest";
import { CHECKPOINT_STORES, DB_VERSION, openFawnDb, type FawnDb } from "./fawn-db.ts";
import { IndexedDbCheckpointSaver, type CheckpointWriteStat } from "./indexeddb-checkpoint-saver.ts";

let counter = 0;
const names = new WeakMap<IndexedDbCheckpointSaver, string>();

validate({
  checkpointerName: "IndexedDbCheckpointSaver",
  createCheckpointer() {
    const dbName = `fawn-validate-${++counter}`;
    const saver = new IndexedDbCheckpointSaver({ dbName });
    names.set(saver, dbName);
    return saver;
  },
  async destroyCheckpointer(saver) {
    await saver.close();
    const name = names.get(saver);
    if (name) await deleteDB(name);
  },
});

describe("IndexedDbCheckpointSaver (Fawn)", () => {
  const threadRange = (threadId: string) => IDBKeyRange.bound([threadId], [threadId, []]);

  async function countByThread(db: FawnDb, threadId: string): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const store of CHECKPOINT_STORES) counts[store] = await db.count(store, threadRange(threadId));
    return counts;
  }

  function step(
    saver: IndexedDbCheckpointSaver,
    config: RunnableConfig,
    values: Record<string, unknown>,
    versions: Record<string, number>,
    newVersions: Record<string, number>,
  ): Promise<RunnableConfig> {
    const checkpoint: Checkpoint = {
      ...emptyCheckpoint(),
      id: uuid6(-1),
      channel_values: values,
      channel_versions: versions,
    };
    return saver.put(config, checkpoint, { source: "loop", step: 0, parents: {} }, newVersions);
  }

  it("keeps state for a new saver instance on the same database", async () => {
    const dbName = `fawn-reopen-${++counter}`;
    const first = new IndexedDbCheckpointSaver({ dbName });
    const messages = [new HumanMessage({ content: "hi", id: "h1" }), new AIMessage({ content: "hello", id: "a1" })];
    const first1 = { messages: 1, n: 1 };
    const config = await step(first, { configurable: { thread_id: "t" } }, { messages, n: 1 }, first1, first1);
    await first.putWrites(config, [["n", 2]], "task-1", "~path");
    const latest = await step(first, config, { messages, n: 2 }, { messages: 1, n: 2 }, { n: 2 });
    const before = await first.getTuple({ configurable: { thread_id: "t" } });
    await first.close();

    const second = new IndexedDbCheckpointSaver({ dbName });
    const after = await second.getTuple({ configurable: { thread_id: "t" } });
    expect(after).toEqual(before);
    expect(after?.config).toEqual(latest);
    expect(after?.checkpoint.channel_values).toEqual({ messages, n: 2 });
    expect((after?.checkpoint.channel_values.messages as unknown[])[1]).toBeInstanceOf(AIMessage);
    const history = [];
    for await (const tuple of second.list({ configurable: { thread_id: "t" } })) history.push(tuple);
    expect(history.map((tuple) => tuple.checkpoint.channel_values.n)).toEqual([2, 1]);
    expect(history[1]?.pendingWrites).toEqual([["task-1", "n", 2]]);
    await second.close();
    await deleteDB(dbName);
  });

  it("deleteThread removes every record of the thread, in every store, and nothing else", async () => {
    const db = await openFawnDb(`fawn-delete-${++counter}`);
    const saver = new IndexedDbCheckpointSaver({ db });
    for (const threadId of ["keep", "drop"]) {
      for (const ns of ["", "child"]) {
        const messages = [new HumanMessage({ content: `hi ${threadId}`, id: `${threadId}-1` })];
        const config = await step(
          saver,
          { configurable: { thread_id: threadId, checkpoint_ns: ns } },
          { messages, x: "y" },
          { messages: 1, x: 1 },
          { messages: 1, x: 1 },
        );
        await saver.putWrites(config, [["x", "z"]], "task");
      }
    }
    const kept = await countByThread(db, "keep");
    expect(await countByThread(db, "drop")).toEqual(kept);
    expect(Object.values(kept).every((count) => count > 0)).toBe(true);

    await saver.deleteThread("drop");
    expect(Object.values(await countByThread(db, "drop"))).toEqual([0, 0, 0, 0]);
    expect(await countByThread(db, "keep")).toEqual(kept);
    expect((await saver.getTuple({ configurable: { thread_id: "keep" } }))?.checkpoint.channel_values.x).toBe("y");
    db.close();
  });

  it("writes only the channels named in newVersions", async () => {
    const stats: CheckpointWriteStat[] = [];
    const db = await openFawnDb(`fawn-channels-${++counter}`);
    const saver = new IndexedDbCheckpointSaver({ db, onWrite: (stat) => stats.push(stat) });
    const values = { a: "x".repeat(1000), b: [1, 2, 3], c: { big: "y".repeat(1000) } };
    const config = await step(
      saver,
      { configurable: { thread_id: "t" } },
      values,
      { a: 1, b: 1, c: 1 },
      {
        a: 1,
        b: 1,
        c: 1,
      },
    );
    expect(await db.count("checkpoint_blobs", threadRange("t"))).toBe(3);
    stats.length = 0;
    const next = { ...values, b: [1, 2, 3, 4] };
    const config2 = await step(saver, config, next, { a: 1, b: 2, c: 1 }, { b: 2 });
    expect(stats.filter((stat) => stat.store === "checkpoint_blobs")).toHaveLength(1);
    expect(await db.count("checkpoint_blobs", threadRange("t"))).toBe(4);
    expect(stats.reduce((sum, stat) => sum + stat.bytes, 0)).toBeLessThan(1000);
    expect((await saver.getTuple(config2))?.checkpoint.channel_values).toEqual(next);
    expect((await saver.getTuple(config))?.checkpoint.channel_values).toEqual(values);
    db.close();
  });

  it("returns exactly the message lists it was given, also after edits, removals and reorders", async () => {
    const db = await openFawnDb(`fawn-edits-${++counter}`);
    const saver = new IndexedDbCheckpointSaver({ db });
    const h = new HumanMessage({ content: "question", id: "h" });
    const a = new AIMessage({
      content: "",
      id: "a",
      tool_calls: [{ id: "call_1", name: "bash", args: { cmd: "ls" }, type: "tool_call" }],
    });
    const t = new ToolMessage({ content: "file.txt", tool_call_id: "call_1", id: "t" });
    const edited = new AIMessage({ content: "edited", id: "a" });
    const lists: unknown[] = [
      [h],
      [h, a],
      [h, a, t],
      [h, edited, t],
      [t, h],
      [h],
      [h, h],
      [],
      ["not", "messages"],
      [h, new AIMessage("no id")],
      [h, a, t],
    ];
    let config: RunnableConfig = { configurable: { thread_id: "t" } };
    const configs: RunnableConfig[] = [];
    for (const [i, messages] of lists.entries()) {
      config = await step(saver, config, { messages }, { messages: i + 1 }, { messages: i + 1 });
      configs.push(config);
      const read = (await saver.getTuple(config))?.checkpoint.channel_values.messages;
      expect(read).toEqual(messages);
    }
    for (const [i, stored] of configs.entries()) {
      const read = (await saver.getTuple(stored))?.checkpoint.channel_values.messages as unknown[];
      expect(read).toEqual(lists[i]);
      expect(read.map((item) => (item as object).constructor)).toEqual(
        (lists[i] as unknown[]).map((item) => (item as object).constructor),
      );
    }
    db.close();
  });

  it("writes bytes per step in proportion to what changed, not to the thread's length", async () => {
    let bytes = 0;
    const db = await openFawnDb(`fawn-delta-${++counter}`);
    const saver = new IndexedDbCheckpointSaver({ db, onWrite: (stat) => (bytes += stat.bytes) });
    const perStep: number[] = [];
    let messages: BaseMessage[] = [];
    let config: RunnableConfig = { configurable: { thread_id: "long" } };
    for (let i = 1; i <= 1000; i++) {
      messages = [
        ...messages,
        new HumanMessage({ content: `question ${i}`, id: `h${i}` }),
        new AIMessage({ content: `answer ${i}: ${"lorem ipsum ".repeat(10)}`, id: `a${i}` }),
      ];
      bytes = 0;
      config = await step(saver, config, { messages }, { messages: i }, { messages: i });
      perStep.push(bytes);
    }
    const at10 = perStep[9] as number;
    const at1000 = perStep[999] as number;
    expect(at1000).toBeLessThanOrEqual(2 * at10);
    const latest = await saver.getTuple({ configurable: { thread_id: "long" } });
    expect(latest?.checkpoint.channel_values.messages).toEqual(messages);
    db.close();
  }, 60_000);

  it("upgrades a version 1 database and keeps its threads", async () => {
    const dbName = `fawn-v1-${++counter}`;
    const v1 = await openDB(dbName, 1, {
      upgrade(database) {
        database.createObjectStore("threads", { keyPath: "thread_id" }).createIndex("by-updated", "updated_at");
        database.createObjectStore("entries", { keyPath: ["thread_id", "seq"] }).createIndex("by-thread", "thread_id");
        database.createObjectStore("settings", { keyPath: "key" });
      },
    });
    await v1.put("threads", { thread_id: "old", title: "Old", created_at: 1, updated_at: 1, status: "idle" });
    v1.close();
    const db = await openFawnDb(dbName);
    expect(db.version).toBe(DB_VERSION);
    expect((await db.get("threads", "old"))?.title).toBe("Old");
    const saver = new IndexedDbCheckpointSaver({ db });
    await step(saver, { configurable: { thread_id: "old" } }, { x: 1 }, { x: 1 }, { x: 1 });
    expect((await saver.getTuple({ configurable: { thread_id: "old" } }))?.checkpoint.channel_values).toEqual({ x: 1 });
    db.close();
  });

  it("reads a thread of 5,000 steps back exactly as it was saved, at its newest step and at any earlier one", async () => {
    const dbName = `fawn-long-${++counter}`;
    const saver = new IndexedDbCheckpointSaver({ dbName });
    let messages: BaseMessage[] = [];
    let config: RunnableConfig = { configurable: { thread_id: "long" } };
    const kept = new Map<number, { config: RunnableConfig; messages: BaseMessage[] }>();
    for (let i = 1; i <= 5000; i++) {
      const turn = Math.ceil(i / 2);
      messages = [
        ...messages,
        i % 2 === 1
          ? new HumanMessage({ content: `question ${turn}`, id: `h${turn}` })
          : new AIMessage({ content: `answer ${turn}`, id: `a${turn}` }),
      ];
      config = await step(saver, config, { messages }, { messages: i }, { messages: i });
      if (i === 1 || i === 777 || i === 4096 || i === 5000) kept.set(i, { config, messages });
    }
    await saver.close();

    const reopened = new IndexedDbCheckpointSaver({ dbName });
    const latest = await reopened.getTuple({ configurable: { thread_id: "long" } });
    expect(latest?.checkpoint.channel_values.messages).toEqual(messages);
    for (const [, saved] of kept) {
      const read = (await reopened.getTuple(saved.config))?.checkpoint.channel_values.messages as BaseMessage[];
      expect(read).toEqual(saved.messages);
      expect(read.map((message) => message.constructor)).toEqual(saved.messages.map((message) => message.constructor));
    }
    await reopened.close();
    await deleteDB(dbName);
  }, 120_000);

  it("saves a message whose content or tool calls were changed in place as changed", async () => {
    const db = await openFawnDb(`fawn-in-place-${++counter}`);
    const saver = new IndexedDbCheckpointSaver({ db });
    const question = new HumanMessage({ content: "question", id: "h" });
    const reply = new AIMessage({ content: "draft", id: "a" });
    let config = await step(
      saver,
      { configurable: { thread_id: "t" } },
      { messages: [question, reply] },
      { messages: 1 },
      { messages: 1 },
    );
    reply.content = "final";
    config = await step(saver, config, { messages: [question, reply] }, { messages: 2 }, { messages: 2 });
    expect((await saver.getTuple(config))?.checkpoint.channel_values.messages).toEqual([
      new HumanMessage({ content: "question", id: "h" }),
      new AIMessage({ content: "final", id: "a" }),
    ]);
    reply.tool_calls = [{ id: "call_1", name: "bash", args: { cmd: "ls" }, type: "tool_call" }];
    config = await step(saver, config, { messages: [question, reply] }, { messages: 3 }, { messages: 3 });
    const read = (await saver.getTuple(config))?.checkpoint.channel_values.messages as AIMessage[];
    expect(read[1]?.tool_calls).toEqual(reply.tool_calls);
    db.close();
  });

  it("continues a thread it read back without writing its earlier messages again", async () => {
    const dbName = `fawn-continue-${++counter}`;
    const first = new IndexedDbCheckpointSaver({ dbName });
    const messages = Array.from({ length: 20 }, (_, i) => new HumanMessage({ content: `message ${i}`, id: `m${i}` }));
    await step(first, { configurable: { thread_id: "t" } }, { messages }, { messages: 1 }, { messages: 1 });
    await first.close();

    const stats: CheckpointWriteStat[] = [];
    const second = new IndexedDbCheckpointSaver({ dbName, onWrite: (stat) => stats.push(stat) });
    const tuple = await second.getTuple({ configurable: { thread_id: "t" } });
    const read = tuple?.checkpoint.channel_values.messages as BaseMessage[];
    const next = [...read, new AIMessage({ content: "reply", id: "r" })];
    const config = await step(second, tuple?.config ?? {}, { messages: next }, { messages: 2 }, { messages: 2 });
    expect(stats.filter((stat) => stat.store === "checkpoint_messages")).toHaveLength(1);
    expect((await second.getTuple(config))?.checkpoint.channel_values.messages).toEqual([
      ...messages,
      new AIMessage({ content: "reply", id: "r" }),
    ]);
    await second.close();
    await deleteDB(dbName);
  });

  it("after deleting a thread, a new thread under its id reads back its own messages", async () => {
    const db = await openFawnDb(`fawn-reuse-${++counter}`);
    const saver = new IndexedDbCheckpointSaver({ db });
    const save = async (prefix: string) => {
      let config: RunnableConfig = { configurable: { thread_id: "t" } };
      let messages: BaseMessage[] = [];
      for (let i = 1; i <= 5; i++) {
        messages = [...messages, new HumanMessage({ content: `${prefix} ${i}`, id: `${prefix}${i}` })];
        config = await step(saver, config, { messages }, { messages: i }, { messages: i });
      }
      return messages;
    };
    await save("old");
    await saver.deleteThread("t");
    const messages = await save("new");
    expect((await saver.getTuple({ configurable: { thread_id: "t" } }))?.checkpoint.channel_values.messages).toEqual(
      messages,
    );
    db.close();
  });
});
