import "fake-indexeddb/auto";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { emptyCheckpoint, JsonPlusSerializer, uuid6 } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { CANCELLED_ON_IMPORT } from "../protocol/index.ts";
import { BackupStore } from "./backup-store.ts";
import { openFawnDb } from "./fawn-db.ts";
import { closeImportedThread } from "./imported-thread.ts";
import { IndexedDbCheckpointSaver } from "./indexeddb-checkpoint-saver.ts";
import { ThreadRepository } from "./thread-repository.ts";

let dbCount = 0;
const serde = new JsonPlusSerializer();

const call = (id: string) => ({ id, name: "bash", args: { command: `echo ${id}` }, type: "tool_call" as const });

/** A checkpoint holding `messages`, as a run would leave it: with a route to the tools still to take. */
async function step(
  saver: IndexedDbCheckpointSaver,
  threadId: string,
  parent: string | undefined,
  messages: BaseMessage[],
): Promise<string> {
  const checkpoint = { ...emptyCheckpoint(), id: uuid6(-1) };
  checkpoint.channel_values = { messages, "branch:to:tools": null };
  checkpoint.channel_versions = { messages: saver.getNextVersion(undefined), "branch:to:tools": 1 };
  const config = { configurable: { thread_id: threadId, checkpoint_ns: "", ...(parent && { checkpoint_id: parent }) } };
  await saver.put(config, checkpoint, { source: "loop", step: 1, parents: {} }, checkpoint.channel_versions);
  return checkpoint.id;
}

describe("closeImportedThread", () => {
  it("answers the calls each shown step left open as cancelled, in a new checkpoint with nothing pending", async () => {
    const db = await openFawnDb(`imported-thread-test-${dbCount++}`);
    const saver = new IndexedDbCheckpointSaver({ db });
    const thread = await new ThreadRepository(db).create({ title: "Crafted" });
    const id = thread.thread_id;
    const human = new HumanMessage({ id: "h1", content: "go" });
    const first = new AIMessage({ id: "a1", content: "", tool_calls: [call("c1")] });
    const one = await step(saver, id, undefined, [human, first]);
    const second = new AIMessage({ id: "a2", content: "", tool_calls: [call("c2"), call("c3")] });
    const answered = new ToolMessage({ id: "t3", content: "done", tool_call_id: "c3", name: "bash" });
    const two = await step(saver, id, one, [human, first, second, answered]);
    const now = Date.now();
    const run = { thread_id: id, created_at: now, updated_at: now, kind: "send" as const };
    const records = (await new BackupStore(db).readThread(id))!.records;
    const closed = await closeImportedThread(
      {
        ...records,
        runs: [
          { ...run, run_id: "r1", status: "success", end: one },
          { ...run, run_id: "r2", status: "running", end: two, imported: false },
        ],
      },
      serde,
    );

    expect(closed.checkpoints.every((record) => record.imported === true)).toBe(true);
    expect(closed.runs.map(({ status, imported }) => ({ status, imported }))).toEqual([
      { status: "success", imported: true },
      { status: "interrupted", imported: true },
    ]);
    // Each version's last step is closed in a child of its own; the runs and the thread move there.
    const [endOne, endTwo] = closed.runs.map((each) => each.end as string);
    const child = (end: string) => closed.checkpoints.find((record) => record.checkpoint_id === end);
    expect(child(endOne!)?.parent_checkpoint_id).toBe(one);
    expect(child(endTwo!)?.parent_checkpoint_id).toBe(two);
    expect(Object.keys(child(endTwo!)?.channel_versions ?? {})).toEqual(["messages"]);
    const shown = closed.thread.head ?? endTwo;
    expect(shown).toBe(endTwo);

    // Stored, the saver reads the closed step back: the open call answered, the answered one kept, nothing to run.
    const other = await openFawnDb(`imported-thread-test-${dbCount++}`);
    await new BackupStore(other).write({
      threads: [{ records: closed, files: [] }],
      skills: [],
      settings: [],
      store_items: [],
      mcp_servers: [],
    });
    const reader = new IndexedDbCheckpointSaver({ db: other });
    const tuple = await reader.getTuple({ configurable: { thread_id: id, checkpoint_ns: "", checkpoint_id: shown } });
    const messages = tuple?.checkpoint.channel_values.messages as BaseMessage[];
    expect(messages.map((message) => [message.type, (message as ToolMessage).tool_call_id])).toEqual([
      ["human", undefined],
      ["ai", undefined],
      ["ai", undefined],
      ["tool", "c3"],
      ["tool", "c2"],
    ]);
    expect(messages.at(-1)).toMatchObject({ content: CANCELLED_ON_IMPORT, status: "error", name: "bash" });
    expect(await reader.isImported(id, shown!)).toBe(true);
    const firstVersion = await reader.getTuple({
      configurable: { thread_id: id, checkpoint_ns: "", checkpoint_id: endOne },
    });
    expect((firstVersion?.checkpoint.channel_values.messages as BaseMessage[]).at(-1)).toMatchObject({
      tool_call_id: "c1",
      content: CANCELLED_ON_IMPORT,
    });
  });

  it("leaves a thread that ends on an answer as it is, its records only marked as written elsewhere", async () => {
    const db = await openFawnDb(`imported-thread-test-${dbCount++}`);
    const saver = new IndexedDbCheckpointSaver({ db });
    const thread = await new ThreadRepository(db).create({ title: "Plain" });
    const head = await step(saver, thread.thread_id, undefined, [
      new HumanMessage({ id: "h1", content: "hi" }),
      new AIMessage({ id: "a1", content: "hello" }),
    ]);
    const records = (await new BackupStore(db).readThread(thread.thread_id))!.records;
    const closed = await closeImportedThread(records, serde);
    expect(closed.checkpoints.map((record) => record.checkpoint_id)).toEqual([head]);
    expect(closed.checkpoint_blobs).toEqual(records.checkpoint_blobs);
    expect(closed.thread).toEqual(records.thread);
  });
});
