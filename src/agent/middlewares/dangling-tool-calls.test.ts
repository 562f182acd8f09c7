import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { DANGLING_TOOL_RESULT, withPlaceholderResults } from "./dangling-tool-calls.ts";

const call = (id: string, name = "bash") => ({ id, name, args: {}, type: "tool_call" as const });
const result = (id: string, content = `result of ${id}`) => new ToolMessage({ content, tool_call_id: id });

/** A compact picture of a history: "human", "ai", "tool:<id>" or "placeholder:<id>". */
function shape(messages: readonly BaseMessage[]): string[] {
  return messages.map((message) => {
    if (!ToolMessage.isInstance(message)) return message.type;
    return `${message.content === DANGLING_TOOL_RESULT ? "placeholder" : "tool"}:${message.tool_call_id}`;
  });
}

describe("withPlaceholderResults (DeerFlow's dangling-tool-call rules)", () => {
  it("leaves a history without calls, or with every call answered, as it is", () => {
    const plain = [new HumanMessage("hi"), new AIMessage("hello")];
    expect(withPlaceholderResults(plain)).toEqual(plain);
    const answered = [new AIMessage({ content: "", tool_calls: [call("a")] }), result("a"), new AIMessage("done")];
    expect(withPlaceholderResults(answered)).toEqual(answered);
  });

  it("answers an unanswered call right after its AI message, before the next user message", () => {
    const patched = withPlaceholderResults([
      new HumanMessage("go"),
      new AIMessage({ content: "", tool_calls: [call("a"), call("b", "ls")] }),
      result("a"),
      new HumanMessage("next"),
    ]);
    expect(shape(patched)).toEqual(["human", "ai", "tool:a", "placeholder:b", "human"]);
    expect(patched[3]).toMatchObject({ name: "ls", status: "error" });
  });

  it("gives each of several dangling calls its own placeholder", () => {
    const patched = withPlaceholderResults([new AIMessage({ content: "", tool_calls: [call("a"), call("b")] })]);
    expect(shape(patched)).toEqual(["ai", "placeholder:a", "placeholder:b"]);
  });

  it("moves results separated by a user message back next to their call, in call order", () => {
    const patched = withPlaceholderResults([
      new AIMessage({ content: "", tool_calls: [call("call_1"), call("call_2")] }),
      new HumanMessage("meanwhile"),
      result("call_2"),
      result("call_1"),
    ]);
    expect(shape(patched)).toEqual(["ai", "tool:call_1", "tool:call_2", "human"]);
  });

  it("drops results that answer no call: leading ones, unknown ids, duplicates", () => {
    const patched = withPlaceholderResults([
      result("stray"),
      new HumanMessage("go"),
      new AIMessage({ content: "", tool_calls: [call("a")] }),
      result("a"),
      result("a", "again"),
      result("unknown"),
    ]);
    expect(shape(patched)).toEqual(["human", "ai", "tool:a"]);
  });

  it("pairs an id reused in a later turn with its own turn", () => {
    const patched = withPlaceholderResults([
      new AIMessage({ content: "", tool_calls: [call("x")] }),
      result("x"),
      new AIMessage("first done"),
      new HumanMessage("again"),
      new AIMessage({ content: "", tool_calls: [call("x")] }),
    ]);
    expect(shape(patched)).toEqual(["ai", "tool:x", "ai", "human", "ai", "placeholder:x"]);
  });
});
