// Tests for merging an imported memory document into the stored one: no duplicate facts, unique ids, summaries kept.
import { describe, expect, it } from "vitest";
import { emptyMemoryDocument, type MemoryDocument, type MemoryFact } from "../protocol/index.ts";
import { mergeMemoryDocuments } from "./memory-merge.ts";

const fact = (id: string, content: string): MemoryFact => ({
  id,
  content,
  category: "context",
  confidence: 0.9,
  createdAt: "2025-01-01T00:00:00Z",
  source: "manual",
});

const withFacts = (...facts: MemoryFact[]): MemoryDocument => ({ ...emptyMemoryDocument(), facts });

describe("mergeMemoryDocuments", () => {
  const now = new Date("2025-06-01T00:00:00Z");

  it("adds facts whose content is new, whatever their case and spacing, and renames a taken id", () => {
    const merged = mergeMemoryDocuments(
      withFacts(fact("fact_1", "Likes tea")),
      withFacts(fact("fact_1", "Keeps bees"), fact("fact_2", "  likes TEA ")),
      now,
    );
    expect(merged?.added).toBe(1);
    expect(merged?.value.facts.map((item) => item.content)).toEqual(["Likes tea", "Keeps bees"]);
    expect(new Set(merged?.value.facts.map((item) => item.id)).size).toBe(2);
  });

  it("fills empty summaries only, and changes nothing when there is nothing new", () => {
    const mine = emptyMemoryDocument();
    mine.user.workContext = { summary: "Beekeeper", updatedAt: "x" };
    const theirs = emptyMemoryDocument();
    theirs.user.workContext = { summary: "Farmer", updatedAt: "y" };
    theirs.user.topOfMind = { summary: "Spring honey", updatedAt: "y" };
    const merged = mergeMemoryDocuments(mine, theirs, now);
    expect(merged?.value.user.workContext.summary).toBe("Beekeeper");
    expect(merged?.value.user.topOfMind.summary).toBe("Spring honey");
    expect(mergeMemoryDocuments(merged!.value, theirs, now)).toBeUndefined();
  });
});
