import { describe, expect, it } from "vitest";
import { DEFAULT_MEMORY_SETTINGS, emptyMemoryDocument, type MemoryFact } from "../../../protocol/index.ts";
import {
  filterFacts,
  formatConfidence,
  formatLearned,
  fromMemorySettingsForm,
  isMemoryEmpty,
  memoryExportText,
  memorySummaries,
  parseConfidence,
  parseMemoryFile,
  toMemorySettingsForm,
} from "./memory-view.ts";

const fact = (id: string, content: string, category = "preference"): MemoryFact => ({
  id,
  content,
  category,
  confidence: 0.9,
  createdAt: "2025-03-04T10:00:00.000Z",
  source: "manual",
});

describe("memorySummaries", () => {
  it("shows nothing for an empty memory", () => {
    const document = emptyMemoryDocument();
    expect(memorySummaries(document)).toEqual([]);
    expect(isMemoryEmpty(document)).toBe(true);
  });

  it("keeps only the summaries that say something, under their group", () => {
    const document = emptyMemoryDocument();
    document.user.topOfMind = { summary: "Shipping Fawn", updatedAt: "2025-03-04T10:00:00.000Z" };
    document.history.longTermBackground = { summary: "Writes TypeScript", updatedAt: "" };
    document.user.workContext = { summary: "   ", updatedAt: "" };
    expect(memorySummaries(document)).toEqual([
      {
        title: "User context",
        items: [{ label: "Current focus", summary: "Shipping Fawn", updatedAt: "2025-03-04T10:00:00.000Z" }],
      },
      { title: "History", items: [{ label: "Background", summary: "Writes TypeScript", updatedAt: "" }] },
    ]);
    expect(isMemoryEmpty(document)).toBe(false);
  });

  it("calls a memory with facts but no summaries not empty", () => {
    const document = emptyMemoryDocument();
    document.facts.push(fact("fact_00000001", "Likes tea"));
    expect(isMemoryEmpty(document)).toBe(false);
  });
});

describe("filterFacts", () => {
  const facts = [fact("fact_1", "Prefers dark mode"), fact("fact_2", "Works on Fawn", "context")];

  it("keeps every fact for a blank query", () => {
    expect(filterFacts(facts, "  ")).toEqual(facts);
  });

  it("matches content and category, case ignored, every word", () => {
    expect(filterFacts(facts, "DARK").map((each) => each.id)).toEqual(["fact_1"]);
    expect(filterFacts(facts, "context").map((each) => each.id)).toEqual(["fact_2"]);
    expect(filterFacts(facts, "works context").map((each) => each.id)).toEqual(["fact_2"]);
    expect(filterFacts(facts, "works dark")).toEqual([]);
  });
});

describe("formatting", () => {
  it("shows confidence as a percentage", () => {
    expect(formatConfidence(0.9)).toBe("90%");
    expect(formatConfidence(0.555)).toBe("56%");
    expect(formatConfidence(1)).toBe("100%");
    expect(formatConfidence(Number.NaN)).toBe("—");
  });

  it("shows the day a fact was learned, and a dash without one", () => {
    expect(formatLearned("2025-03-04T10:00:00.000Z", "en-US")).toBe("Mar 4, 2025");
    expect(formatLearned("", "en-US")).toBe("—");
    expect(formatLearned("not a date", "en-US")).toBe("—");
  });
});

describe("parseConfidence", () => {
  it("accepts numbers from 0 to 1 only", () => {
    expect(parseConfidence("0.9")).toBe(0.9);
    expect(parseConfidence("0")).toBe(0);
    expect(parseConfidence("1")).toBe(1);
    expect(parseConfidence("")).toBeUndefined();
    expect(parseConfidence("1.5")).toBeUndefined();
    expect(parseConfidence("-0.1")).toBeUndefined();
    expect(parseConfidence("high")).toBeUndefined();
  });
});

describe("memory settings form", () => {
  it("round-trips the settings, keeping the fields it does not show", () => {
    const base = { ...DEFAULT_MEMORY_SETTINGS, maxFacts: 42 };
    const form = { ...toMemorySettingsForm(base), injectionEnabled: false, debounceSeconds: "5" };
    expect(fromMemorySettingsForm(form, base)).toEqual({
      settings: { ...base, injectionEnabled: false, debounceSeconds: 5 },
    });
  });

  it("names the field that is not a number", () => {
    const base = DEFAULT_MEMORY_SETTINGS;
    expect(fromMemorySettingsForm({ ...toMemorySettingsForm(base), debounceSeconds: "" }, base)).toEqual({
      error: "Update delay must be a number of seconds.",
    });
    expect(fromMemorySettingsForm({ ...toMemorySettingsForm(base), maxInjectionTokens: "1.5" }, base)).toEqual({
      error: "Memory budget must be a whole number of tokens.",
    });
  });
});

describe("export and import", () => {
  it("reads back what it exports", () => {
    const document = emptyMemoryDocument();
    document.facts.push(fact("fact_00000001", "Likes tea"));
    expect(parseMemoryFile(memoryExportText(document))).toEqual({ document, factCount: 1 });
  });

  it("refuses a file that is not JSON, or not a memory document", () => {
    expect(parseMemoryFile("{ nope")).toEqual({ error: "That file is not JSON." });
    expect(parseMemoryFile("[1, 2]")).toEqual({
      error: "That file is not a memory export: it holds no memory document.",
    });
    expect(parseMemoryFile('{"facts": 3}')).toEqual({
      error: "That file is not a memory export: its facts are not a list.",
    });
  });
});
