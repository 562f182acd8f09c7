import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { isHiddenMessage } from "../hidden-messages.ts";
import { withSkillActivation } from "./skill-activation.ts";

describe("withSkillActivation", () => {
  it("puts the skill right after the user's latest message, before this run's tool calls", () => {
    const messages = [
      new HumanMessage("earlier"),
      new AIMessage("ok"),
      new HumanMessage("/web-page a page"),
      new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "ls", args: {} }] }),
      new ToolMessage({ content: "x", tool_call_id: "c1" }),
    ];
    const result = withSkillActivation(messages, "<skill_activation>…</skill_activation>");
    expect(result).toHaveLength(6);
    expect(result[3]!.text).toBe("<skill_activation>…</skill_activation>");
    expect(isHiddenMessage(result[3]!)).toBe(true);
    expect(result[2]!.text).toBe("/web-page a page");
    expect(messages).toHaveLength(5);
  });
});
