import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { isHiddenMessage } from "../hidden-messages.ts";
import { withSkillActivation } from "./skill-activation.ts";

describe("withSkillActivation", () => {
  it("puts the skill just before the user's latest message, so it is read as the request's context", () => {
    const messages = [
      new HumanMessage("earlier"),
      new AIMessage("ok"),
      new HumanMessage("/web-page a page"),
      new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "ls", args: {} }] }),
      new ToolMessage({ content: "x", tool_call_id: "c1" }),
    ];
    const result = withSkillActivation(messages, "<skill_activation>…</skill_activation>");
    expect(result).toHaveLength(6);
    expect(result[2]!.text).toBe("<skill_activation>…</skill_activation>");
    expect(isHiddenMessage(result[2]!)).toBe(true);
    expect(result[3]!.text).toBe("/web-page a page");
    expect(result[4]!.type).toBe("ai");
    expect(messages).toHaveLength(5);
  });
});
