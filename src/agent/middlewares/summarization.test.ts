import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { createAgent, fakeModel } from "langchain";
import { describe, expect, it } from "vitest";
import { SUMMARY_PREFIX, summarizationMiddleware } from "./summarization.ts";

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
