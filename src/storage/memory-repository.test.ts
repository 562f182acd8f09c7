import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { emptyMemoryDocument, type MemoryDocument, type MemoryFact } from "../protocol/index.ts";
import { openFawnDb, type FawnDb } from "./fawn-db.ts";
import { isMemoryDocumentShape, MEMORY_DOCUMENT_KEY, MemoryRepository } from "./memory-repository.ts";

let dbCount = 0;
async function database(): Promise<FawnDb> {
  return openFawnDb(`memory-repository-test-${dbCount++}`);
}

function fact(id: string, content: string): MemoryFact {
  return { id, content, category: "context", confidence: 0.8, createdAt: "2025-01-01T00:00:00Z", source: "t1" };
}

function withFact(doc: MemoryDocument, added: MemoryFact): MemoryDocument {
  return { ...doc, facts: [...doc.facts, added], lastUpdated: "2025-05-01T00:00:00Z" };
}

describe("MemoryRepository", () => {
  it("reads an empty memory when none is stored", async () => {
    expect(await new MemoryRepository(await database()).read()).toEqual(emptyMemoryDocument());
  });

  it("keeps a replaced document in the settings store", async () => {
    const db = await database();
    const memory = new MemoryRepository(db);
    const doc = withFact(emptyMemoryDocument(), fact("fact_00000001", "User likes tea"));
    await memory.replace(doc);
    expect(await memory.read()).toEqual(doc);
    expect((await db.get("settings", MEMORY_DOCUMENT_KEY))?.value).toEqual(doc);
    expect(await new MemoryRepository(db).read()).toEqual(doc);
  });

  it("reads an unreadable stored document as an empty memory instead of failing", async () => {
    const db = await database();
    const memory = new MemoryRepository(db);
    for (const value of ["garbage", 42, null, { version: "1.0" }, { ...emptyMemoryDocument(), facts: [{ id: 1 }] }]) {
      await db.put("settings", { key: MEMORY_DOCUMENT_KEY, value });
      expect(await memory.read()).toEqual(emptyMemoryDocument());
    }
  });

  it("uses the parser it was given, and an empty memory when that parser throws", async () => {
    const db = await database();
    await db.put("settings", { key: MEMORY_DOCUMENT_KEY, value: { legacy: true } });
    const upgraded = { ...emptyMemoryDocument(), lastUpdated: "upgraded" };
    expect(await new MemoryRepository(db, { parse: () => upgraded }).read()).toEqual(upgraded);
    const throwing = new MemoryRepository(db, {
      parse: () => {
        throw new Error("bad");
      },
    });
    expect(await throwing.read()).toEqual(emptyMemoryDocument());
  });

  it("updates the stored document and returns the result", async () => {
    const memory = new MemoryRepository(await database());
    const next = await memory.update((doc) => withFact(doc, fact("fact_00000001", "A")));
    expect(next.facts.map((f) => f.content)).toEqual(["A"]);
    expect(await memory.read()).toEqual(next);
  });

  it("loses no change when updates race", async () => {
    const db = await database();
    const first = new MemoryRepository(db);
    const second = new MemoryRepository(db);
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        (index % 2 ? first : second).update((doc) => withFact(doc, fact(`fact_${index}`, `Fact ${index}`))),
      ),
    );
    expect((await first.read()).facts.map((f) => f.id).sort()).toEqual(
      Array.from({ length: 10 }, (_, index) => `fact_${index}`).sort(),
    );
  });

  it("writes nothing when the change throws, and rethrows", async () => {
    const memory = new MemoryRepository(await database());
    const stored = await memory.update((doc) => withFact(doc, fact("fact_00000001", "A")));
    await expect(
      memory.update(() => {
        throw new Error("duplicate");
      }),
    ).rejects.toThrow("duplicate");
    expect(await memory.read()).toEqual(stored);
  });
});

describe("isMemoryDocumentShape", () => {
  it("accepts a document and refuses anything missing a section or with a malformed fact", () => {
    const doc = withFact(emptyMemoryDocument(), fact("f1", "A"));
    expect(isMemoryDocumentShape(doc)).toBe(true);
    expect(isMemoryDocumentShape({ ...doc, version: "2.0" })).toBe(false);
    expect(isMemoryDocumentShape({ ...doc, history: { recentMonths: { summary: "", updatedAt: "" } } })).toBe(false);
    expect(isMemoryDocumentShape({ ...doc, facts: [{ ...fact("f1", "A"), confidence: "high" }] })).toBe(false);
    expect(isMemoryDocumentShape({ ...doc, facts: [{ ...fact("f1", "A"), sourceError: 3 }] })).toBe(false);
  });
});
