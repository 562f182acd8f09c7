import { describe, expect, it } from "vitest";
import { DEFAULT_SUBAGENT_SETTINGS, type CustomSubagentType, type SubagentSettings } from "../../protocol/index.ts";
import {
  parseSubagentSettings,
  resolveSubagentTypes,
  SUBAGENT_WORKER_RULES,
  type SubagentType,
} from "./subagent-types.ts";

const SANDBOX = ["bash", "ls", "read_file", "write_file", "str_replace", "glob", "grep"];
const PARENT = [...SANDBOX, "web_search", "web_fetch", "task", "ask_clarification", "present_files"];

function byName(types: SubagentType[], name: string): SubagentType {
  const type = types.find((candidate) => candidate.name === name);
  if (!type) throw new Error(`no type ${name}`);
  return type;
}

const reviewer: CustomSubagentType = {
  name: "code-reviewer",
  description: "Reviews a change for bugs.",
  instructions: "You review code.",
};

describe("resolveSubagentTypes", () => {
  it("gives general-purpose every parent tool except task, ask_clarification and present_files", () => {
    const type = byName(resolveSubagentTypes(DEFAULT_SUBAGENT_SETTINGS, PARENT), "general-purpose");
    expect(type.toolNames).toEqual([...SANDBOX, "web_search", "web_fetch"]);
    expect(type).toMatchObject({ maxTurns: 150, timeoutMs: 900_000, available: true });
  });

  it("gives bash only the shell and file-editing tools, and offers it only when the parent has bash", () => {
    const types = resolveSubagentTypes(DEFAULT_SUBAGENT_SETTINGS, PARENT);
    expect(byName(types, "bash")).toMatchObject({
      toolNames: ["bash", "ls", "read_file", "write_file", "str_replace"],
      maxTurns: 60,
      available: true,
    });
    const webOnly = resolveSubagentTypes(DEFAULT_SUBAGENT_SETTINGS, ["web_search", "task"]);
    expect(byName(webOnly, "bash")).toMatchObject({ toolNames: [], available: false });
    expect(byName(webOnly, "general-purpose")).toMatchObject({ toolNames: ["web_search"], available: true });
  });

  it("tells every type to finish the task alone and report a self-contained result", () => {
    for (const type of resolveSubagentTypes({ ...DEFAULT_SUBAGENT_SETTINGS, custom: [reviewer] }, PARENT)) {
      expect(type.instructions).toContain(SUBAGENT_WORKER_RULES);
    }
    expect(SUBAGENT_WORKER_RULES).toMatch(/cannot ask questions/);
    expect(SUBAGENT_WORKER_RULES).toMatch(/self-contained/);
  });

  it("gives a custom type its own instructions and limits, or the defaults", () => {
    const settings: SubagentSettings = {
      ...DEFAULT_SUBAGENT_SETTINGS,
      timeoutSeconds: 600,
      custom: [reviewer, { ...reviewer, name: "quick-check", maxTurns: 5, timeoutSeconds: 30 }],
    };
    const types = resolveSubagentTypes(settings, PARENT);
    expect(types.map((type) => type.name)).toEqual(["general-purpose", "bash", "code-reviewer", "quick-check"]);
    expect(byName(types, "code-reviewer")).toMatchObject({
      description: "Reviews a change for bugs.",
      maxTurns: 50,
      timeoutMs: 600_000,
      available: true,
    });
    expect(byName(types, "code-reviewer").instructions.startsWith("You review code.")).toBe(true);
    expect(byName(types, "quick-check")).toMatchObject({ maxTurns: 5, timeoutMs: 30_000 });
    expect(byName(types, "general-purpose").timeoutMs).toBe(600_000);
  });

  it("keeps only the listed tools a custom type may have and the parent has", () => {
    const settings = {
      ...DEFAULT_SUBAGENT_SETTINGS,
      custom: [{ ...reviewer, tools: ["read_file", "grep", "task", "present_files", "python_repl"] }],
    };
    expect(byName(resolveSubagentTypes(settings, PARENT), "code-reviewer").toolNames).toEqual(["read_file", "grep"]);
    expect(
      byName(resolveSubagentTypes({ ...DEFAULT_SUBAGENT_SETTINGS, custom: [reviewer] }, PARENT), "code-reviewer")
        .toolNames,
    ).toEqual([...SANDBOX, "web_search", "web_fetch"]);
  });
});

