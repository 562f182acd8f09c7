import { describe, expect, it } from "vitest";
import type { ThreadEntry } from "../../protocol/index.ts";
import { findMessageIndex } from "./find-message.ts";

const message = (type: "human" | "ai" | "tool", id: string, content: string): ThreadEntry =>
  type === "tool"
    ? { kind: "message", message: { type, id, content, tool_call_id: "c", name: "bash" } }
    : { kind: "message", message: { type, id, content } };

describe("findMessageIndex", () => {
  const entries = [
    message("human", "h1", "Plan a trip to Lisbon"),
    message("tool", "t1", "Lisbon weather: sunny"),
    message("ai", "a1", "Here is a Lisbon plan with a budget"),
    message("human", "h2", "And the BUDGET for Porto?"),
  ];

  it("points at the first message holding every word of the query, whatever the case", () => {
    expect(findMessageIndex(entries, "lisbon")).toBe(0);
    expect(findMessageIndex(entries, "Budget lisbon")).toBe(2);
    expect(findMessageIndex(entries, "porto budget")).toBe(3);
  });

  it("skips tool results and finds nothing for a blank query or missing words", () => {
    expect(findMessageIndex(entries, "sunny")).toBe(-1);
    expect(findMessageIndex(entries, "  ")).toBe(-1);
    expect(findMessageIndex(entries, "madrid")).toBe(-1);
  });
});
