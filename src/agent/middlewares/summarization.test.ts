import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { countTokensApproximately, createAgent, fakeModel } from "langchain";
import { describe, expect, it } from "vitest";
import { keptTailStart, needsSummary, SUMMARY_PREFIX, summarizationMiddleware } from "./summarization.ts";

describe("summarizationMiddleware", () => {
  it("sends the model the summary instead of older messages, from structured content without its thinking", async () => {
    const model = fakeModel()
      .respond(new AIMessage({ content: [{ type: "text", text: "<think>hmm</think>The user plans a trip." }] }))
      .respond(new AIMessage("Lisbon it is."));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [summarizationMiddleware(model, { triggerMessages: 3, keepMessages: 1 })],
    });
    const result = await agent.invoke({
      messages: [new HumanMessage("Plan a trip"), new AIMessage("Where to?"), new HumanMessage("Lisbon")],
    });
    expect(result.summary?.text).toBe("The user plans a trip.");
    const sent = model.calls.at(-1)!.messages;
    expect(sent.map((message) => message.text)).toEqual([`${SUMMARY_PREFIX}\n\nThe user plans a trip.`, "Lisbon"]);
    expect(result.messages).toHaveLength(4);
  });
});

describe("summarization triggers and what is kept", () => {
  const conversation = () => [
    new HumanMessage({ id: "h1", content: "Plan a trip to Lisbon for four days in May." }),
    new AIMessage({ id: "a1", content: "Where will you stay, and what do you like?" }),
    new HumanMessage({ id: "h2", content: "Near the river; food and museums." }),
    new AIMessage({ id: "a2", content: "Then Alfama and Belém are for you." }),
    new HumanMessage({ id: "h3", content: "Book the museums?" }),
  ];

  it("does not summarize below every trigger, and does at any one of them", async () => {
    const quiet = fakeModel().respond(new AIMessage("Sure."));
    await createAgent({
      model: quiet,
      tools: [],
      middleware: [summarizationMiddleware(quiet, { triggerMessages: 6, triggerTokens: 10_000 })],
    }).invoke({ messages: conversation() });
    expect(quiet.calls).toHaveLength(1);

    const byTokens = fakeModel().respond(new AIMessage("Trip summary.")).respond(new AIMessage("Sure."));
    const result = await createAgent({
      model: byTokens,
      tools: [],
      middleware: [summarizationMiddleware(byTokens, { triggerMessages: 1_000, triggerTokens: 20, keepMessages: 1 })],
    }).invoke({ messages: conversation() });
    expect(result.summary).toEqual({ text: "Trip summary.", through: "a2" });
  });

  it("keeps the latest messages within a token budget", () => {
    const messages = conversation();
    const lastTwo = countTokensApproximately([messages[3]!]) + countTokensApproximately([messages[4]!]);
    expect(keptTailStart(messages, 10, lastTwo)).toBe(3);
    expect(keptTailStart(messages, 10, lastTwo - 1)).toBe(4);
    // At least the last message is kept, however small the budget.
    expect(keptTailStart(messages, 10, 1)).toBe(4);
    expect(keptTailStart(messages, 2)).toBe(3);
    expect(needsSummary(messages, { triggerMessages: 5, triggerTokens: Number.POSITIVE_INFINITY })).toBe(true);
    expect(needsSummary(messages, { triggerMessages: 6, triggerTokens: Number.POSITIVE_INFINITY })).toBe(false);
  });
});
