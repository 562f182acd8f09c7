import { describe, expect, it } from "vitest";
import { searchableText } from "./thread-search-service.ts";

describe("searchableText", () => {
  it("keeps what the user wrote and what the assistant answered, one message a line", () => {
    expect(
      searchableText([
        { type: "system", id: "s", content: "You are Fawn." },
        { type: "human", id: "h", content: [{ type: "text", text: "Plan a trip" }] },
        {
          type: "ai",
          id: "a",
          content: "<think>they want Lisbon</think>Lisbon in May.",
          reasoning: "hidden reasoning",
          tool_calls: [{ id: "c", name: "bash", args: { command: "ls" } }],
        },
        { type: "tool", id: "t", tool_call_id: "c", content: "noisy tool output" },
        { type: "ai", id: "b", content: "" },
      ]),
    ).toBe("Plan a trip\nLisbon in May.");
  });
});
