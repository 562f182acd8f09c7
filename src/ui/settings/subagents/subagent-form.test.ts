import { describe, expect, it } from "vitest";
import { DEFAULT_SUBAGENT_SETTINGS, type SubagentSettings } from "../../../protocol/index.ts";
import {
  blankSubagentType,
  formatToolList,
  fromSubagentForm,
  parseToolList,
  subagentFormProblems,
  toSubagentForm,
} from "./subagent-form.ts";

describe("parseToolList", () => {
  it("splits at commas, trims, and drops blanks and repeats", () => {
    expect(parseToolList(" bash, read_file ,, bash,web_search ")).toEqual(["bash", "read_file", "web_search"]);
  });

  it("means all tools when nothing is named", () => {
    expect(parseToolList("")).toBeUndefined();
    expect(parseToolList(" , ")).toBeUndefined();
  });

  it("formats a list back as the field shows it", () => {
    expect(formatToolList(["bash", "read_file"])).toBe("bash, read_file");
    expect(formatToolList(undefined)).toBe("");
  });
});

describe("subagent form", () => {
  const settings: SubagentSettings = {
    timeoutSeconds: 600,
    maxConcurrent: 2,
    maxPerRun: 10,
    custom: [
      {
        name: "researcher",
        description: "Looks things up",
        instructions: "Search, then summarise.",
        tools: ["web_search", "web_fetch"],
        maxTurns: 20,
        timeoutSeconds: 300,
      },
      { name: "writer", description: "Writes", instructions: "Write well." },
    ],
  };

  it("round-trips settings, leaving optional fields absent when empty", () => {
    expect(fromSubagentForm(toSubagentForm(settings))).toEqual({ settings });
    expect(fromSubagentForm(toSubagentForm(DEFAULT_SUBAGENT_SETTINGS))).toEqual({
      settings: DEFAULT_SUBAGENT_SETTINGS,
    });
  });

  it("gives each row its own key", () => {
    const form = toSubagentForm(settings);
    const keys = [...form.types.map((type) => type.key), blankSubagentType().key];
    expect(new Set(keys).size).toBe(3);
  });

  it("trims what was typed", () => {
    const form = toSubagentForm(DEFAULT_SUBAGENT_SETTINGS);
    form.types.push({ ...blankSubagentType(), name: " coder ", description: " Codes ", instructions: "\nCode.\n" });
    expect(fromSubagentForm(form)).toEqual({
      settings: {
        ...DEFAULT_SUBAGENT_SETTINGS,
        custom: [{ name: "coder", description: "Codes", instructions: "Code." }],
      },
    });
  });

  it("names the field that is not a whole number", () => {
    const form = toSubagentForm(settings);
    expect(fromSubagentForm({ ...form, maxConcurrent: "two" })).toEqual({
      error: "Subagents per response must be a whole number.",
    });
    expect(fromSubagentForm({ ...form, timeoutSeconds: "" })).toEqual({
      error: "Subagent time limit must be a whole number of seconds.",
    });
    const [first, second] = form.types;
    expect(fromSubagentForm({ ...form, types: [{ ...first!, maxTurns: "2.5" }, second!] })).toEqual({
      error: "Max turns of researcher must be a whole number, or empty.",
    });
    expect(fromSubagentForm({ ...form, types: [{ ...blankSubagentType(), timeoutSeconds: "soon" }] })).toEqual({
      error: "The time limit of a new subagent type must be a whole number of seconds, or empty.",
    });
  });
});

describe("subagentFormProblems", () => {
  const type = (key: string, change: Record<string, string>) => ({
    ...blankSubagentType(),
    key,
    name: "researcher",
    description: "Looks things up",
    instructions: "Search, then report.",
    ...change,
  });

  it("ties each problem to its field's id, in the order the tab shows them", () => {
    const problems = subagentFormProblems({
      timeoutSeconds: "",
      maxConcurrent: "2.5",
      maxPerRun: "6",
      types: [
        type("a", { name: "Bad Name", description: " ", maxTurns: "many" }),
        type("b", { name: "bash", instructions: "", timeoutSeconds: "1.5" }),
        type("c", {}),
        type("d", {}),
        type("e", { name: "" }),
      ],
    });
    expect(problems.map((problem) => problem.id)).toEqual([
      "subagent-timeout",
      "subagent-max-concurrent",
      "a-name",
      "a-description",
      "a-maxTurns",
      "b-name",
      "b-instructions",
      "b-timeoutSeconds",
      "d-name",
      "e-name",
    ]);
    expect(problems[2]?.message).toMatch(/hyphen-case/);
    expect(problems[5]?.message).toBe("bash is a built-in subagent's name; choose another.");
    expect(problems[8]?.message).toBe("Another subagent type is named researcher.");
  });

  it("finds nothing wrong with the defaults, a complete type, or numbers out of range (the worker clamps them)", () => {
    expect(subagentFormProblems(toSubagentForm(DEFAULT_SUBAGENT_SETTINGS))).toEqual([]);
    expect(
      subagentFormProblems({
        timeoutSeconds: "99999",
        maxConcurrent: "9",
        maxPerRun: "1",
        types: [type("a", { maxTurns: "" })],
      }),
    ).toEqual([]);
  });
});
