// Forking a thread from an older checkpoint must not change what the newer checkpoints read.
import "fake-indexeddb/auto";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { IndexedDbCheckpointSaver } from "./indexeddb-checkpoint-saver.ts";

const State = Annotation.Root({ note: Annotation<string> });

function graph(checkpointer: IndexedDbCheckpointSaver) {
  return new StateGraph(State)
    .addNode("echo", (state) => ({ note: `${state.note}!` }))
    .addEdge(START, "echo")
    .addEdge("echo", END)
    .compile({ checkpointer });
}

describe("IndexedDbCheckpointSaver with forks", () => {
  it("keeps each branch's values when a run forks from an older checkpoint", async () => {
    const saver = new IndexedDbCheckpointSaver({ dbName: "checkpoint-forks-test" });
    const app = graph(saver);
    const thread = { configurable: { thread_id: "t" } };
    await app.invoke({ note: "first" }, thread);
    const afterFirst = await app.getState(thread);
    await app.invoke({ note: "second" }, thread);
    const afterSecond = await app.getState(thread);
    expect(afterSecond.values.note).toBe("second!");

    // Fork: continue from the checkpoint after the first run with other input.
    await app.invoke({ note: "fork" }, afterFirst.config);
    const forked = await app.getState(thread);
    expect(forked.values.note).toBe("fork!");

    // The original branch still reads its own values.
    const original = await app.getState(afterSecond.config);
    expect(original.values.note).toBe("second!");
  });
});
