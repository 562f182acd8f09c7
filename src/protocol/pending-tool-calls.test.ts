import { describe, expect, it } from "vitest";
import { unansweredToolCalls } from "./pending-tool-calls.ts";

const call = (id: string) => ({ id, name: "bash" });

describe("unansweredToolCalls", () => {
  it("lists the last assistant message's calls that no result after it answers", () => {
    const messages = [
      { type: "human" },
      { type: "ai", tool_calls: [call("a"), call("b"), call("c")] },
      { type: "tool", tool_call_id: "b" },
    ];
    expect(unansweredToolCalls(messages)).toEqual([call("a"), call("c")]);
  });

  it("lists nothing once every call is answered, or when the thread goes on after them", () => {
    expect(
      unansweredToolCalls([
        { type: "ai", tool_calls: [call("a")] },
        { type: "tool", tool_call_id: "a" },
      ]),
    ).toEqual([]);
    expect(unansweredToolCalls([{ type: "ai", tool_calls: [call("a")] }, { type: "human" }])).toEqual([]);
    expect(unansweredToolCalls([{ type: "ai" }])).toEqual([]);
    expect(unansweredToolCalls([])).toEqual([]);
  });

  it("skips a call without an id: nothing can answer it", () => {
    expect(unansweredToolCalls([{ type: "ai", tool_calls: [{ name: "bash" }, call("b")] }])).toEqual([call("b")]);
  });
});
