import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { DANGLING_TOOL_RESULT, withPlaceholderResults } from "./dangling-tool-calls.ts";

const call = (id: string, name = "bash") => ({ id, name, args: {}, type: "tool_call" as const });

describe("withPlaceholderResults", () => {
  it("inserts a result right after the message whose calls have none, keeping answered ones", () => {
    const messages = [
      new HumanMessage("go"),
      new AIMessage({ content: "", tool_calls: [call("a"), call("b", "ls")] }),
      new ToolMessage({ content: "done", tool_call_id: "a" }),
      new HumanMessage("next"),
    ];
    const patched = withPlaceholderResults(messages);
    expect(patched.map((message) => message.type)).toEqual(["human", "ai", "tool", "tool", "human"]);
    const placeholder = patched[2] as ToolMessage;
    expect(placeholder).toMatchObject({ tool_call_id: "b", name: "ls", content: DANGLING_TOOL_RESULT });
    expect((patched[3] as ToolMessage).tool_call_id).toBe("a");
  });

  it("leaves a complete history as it is", () => {
    const messages = [
      new AIMessage({ content: "", tool_calls: [call("a")] }),
      new ToolMessage({ content: "ok", tool_call_id: "a" }),
      new AIMessage("done"),
    ];
    expect(withPlaceholderResults(messages)).toEqual(messages);
  });
});
