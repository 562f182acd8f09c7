import { describe, expect, it } from "vitest";
import type { ThreadEntry, WireMessage } from "../../protocol/index.ts";
import { formatCount, formatTokens, messageUsage, sumUsage, threadUsage, usageDetail } from "./message-usage.ts";

const ai = (id: string, input: number, output: number, total?: number): WireMessage => ({
  type: "ai",
  id,
  content: "answer",
  usage_metadata: { input_tokens: input, output_tokens: output, total_tokens: total ?? input + output },
});
const human = (id: string): WireMessage => ({ type: "human", id, content: "question" });
const entry = (message: WireMessage): ThreadEntry => ({ kind: "message", message });

describe("messageUsage", () => {
  it("reads an AI message's usage and derives a missing total", () => {
    expect(messageUsage(ai("a", 10, 5))).toEqual({ input_tokens: 10, output_tokens: 5, total_tokens: 15 });
    expect(messageUsage(ai("a", 10, 5, 0))).toEqual({ input_tokens: 10, output_tokens: 5, total_tokens: 15 });
  });

  it("has nothing for user messages, tool results and AI messages without usage", () => {
    expect(messageUsage(human("h"))).toBeUndefined();
    expect(messageUsage({ type: "tool", id: "t", content: "x", tool_call_id: "c" })).toBeUndefined();
    expect(messageUsage({ type: "ai", id: "a", content: "x" })).toBeUndefined();
  });

  it("counts nonsense (negative, NaN) as zero", () => {
    expect(messageUsage(ai("a", -3, Number.NaN, Number.NaN))).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      total_tokens: 0,
    });
  });
});

describe("sumUsage and threadUsage", () => {
  it("sums the AI messages and is undefined when nothing reports usage", () => {
    expect(sumUsage([human("h"), ai("a", 100, 20), ai("b", 130, 40)])).toEqual({
      input_tokens: 230,
      output_tokens: 60,
      total_tokens: 290,
    });
    expect(sumUsage([human("h"), { type: "ai", id: "a", content: "x" }])).toBeUndefined();
  });

  it("adds the live run's completed messages to the saved entries", () => {
    const entries: ThreadEntry[] = [
      entry(human("h1")),
      entry(ai("a1", 1000, 200)),
      { kind: "error", id: "e", error: { error: "unreachable", message: "down" }, at: 0 },
    ];
    expect(threadUsage(entries)?.total_tokens).toBe(1200);
    expect(threadUsage(entries, [ai("a2", 1300, 34)])).toEqual({
      input_tokens: 2300,
      output_tokens: 234,
      total_tokens: 2534,
    });
    expect(threadUsage([], [])).toBeUndefined();
  });
});

describe("formatting", () => {
  it("groups thousands and says token or tokens", () => {
    expect(formatTokens(12345)).toBe("12,345 tokens");
    expect(formatTokens(1)).toBe("1 token");
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(usageDetail({ input_tokens: 1000, output_tokens: 234, total_tokens: 1234 })).toBe("1,000 in · 234 out");
  });
});
