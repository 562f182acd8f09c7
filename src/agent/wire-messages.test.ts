import { describe, expect, it } from "vitest";
import type { AiWireMessage } from "../protocol/index.ts";
import { fromWireMessage, toWireMessage } from "./wire-messages.ts";

describe("wire messages", () => {
  it("keep an AI turn's tool calls, reasoning, token usage and model through a round trip", () => {
    const wire: AiWireMessage = {
      type: "ai",
      id: "m1",
      content: "Done.",
      reasoning: "Thought about it.",
      tool_calls: [{ id: "c1", name: "ls", args: { path: "/mnt/user-data" } }],
      usage_metadata: { input_tokens: 10, output_tokens: 4, total_tokens: 14 },
      response_metadata: { model_name: "mock-model" },
    };
    expect(toWireMessage(fromWireMessage(wire))).toEqual(wire);
  });
});
