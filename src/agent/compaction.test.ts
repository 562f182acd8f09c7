import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, fakeModel } from "langchain";
import { describe, expect, it } from "vitest";
import { compactThread, contextTokens, threadContextState } from "./compaction.ts";
import { SUMMARY_PREFIX, summarizationMiddleware } from "./middlewares/summarization.ts";

const config = { configurable: { thread_id: "t1" } };

/** A thread of three exchanges saved by an agent with summarization (its trigger far away). */
async function threeExchanges(checkpointer: MemorySaver) {
  const model = fakeModel().respond(new AIMessage("a1")).respond(new AIMessage("a2")).respond(new AIMessage("a3"));
  const agent = createAgent({ model, tools: [], middleware: [summarizationMiddleware(model)], checkpointer });
  for (const text of ["q1", "q2", "q3"]) await agent.invoke({ messages: [new HumanMessage(text)] }, config);
  return agent;
}

describe("compactThread", () => {
  it("folds all but the latest four messages into the summary, so the next request sends less", async () => {
    const checkpointer = new MemorySaver();
    await threeExchanges(checkpointer);
    const before = await threadContextState(checkpointer, "t1");
    const summarizer = fakeModel().respond(new AIMessage("They asked q1; a1 answered it."));
    const result = await compactThread({ model: summarizer, checkpointer, threadId: "t1" });
    expect(result.folded).toBe(2);
    const after = await threadContextState(checkpointer, "t1");
    expect(after.messages).toHaveLength(6);
    expect(after.summary?.text).toBe("They asked q1; a1 answered it.");
    expect(after.summary?.through).toBe(before.messages[1]!.id);

    // The next run's model is sent the summary and the kept tail only.
    const next = fakeModel().respond(new AIMessage("a4"));
    const agent = createAgent({ model: next, tools: [], middleware: [summarizationMiddleware(next)], checkpointer });
    await agent.invoke({ messages: [new HumanMessage("q4")] }, config);
    expect(next.calls[0]!.messages.map((message) => message.text)).toEqual([
      `${SUMMARY_PREFIX}\n\nThey asked q1; a1 answered it.`,
      "q2",
      "a2",
      "q3",
      "a3",
      "q4",
    ]);
  });

  it("folds nothing in a thread of four messages or fewer", async () => {
    const checkpointer = new MemorySaver();
    const model = fakeModel().respond(new AIMessage("a1"));
    const agent = createAgent({ model, tools: [], middleware: [summarizationMiddleware(model)], checkpointer });
    await agent.invoke({ messages: [new HumanMessage("q1")] }, config);
    const summarizer = fakeModel();
    expect((await compactThread({ model: summarizer, checkpointer, threadId: "t1" })).folded).toBe(0);
    expect(summarizer.calls).toHaveLength(0);
  });
});

describe("contextTokens", () => {
  const answer = (id: string, input: number) =>
    new AIMessage({
      id,
      content: "ok",
      usage_metadata: { input_tokens: input, output_tokens: 10, total_tokens: input + 10 },
    });
  const messages = [
    new HumanMessage({ id: "u1", content: "q1" }),
    answer("a1", 1_000),
    new HumanMessage({ id: "u2", content: "q2" }),
    answer("a2", 2_000),
  ];

  it("is the last model call's reported input and answer, which count the system prompt and tools", () => {
    expect(contextTokens(messages, undefined)).toBe(2_010);
  });

  it("falls back to an estimate of the messages when the provider reports no usage", () => {
    const plain = [
      new HumanMessage({ id: "u1", content: "x".repeat(400) }),
      new AIMessage({ id: "a1", content: "ok" }),
    ];
    expect(contextTokens(plain, undefined)).toBeGreaterThan(90);
  });

  it("takes off what a /compact saved until the next model call reports again", () => {
    const compacted = { text: "s", through: "a1", compacted: { after: "a2", saved: 500 } };
    expect(contextTokens(messages, compacted)).toBe(1_510);
    const later = [...messages, new HumanMessage({ id: "u3", content: "q3" }), answer("a3", 1_600)];
    expect(contextTokens(later, compacted)).toBe(1_610);
  });
});
