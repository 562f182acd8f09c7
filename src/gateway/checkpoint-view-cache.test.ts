import "fake-indexeddb/auto";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it, vi } from "vitest";
import { openFawnDb } from "../storage/fawn-db.ts";
import { IndexedDbCheckpointSaver } from "../storage/indexeddb-checkpoint-saver.ts";
import { ThreadImporter } from "../storage/thread-import-writer.ts";
import { CheckpointViewCache } from "./checkpoint-view-cache.ts";

let dbCount = 0;
async function importedThread(threadId: string, replies: string[]) {
  const db = await openFawnDb(`checkpoint-view-cache-test-${dbCount++}`);
  const saver = new IndexedDbCheckpointSaver({ db });
  const values = {
    messages: [
      new HumanMessage({ id: "h1", content: "Hello" }),
      ...replies.map((text, index) => new AIMessage({ id: `a${index}`, content: text })),
    ],
  };
  const checkpointId = await new ThreadImporter(db, saver).write({
    thread: { thread_id: threadId, title: "T", created_at: 1, updated_at: 1, status: "idle" },
    values,
    files: [],
  });
  return { saver, checkpointId, values };
}

describe("CheckpointViewCache", () => {
  it("reads a thread's newest checkpoint once and shows the same messages at the next open", async () => {
    const { saver } = await importedThread("t1", ["Hi there"]);
    const read = vi.spyOn(saver, "getTuple");
    const cache = new CheckpointViewCache(saver);
    const first = await cache.view("t1");
    expect(first?.messages.map((message) => message.content)).toEqual(["Hello", "Hi there"]);
    expect(await cache.view("t1")).toBe(first);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it("reads again once the thread has a newer checkpoint, and knows no view of a thread without one", async () => {
    const { saver, checkpointId, values } = await importedThread("t2", ["One"]);
    const cache = new CheckpointViewCache(saver);
    cache.put("t2", checkpointId, values);
    const read = vi.spyOn(saver, "getTuple");
    expect((await cache.view("t2"))?.messages).toHaveLength(2);
    expect(read).not.toHaveBeenCalled();
    // Another checkpoint id than the one kept (a version shown): read from storage.
    cache.put("t2", "some-older-checkpoint", { messages: [] });
    expect((await cache.view("t2"))?.messages).toHaveLength(2);
    expect(read).toHaveBeenCalledTimes(1);
    expect(await cache.view("no-such-thread")).toBeUndefined();
  });
});
