import { describe, expect, it } from "vitest";
import { emptyMemoryDocument, type MemoryDocument, type MemoryFact } from "../../protocol/index.ts";
import {
  addFact,
  capFacts,
  deleteFact,
  factContentKey,
  MemoryError,
  newFactId,
  parseMemoryDocument,
  updateFact,
} from "./memory-document.ts";

const NOW = new Date("2025-05-01T10:00:00.000Z");
const LATER = new Date("2025-05-02T10:00:00.000Z");

function fact(id: string, content: string, confidence: number, extra: Partial<MemoryFact> = {}): MemoryFact {
  return {
    id,
    content,
    category: "context",
    confidence,
    createdAt: "2025-01-01T00:00:00.000Z",
    source: "t1",
    ...extra,
  };
}

function withFacts(...facts: MemoryFact[]): MemoryDocument {
  return { ...emptyMemoryDocument(), facts };
}

function parseError(value: unknown): string {
  const result = parseMemoryDocument(value);
  if (result.ok) throw new Error("expected a refusal");
  return result.message;
}

describe("newFactId", () => {
  it("is fact_ and 8 hex digits, different each time", () => {
    const ids = new Set(Array.from({ length: 50 }, newFactId));
    for (const id of ids) expect(id).toMatch(/^fact_[0-9a-f]{8}$/);
    expect(ids.size).toBe(50);
  });
});

describe("factContentKey", () => {
  it("ignores case and surrounding spaces", () => {
    expect(factContentKey("  User prefers Python ")).toBe(factContentKey("user prefers python"));
    expect(factContentKey("Straße")).toBe(factContentKey("STRASSE"));
    expect(factContentKey("User prefers Go")).not.toBe(factContentKey("User prefers Python"));
  });
});

describe("parseMemoryDocument", () => {
  it("accepts DeerFlow's export, dropping fields Fawn does not keep and filling missing sections", () => {
    const exported = {
      version: "2.0",
      revision: 7,
      lastUpdated: "2025-04-01T00:00:00Z",
      user: { workContext: { summary: "Data engineer at Acme.", updatedAt: "2025-04-01T00:00:00Z" } },
      facts: [
        {
          id: "fact_0a1b2c3d",
          content: "User prefers uv over pip",
          category: "preference",
          confidence: 0.9,
          createdAt: "2025-04-01T00:00:00Z",
          source: "thread-1",
          topics: ["python"],
          status: "active",
          scope: { kind: "user" },
        },
      ],
    };
    const result = parseMemoryDocument(exported);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.version).toBe("1.0");
    expect(result.value.user.workContext.summary).toBe("Data engineer at Acme.");
    expect(result.value.user.topOfMind).toEqual({ summary: "", updatedAt: "" });
    expect(result.value.history.longTermBackground).toEqual({ summary: "", updatedAt: "" });
    expect(result.value.facts).toEqual([
      {
        id: "fact_0a1b2c3d",
        content: "User prefers uv over pip",
        category: "preference",
        confidence: 0.9,
        createdAt: "2025-04-01T00:00:00Z",
        source: "thread-1",
      },
    ]);
    expect("revision" in result.value).toBe(false);
  });

  it("accepts version 1.0 and an empty object as an empty memory", () => {
    expect(parseMemoryDocument({})).toEqual({ ok: true, value: emptyMemoryDocument() });
    const own = withFacts(fact("fact_00000001", "User likes tea", 0.8, { sourceError: "suggested coffee" }));
    expect(parseMemoryDocument(own)).toEqual({ ok: true, value: own });
  });

  it("gives a fact without category or confidence DeerFlow's defaults", () => {
    const result = parseMemoryDocument({ facts: [{ id: "f1", content: "User lives in Oslo" }] });
    expect(result.ok && result.value.facts[0]).toMatchObject({ category: "context", confidence: 0.5 });
  });

  it("names the first problem with its path", () => {
    const facts = [0.1, 0.2, 0.3].map((confidence, index) => fact(`f${index}`, "x", confidence));
    expect(parseError({ facts: [...facts, fact("f3", "y", 1.5)] })).toBe("facts[3].confidence must be between 0 and 1");
    expect(parseError({ facts: [fact("f0", "x", -0.1)] })).toBe("facts[0].confidence must be between 0 and 1");
    expect(parseError({ facts: [{ id: "f0", content: "x", confidence: "high" }] })).toBe(
      "facts[0].confidence must be a number between 0 and 1",
    );
    expect(parseError({ facts: [fact("f0", "   ", 0.5)] })).toBe("facts[0].content must not be empty");
    expect(parseError({ facts: [{ id: "f0", confidence: 0.5 }] })).toBe("facts[0].content must be a string");
    expect(parseError({ facts: [fact("f0", "a", 0.5), fact("f0", "b", 0.5)] })).toBe("facts[1].id repeats facts[0].id");
    expect(parseError({ version: "3.0" })).toBe('version must be "1.0" or "2.0"');
    expect(parseError({ user: { workContext: { summary: 5 } } })).toBe("user.workContext.summary must be a string");
    expect(parseError("memory")).toBe("memory must be an object");
    expect(parseError({ facts: {} })).toBe("facts must be a list");
  });

  it("refuses more than 1000 facts", () => {
    const facts = Array.from({ length: 1001 }, (_, index) => fact(`f${index}`, `fact ${index}`, 0.5));
    expect(parseError({ facts })).toBe("facts must hold at most 1000 facts");
    expect(parseMemoryDocument({ facts: facts.slice(0, 1000) }).ok).toBe(true);
  });
});

