import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import type { LeadAgent } from "../../agent/index.ts";
import type { RunEvent } from "../../protocol/index.ts";
import { RunStream } from "./run-stream.ts";

/** An agent whose stream yields `chunks`, then throws `error` when given (a Stop). */
function scriptedAgent(chunks: [string, unknown][], error?: Error): LeadAgent {
  return {
    stream: async () =>
      (async function* () {
        yield* chunks;
        if (error) throw error;
      })(),
  } as unknown as LeadAgent;
}

const config = { configurable: { thread_id: "t1" }, signal: new AbortController().signal };
const meta = { langgraph_node: "model_request", langgraph_step: 1 };

describe("RunStream", () => {
  it("turns LangGraph's output into run events: reply pieces, a tool's result whole, values, updates, custom", async () => {
    const events: RunEvent[] = [];
    const stream = new RunStream("r1", 1, (event) => events.push(event));
    const saved = [new HumanMessage({ id: "u1", content: "hi" }), new AIMessage({ id: "a1", content: "Hello" })];
    await stream.run(
      scriptedAgent([
        ["messages", [new AIMessageChunk({ id: "a1", content: "Hel" }), meta]],
        ["messages", [new ToolMessage({ id: "m2", content: "42", tool_call_id: "call-1" }), meta]],
        ["updates", { model_request: { messages: [] } }],
        ["custom", { type: "tool_progress", tool_call_id: "call-1", progress: 1 }],
        ["values", { messages: saved }],
      ]),
      { messages: [saved[0]!] },
      config,
    );

    expect(events.map((event) => event.event)).toEqual(["messages", "messages", "updates", "custom", "values"]);
    const [first, second] = events;
    expect(first).toMatchObject({ data: [{ type: "AIMessageChunk", id: "a1", content: "Hel" }, meta] });
    expect(second).toMatchObject({ data: [{ type: "tool", content: "42", tool_call_id: "call-1" }, meta] });
    expect(events.at(-1)).toMatchObject({ data: { messages: [{ id: "u1" }, { id: "a1", content: "Hello" }] } });
    expect(stream.finalMessages).toBe(saved);
    // The reply is in the saved state: nothing is left to keep after a Stop.
    expect(stream.partialReplies()).toEqual([]);
  });

  it("keeps what a Stop cut off: each reply streamed but not saved, joined", async () => {
    const stream = new RunStream("r1", 1, () => undefined);
    const stop = new Error("The run was stopped.");
    await expect(
      stream.run(
        scriptedAgent(
          [
            ["messages", [new AIMessageChunk({ id: "a2", content: "Once upon" }), meta]],
            ["messages", [new AIMessageChunk({ id: "a2", content: " a time" }), meta]],
          ],
          stop,
        ),
        null,
        config,
      ),
    ).rejects.toBe(stop);

    expect(stream.partialReplies()).toEqual([{ type: "ai", id: "a2", content: "Once upon a time" }]);
    expect(stream.finalMessages).toBeUndefined();
  });
});
