import { describe, expect, it } from "vitest";
import { DEFAULT_SUBAGENT_SETTINGS } from "../../protocol/index.ts";
import { subagentPromptSection } from "./subagent-prompt.ts";
import { resolveSubagentTypes } from "./subagent-types.ts";

const settings = {
  ...DEFAULT_SUBAGENT_SETTINGS,
  custom: [{ name: "fact-checker", description: "Checks claims against sources.", instructions: "Check." }],
};

describe("subagentPromptSection", () => {
  it("states both limits as hard ones and lists the available types", () => {
    const section = subagentPromptSection({
      types: resolveSubagentTypes(settings, ["bash", "read_file"]),
      maxConcurrent: 3,
      maxPerRun: 6,
    });
    expect(section.startsWith("<subagent_system>")).toBe(true);
    expect(section.endsWith("</subagent_system>")).toBe(true);
    expect(section).toContain("Hard limits");
    expect(section).toContain("At most 3 `task` calls per response; they run in parallel.");
    expect(section).toContain("At most 6 `task` calls in this whole run");
    expect(section).toMatch(/^- general-purpose: /m);
    expect(section).toMatch(/^- bash: /m);
    expect(section).toContain("- fact-checker: Checks claims against sources.");
  });

  it("says there is no parallelism when one task per response is allowed", () => {
    const section = subagentPromptSection({
      types: resolveSubagentTypes(DEFAULT_SUBAGENT_SETTINGS, ["bash"]),
      maxConcurrent: 1,
      maxPerRun: 2,
    });
    expect(section).toContain("At most 1 `task` call per response: subagents never run in parallel");
    expect(section).not.toContain("they run in parallel.");
  });

  it("leaves out the types the parent cannot run", () => {
    const section = subagentPromptSection({
      types: resolveSubagentTypes(DEFAULT_SUBAGENT_SETTINGS, ["web_search"]),
      maxConcurrent: 3,
      maxPerRun: 6,
    });
    expect(section).toMatch(/^- general-purpose: /m);
    expect(section).not.toMatch(/^- bash: /m);
  });

  it("tells the lead agent to work directly by default and to write self-contained prompts", () => {
    const section = subagentPromptSection({ types: [], maxConcurrent: 2, maxPerRun: 4 });
    expect(section).toContain("Do the work yourself by default.");
    expect(section).toContain("Never delegate steps that depend on each other's results");
    expect(section).toContain("nothing to poll");
    expect(section).toContain("Subagents cannot see this conversation");
    expect(section).toContain("write the final answer yourself");
  });
});
