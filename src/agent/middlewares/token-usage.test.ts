import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { createAgent, fakeModel, tool } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  addTokenUsage,
  NO_TOKEN_USAGE,
  reduceTokenUsage,
  tokenUsageMiddleware,
  usageOf,
  type TokenUsage,
} from "./token-usage.ts";

const usage = (input: number, output: number) => ({
  input_tokens: input,
  output_tokens: output,
  total_tokens: input + output,
});

describe("addTokenUsage and usageOf", () => {
  it("adds field by field, a missing side counting as zero", () => {
    expect(addTokenUsage(usage(1, 2), usage(10, 20))).toEqual(usage(11, 22));
    expect(addTokenUsage(undefined, usage(3, 4))).toEqual(usage(3, 4));
    expect(addTokenUsage(usage(3, 4), undefined)).toEqual(usage(3, 4));
  });

  it("the reducer adds a delta and takes a whole usage as the total, so state fed back in is not counted twice", () => {
    expect(reduceTokenUsage(usage(1, 2), { delta: usage(10, 20) })).toEqual(usage(11, 22));
    expect(reduceTokenUsage(usage(11, 22), usage(11, 22))).toEqual(usage(11, 22));
    expect(reduceTokenUsage(undefined, { delta: usage(1, 1) })).toEqual(usage(1, 1));
  });

  it("reads an AI message's usage, deriving a missing total", () => {
    expect(usageOf(new AIMessage({ content: "x", usage_metadata: usage(5, 6) }))).toEqual(usage(5, 6));
    const noTotal = new AIMessage({
      content: "x",
      usage_metadata: { input_tokens: 5, output_tokens: 6, total_tokens: 0 },
    });
    expect(usageOf(noTotal)).toEqual(usage(5, 6));
    expect(usageOf(new AIMessage("no usage"))).toBeUndefined();
    expect(usageOf(new HumanMessage("hi"))).toBeUndefined();
  });
});

describe("tokenUsageMiddleware", () => {
  it("sums every model call of the thread, across runs", async () => {
    const echo = tool(async () => "ok", { name: "echo", description: "Echo.", schema: z.object({}) });
    const model = fakeModel()
      .respond(
        new AIMessage({
          content: "",
          tool_calls: [{ id: "c1", name: "echo", args: {}, type: "tool_call" }],
          usage_metadata: usage(100, 10),
        }),
      )
      .respond(new AIMessage({ content: "Done.", usage_metadata: usage(150, 20) }))
      .respond(new AIMessage({ content: "Again.", usage_metadata: usage(200, 5) }));
    const seen: TokenUsage[] = [];
    const agent = createAgent({
      model,
      tools: [echo],
      middleware: [tokenUsageMiddleware({ onUsage: (counted) => seen.push(counted) })],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "t" } };
    const first = await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    expect(first.token_usage).toEqual(usage(250, 30));
    const second = await agent.invoke({ messages: [new HumanMessage("again")] }, config);
    expect(second.token_usage).toEqual(usage(450, 35));
    expect(seen).toEqual([usage(100, 10), usage(150, 20), usage(200, 5)]);
  });

  it("counts a single model call, and nothing when the model reports no usage", async () => {
    const once = createAgent({
      model: fakeModel().respond(new AIMessage({ content: "Hi.", usage_metadata: usage(7, 3) })),
      middleware: [tokenUsageMiddleware()],
    });
    expect((await once.invoke({ messages: [new HumanMessage("hello")] })).token_usage).toEqual(usage(7, 3));
    const silent = createAgent({
      model: fakeModel().respond(new AIMessage("Hi.")),
      middleware: [tokenUsageMiddleware()],
    });
    expect((await silent.invoke({ messages: [new HumanMessage("hello")] })).token_usage).toEqual(NO_TOKEN_USAGE);
  });
});
