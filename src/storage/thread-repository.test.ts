import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import type { ThreadEntry } from "../protocol/index.ts";
import { emptyCheckpoint } from "@langchain/langgraph-checkpoint";
import { openFawnDb, THREAD_STORES, keyPrefixRange } from "./fawn-db.ts";
import { IndexedDbCheckpointSaver } from "./indexeddb-checkpoint-saver.ts";
import { ThreadFiles } from "./thread-files.ts";
import { ThreadRepository } from "./thread-repository.ts";

let dbCount = 0;
async function repository(): Promise<ThreadRepository> {
  return new ThreadRepository(await openFawnDb(`thread-repository-test-${dbCount++}`));
}

function human(id: string, content: string): ThreadEntry {
  return { kind: "message", message: { type: "human", id, content } };
}

describe("ThreadRepository", () => {
  it("lists threads most recently active first", async () => {
    const threads = await repository();
    const first = await threads.create();
    const second = await threads.create();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await threads.append(first.thread_id, [human("m1", "hi")]);
    const listed = await threads.list();
    expect(listed.map((thread) => thread.thread_id)).toEqual([first.thread_id, second.thread_id]);
  });

  it("lists pinned threads first, each group by recent activity", async () => {
    const threads = await repository();
    const old = await threads.create({ title: "old" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const recent = await threads.create({ title: "recent" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const newest = await threads.create({ title: "newest" });
    await threads.update(old.thread_id, { pinned: true });
    expect((await threads.list()).map((thread) => thread.title)).toEqual(["old", "newest", "recent"]);
    expect(recent.pinned).toBeUndefined();
    expect(newest.title).toBe("newest");
  });

  it("keeps entries in the order they were appended, across appends", async () => {
    const threads = await repository();
    const { thread_id } = await threads.create();
    await threads.append(thread_id, [human("a", "one"), human("b", "two")]);
    await threads.append(thread_id, [human("c", "three")], { title: "one" });
    const detail = await threads.detail(thread_id);
    expect(detail?.title).toBe("one");
    expect(detail?.entries.map((entry) => (entry.kind === "message" ? entry.message.id : ""))).toEqual(["a", "b", "c"]);
  });

  it("decides the patch from the thread as stored when given a function", async () => {
    const threads = await repository();
    const { thread_id } = await threads.create({ title: "draft" });
    const retitle = (thread: { title: string }) => (thread.title === "draft" ? { title: "generated" } : {});
    await threads.append(thread_id, [], retitle);
    expect((await threads.get(thread_id))?.title).toBe("generated");
    await threads.update(thread_id, { title: "mine" });
    await threads.append(thread_id, [], retitle);
    expect((await threads.get(thread_id))?.title).toBe("mine");
  });

  it("writes nothing when appending to a thread that does not exist", async () => {
    const threads = await repository();
    await expect(threads.append("missing", [human("x", "lost")])).rejects.toThrow(/No thread/);
    expect(await threads.entries("missing")).toEqual([]);
  });

  it("deletes a thread with all of its entries and leaves other threads alone", async () => {
    const threads = await repository();
    const doomed = await threads.create();
    const kept = await threads.create();
    await threads.append(doomed.thread_id, [human("a", "bye")]);
    await threads.append(kept.thread_id, [human("b", "stay")]);
    await threads.delete(doomed.thread_id);
    expect(await threads.get(doomed.thread_id)).toBeUndefined();
    expect(await threads.entries(doomed.thread_id)).toEqual([]);
    expect(await threads.entries(kept.thread_id)).toHaveLength(1);
  });

  it("creates a thread with a chosen id and refuses the same id twice", async () => {
    const threads = await repository();
    await threads.create({ threadId: "chosen", title: "Mine" });
    expect(await threads.get("chosen")).toMatchObject({ thread_id: "chosen", title: "Mine", status: "idle" });
    await expect(threads.create({ threadId: "chosen" })).rejects.toThrow();
  });

  it("settles threads a closed page left busy, keeping their history", async () => {
    const threads = await repository();
    const { thread_id } = await threads.create();
    await threads.append(thread_id, [human("a", "half way")], { status: "busy" });
    await threads.settleInterrupted();
    expect((await threads.get(thread_id))?.status).toBe("idle");
    expect(await threads.entries(thread_id)).toHaveLength(1);
  });

  it("deletes the thread's checkpoints and files too, in every store", async () => {
    const db = await openFawnDb(`thread-repository-test-${dbCount++}`);
    const threads = new ThreadRepository(db);
    const doomed = await threads.create();
    const kept = await threads.create();
    const files = new ThreadFiles(db);
    const saver = new IndexedDbCheckpointSaver({ db });
    for (const { thread_id } of [doomed, kept]) {
      await threads.append(thread_id, [human(`m-${thread_id}`, "hi")]);
      await files.write(thread_id, [{ path: "/mnt/user-data/outputs/a.md", bytes: new TextEncoder().encode("# a") }]);
      await saver.put(
        { configurable: { thread_id, checkpoint_ns: "" } },
        emptyCheckpoint(),
        { source: "input", step: -1, parents: {} },
        {},
      );
    }
    const count = async (threadId: string) => {
      let total = 0;
      for (const name of THREAD_STORES) {
        total += await db.count(name, name === "threads" ? threadId : keyPrefixRange(threadId));
      }
      return total;
    };
    const keptBefore = await count(kept.thread_id);
    expect(await count(doomed.thread_id)).toBeGreaterThanOrEqual(5);
    await threads.delete(doomed.thread_id);
    expect(await count(doomed.thread_id)).toBe(0);
    expect(await count(kept.thread_id)).toBe(keptBefore);
  });

  it("reads many threads' histories at once, saying which have checkpoints and leaving out unknown ids", async () => {
    const threads = await repository();
    const old = await threads.create({ threadId: "old" });
    await threads.create({ threadId: "empty" });
    await threads.append(old.thread_id, [human("m1", "hi")]);
    const histories = await threads.histories(["old", "empty", "missing"]);
    expect([...histories.keys()]).toEqual(["old", "empty"]);
    expect(histories.get("old")).toEqual({ entries: [human("m1", "hi")], checkpointed: false });
    expect(histories.get("empty")).toEqual({ entries: [], checkpointed: false });
  });
});