describe("capFacts", () => {
  it("drops the least confident, keeping the older of equals and the survivors' order", () => {
    const facts = [
      fact("a", "a", 0.6, { createdAt: "2025-01-02T00:00:00Z" }),
      fact("b", "b", 0.9),
      fact("c", "c", 0.6, { createdAt: "2025-01-01T00:00:00Z" }),
      fact("d", "d", 0.7),
    ];
    expect(capFacts(facts, 3).map((f) => f.id)).toEqual(["b", "c", "d"]);
    expect(capFacts(facts, 10)).toEqual(facts);
  });
});

describe("addFact", () => {
  it("adds a trimmed fact with DeerFlow's defaults, a new id, the time and source manual", () => {
    const doc = addFact(emptyMemoryDocument(), { content: "  User likes hiking  " }, { now: NOW, maxFacts: 100 });
    expect(doc.facts).toHaveLength(1);
    expect(doc.facts[0]).toMatchObject({
      content: "User likes hiking",
      category: "context",
      confidence: 0.5,
      createdAt: NOW.toISOString(),
      source: "manual",
    });
    expect(doc.facts[0]?.id).toMatch(/^fact_[0-9a-f]{8}$/);
    expect(doc.lastUpdated).toBe(NOW.toISOString());
  });

  it("does not change the document it was given", () => {
    const before = emptyMemoryDocument();
    addFact(before, { content: "User likes hiking" }, { now: NOW, maxFacts: 100 });
    expect(before).toEqual(emptyMemoryDocument());
  });

  it("rejects empty content and a confidence outside 0–1", () => {
    const add = (input: Parameters<typeof addFact>[1]) =>
      addFact(emptyMemoryDocument(), input, { now: NOW, maxFacts: 100 });
    expect(() => add({ content: "" })).toThrow(MemoryError);
    expect(() => add({ content: " \n\t " })).toThrow("A fact needs some text.");
    for (const confidence of [-0.01, 1.01, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => add({ content: "User likes tea", confidence })).toThrow(MemoryError);
    }
    expect(add({ content: "User likes tea", confidence: 1 }).facts[0]?.confidence).toBe(1);
    expect(add({ content: "User likes tea", confidence: 0 }).facts[0]?.confidence).toBe(0);
  });

  it("rejects content the memory already holds, whatever its case and spaces", () => {
    const doc = withFacts(fact("f1", "User prefers Python", 0.9));
    expect(() => addFact(doc, { content: "  user prefers PYTHON " }, { now: NOW, maxFacts: 100 })).toThrow(
      "Memory already holds this fact.",
    );
    expect(addFact(doc, { content: "User prefers Go" }, { now: NOW, maxFacts: 100 }).facts).toHaveLength(2);
  });

  it("rejects a fact the cap would drop at once, and evicts the least confident for one it keeps", () => {
    const doc = withFacts(fact("f1", "A", 0.9), fact("f2", "B", 0.8));
    expect(() => addFact(doc, { content: "C", confidence: 0.5 }, { now: NOW, maxFacts: 2 })).toThrow(MemoryError);
    const added = addFact(doc, { content: "C", confidence: 0.85 }, { now: NOW, maxFacts: 2 });
    expect(added.facts.map((f) => f.content)).toEqual(["A", "C"]);
  });

  it("keeps a category, a source and a correction's sourceError when given", () => {
    const doc = addFact(
      emptyMemoryDocument(),
      { content: "Use pnpm", category: "correction", confidence: 0.95, sourceError: " suggested npm " },
      { now: NOW, maxFacts: 100, source: "thread-9" },
    );
    expect(doc.facts[0]).toMatchObject({ category: "correction", source: "thread-9", sourceError: "suggested npm" });
  });
});

describe("updateFact", () => {
  const doc = withFacts(
    fact("f1", "User likes tea", 0.7, { category: "preference" }),
    fact("f2", "User likes jazz", 0.6),
  );

  it("changes only the fields given and stamps the document", () => {
    const updated = updateFact(doc, "f1", { confidence: 0.9 }, LATER);
    expect(updated.facts[0]).toEqual({ ...doc.facts[0], confidence: 0.9 });
    expect(updated.facts[1]).toBe(doc.facts[1]);
    expect(updated.lastUpdated).toBe(LATER.toISOString());
    const renamed = updateFact(doc, "f1", { content: " User likes green tea ", category: "knowledge" }, LATER);
    expect(renamed.facts[0]).toMatchObject({ content: "User likes green tea", category: "knowledge", confidence: 0.7 });
    expect(doc.facts[0]?.content).toBe("User likes tea");
  });

  it("rejects an unknown id, empty content, a bad confidence and another fact's content", () => {
    expect(() => updateFact(doc, "nope", { confidence: 0.9 }, LATER)).toThrow(MemoryError);
    expect(() => updateFact(doc, "f1", { content: "  " }, LATER)).toThrow(MemoryError);
    expect(() => updateFact(doc, "f1", { confidence: 2 }, LATER)).toThrow(MemoryError);
    expect(() => updateFact(doc, "f1", { content: "USER LIKES JAZZ" }, LATER)).toThrow(
      "Memory already holds this fact.",
    );
    expect(updateFact(doc, "f1", { content: "user likes TEA" }, LATER).facts[0]?.content).toBe("user likes TEA");
  });
});

describe("deleteFact", () => {
  it("removes the fact, and rejects an unknown id", () => {
    const doc = withFacts(fact("f1", "A", 0.7), fact("f2", "B", 0.6));
    const deleted = deleteFact(doc, "f1", LATER);
    expect(deleted.facts.map((f) => f.id)).toEqual(["f2"]);
    expect(deleted.lastUpdated).toBe(LATER.toISOString());
    expect(() => deleteFact(doc, "f3", LATER)).toThrow(MemoryError);
  });
});
