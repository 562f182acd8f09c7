import { describe, expect, it } from "vitest";
import { leadAgentSystemPrompt } from "./lead-agent.ts";

describe("leadAgentSystemPrompt", () => {
  const now = new Date("2026-11-23T10:00:00Z");

  it("has DeerFlow's sections in order, the five clarification types and today's date", () => {
    const prompt = leadAgentSystemPrompt(now, { sandbox: true });
    const order = [
      "<role>",
      "<trust>",
      "<thinking_style>",
      "<clarification>",
      "<working_directory>",
      "<response_style>",
      "<reminders>",
    ];
    const positions = order.map((tag) => prompt.indexOf(tag));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const type of [
      "missing_info",
      "ambiguous_requirement",
      "approach_choice",
      "risk_confirmation",
      "suggestion",
    ]) {
      expect(prompt).toContain(`- ${type}:`);
    }
    expect(prompt).toContain("/mnt/user-data/outputs");
    expect(prompt.endsWith("Today's date is 2026-11-23.")).toBe(true);
  });

  it("leaves out the sandbox's folders and file tips when there is no sandbox", () => {
    const prompt = leadAgentSystemPrompt(now);
    expect(prompt).not.toContain("<working_directory>");
    expect(prompt).not.toContain("str_replace");
    expect(prompt).toContain("<clarification>");
  });
});