describe("parseSubagentSettings", () => {
  it("fills in the defaults", () => {
    expect(parseSubagentSettings({})).toEqual({ ok: true, value: DEFAULT_SUBAGENT_SETTINGS });
    expect(parseSubagentSettings(undefined)).toEqual({ ok: true, value: DEFAULT_SUBAGENT_SETTINGS });
  });

  it("clamps numbers to their ranges instead of refusing them", () => {
    const parsed = parseSubagentSettings({
      timeoutSeconds: 5,
      maxConcurrent: 9,
      maxPerRun: 0,
      custom: [{ ...reviewer, maxTurns: 900, timeoutSeconds: 99_999 }],
    });
    expect(parsed).toEqual({
      ok: true,
      value: {
        timeoutSeconds: 10,
        maxConcurrent: 4,
        maxPerRun: 1,
        custom: [{ ...reviewer, maxTurns: 500, timeoutSeconds: 7200 }],
      },
    });
    const high = parseSubagentSettings({ timeoutSeconds: 10_000, maxConcurrent: 0, maxPerRun: 80.6 });
    expect(high.ok && high.value).toMatchObject({ timeoutSeconds: 7200, maxConcurrent: 1, maxPerRun: 50 });
  });

  it("trims text and drops repeated tool names", () => {
    const parsed = parseSubagentSettings({
      custom: [{ name: " code-reviewer ", description: " Reviews. ", instructions: " Review. ", tools: ["ls", "ls"] }],
    });
    expect(parsed.ok && parsed.value.custom).toEqual([
      { name: "code-reviewer", description: "Reviews.", instructions: "Review.", tools: ["ls"] },
    ]);
  });

  it("refuses a name that is not hyphen-case or too long, naming the subagent", () => {
    const bad = parseSubagentSettings({ custom: [{ ...reviewer, name: "Code_Reviewer" }] });
    expect(bad).toMatchObject({ ok: false });
    expect(!bad.ok && bad.message).toBe(
      "Custom subagent 'Code_Reviewer': The name must be hyphen-case: lowercase letters and digits joined by single hyphens.",
    );
    const long = parseSubagentSettings({ custom: [{ ...reviewer, name: "a".repeat(65) }] });
    expect(!long.ok && long.message).toBe("Custom subagent 1: The name is longer than 64 characters.");
    expect(parseSubagentSettings({ custom: [{ ...reviewer, name: "a".repeat(64) }] }).ok).toBe(true);
  });

  it("refuses a built-in name and a name used twice", () => {
    const builtIn = parseSubagentSettings({ custom: [{ ...reviewer, name: "bash" }] });
    expect(!builtIn.ok && builtIn.message).toBe(
      "Custom subagent 'bash': The name 'bash' belongs to a built-in subagent; choose another.",
    );
    const twice = parseSubagentSettings({ custom: [reviewer, { ...reviewer, description: "Another." }] });
    expect(!twice.ok && twice.message).toBe(
      "Custom subagent 'code-reviewer': The name 'code-reviewer' is used by another custom subagent.",
    );
  });

  it("refuses an empty or too long description and instructions", () => {
    const empty = parseSubagentSettings({ custom: [{ ...reviewer, description: "  ", instructions: "" }] });
    expect(!empty.ok && empty.problems).toEqual([
      "Custom subagent 'code-reviewer': The description is empty.",
      "Custom subagent 'code-reviewer': The instructions are empty.",
    ]);
    const long = parseSubagentSettings({
      custom: [{ ...reviewer, description: "d".repeat(1025), instructions: "i".repeat(20_001) }],
    });
    expect(!long.ok && long.problems).toEqual([
      "Custom subagent 'code-reviewer': The description is longer than 1024 characters.",
      "Custom subagent 'code-reviewer': The instructions are longer than 20000 characters.",
    ]);
    const limits = parseSubagentSettings({
      custom: [{ ...reviewer, description: "d".repeat(1024), instructions: "i".repeat(20_000) }],
    });
    expect(limits.ok).toBe(true);
  });

  it("refuses values of the wrong kind", () => {
    expect(parseSubagentSettings("fast")).toMatchObject({ ok: false, message: "Subagent settings must be an object." });
    const parsed = parseSubagentSettings({ maxConcurrent: "three", custom: [{ ...reviewer, tools: "ls" }] });
    expect(!parsed.ok && parsed.problems).toEqual([
      "Subagents per response must be a number.",
      "Custom subagent 'code-reviewer': The tools must be a list of tool names.",
    ]);
  });
});
