import { describe, expect, it } from "vitest";
import { emptyMemoryDocument, type MemoryDocument, type MemoryFact } from "../../protocol/index.ts";
import { MemoryError } from "./memory-document.ts";
import {
  applyMemoryUpdate,
  mentionsUpload,
  parseMemoryUpdateResponse,
  withoutUploadSentences,
  type MemoryFactProposal,
  type MemoryUpdate,
} from "./memory-update.ts";

const NOW = new Date("2025-05-01T10:00:00.000Z");
const OPTIONS = { threadId: "thread-1", now: NOW, threshold: 0.7, maxFacts: 100 };

function fact(id: string, content: string, confidence: number, createdAt = "2025-01-01T00:00:00.000Z"): MemoryFact {
  return { id, content, category: "context", confidence, createdAt, source: "old-thread" };
}

function withFacts(...facts: MemoryFact[]): MemoryDocument {
  return { ...emptyMemoryDocument(), facts };
}

function update(newFacts: Partial<MemoryFactProposal>[], factsToRemove: string[] = []): MemoryUpdate {
  return {
    user: {},
    history: {},
    newFacts: newFacts.map((f) => ({ content: "", category: "context", confidence: 0.9, ...f })),
    factsToRemove,
  };
}

const contents = (doc: MemoryDocument) => doc.facts.map((f) => f.content);

describe("parseMemoryUpdateResponse", () => {
  const body = {
    user: { workContext: { summary: "Builds data pipelines.", shouldUpdate: true } },
    history: { recentMonths: { summary: "", shouldUpdate: false } },
    newFacts: [{ content: "User prefers uv", category: "preference", confidence: 0.9 }],
    factsToRemove: ["fact_00000001"],
  };
  const expected: MemoryUpdate = {
    user: { workContext: { summary: "Builds data pipelines.", shouldUpdate: true } },
    history: { recentMonths: { summary: "", shouldUpdate: false } },
    newFacts: [{ content: "User prefers uv", category: "preference", confidence: 0.9 }],
    factsToRemove: ["fact_00000001"],
  };

  it("reads a bare JSON answer", () => {
    expect(parseMemoryUpdateResponse(JSON.stringify(body))).toEqual(expected);
  });

  it("reads JSON in a Markdown fence, after reasoning and among prose", () => {
    const fenced = `<think>The user said {so} much.</think>Here it is:\n\`\`\`json\n${JSON.stringify(body, null, 2)}\n\`\`\`\nDone.`;
    expect(parseMemoryUpdateResponse(fenced)).toEqual(expected);
    expect(parseMemoryUpdateResponse(`Sure {not json}. ${JSON.stringify(body)} trailing {"x": 1}`)).toEqual(expected);
  });

  it("keeps braces inside strings from ending the object", () => {
    const tricky = { ...body, newFacts: [{ content: "User writes `{}` in Go }", confidence: 0.8 }] };
    expect(parseMemoryUpdateResponse(JSON.stringify(tricky)).newFacts[0]?.content).toBe("User writes `{}` in Go }");
  });

  it("fills what the answer leaves out", () => {
    expect(parseMemoryUpdateResponse('{"newFacts": []}')).toEqual({
      user: {},
      history: {},
      newFacts: [],
      factsToRemove: [],
    });
  });

  it("skips malformed facts and defaults a missing category and confidence", () => {
    const parsed = parseMemoryUpdateResponse(
      JSON.stringify({
        newFacts: [
          { content: "  User lives in Oslo  " },
          { content: "", confidence: 0.9 },
          { content: "   ", confidence: 0.9 },
          { content: 42 },
          "User likes jazz",
          { content: "User uses Vim", confidence: "0.8", category: "  " },
          { content: "Too sure", confidence: 1.5 },
          { content: "Not sure", confidence: "high" },
          { content: "User is a vet", confidence: 0.95, sourceError: "  " },
          { content: "Use tabs", category: "correction", confidence: 0.9, sourceError: " used spaces " },
        ],
      }),
    );
    expect(parsed.newFacts).toEqual([
      { content: "User lives in Oslo", category: "context", confidence: 0.5 },
      { content: "User uses Vim", category: "context", confidence: 0.8 },
      { content: "User is a vet", category: "context", confidence: 0.95 },
      { content: "Use tabs", category: "correction", confidence: 0.9, sourceError: "used spaces" },
    ]);
  });

  it("reads removals as ids or objects with an id, ignoring anything else", () => {
    const parsed = parseMemoryUpdateResponse(
      JSON.stringify({ newFacts: [], factsToRemove: ["fact_a", { id: "fact_b", reason: "stale" }, 3, "", { x: 1 }] }),
    );
    expect(parsed.factsToRemove).toEqual(["fact_a", "fact_b"]);
  });

  it("drops the removals when a proposed fact was malformed, so a botched replacement loses nothing", () => {
    const parsed = parseMemoryUpdateResponse(
      JSON.stringify({
        newFacts: [{ content: "User moved to Bergen", confidence: "very" }],
        factsToRemove: ["fact_oslo"],
      }),
    );
    expect(parsed).toMatchObject({ newFacts: [], factsToRemove: [] });
  });

  it("keeps only well-formed summaries", () => {
    const parsed = parseMemoryUpdateResponse(
      JSON.stringify({
        user: {
          workContext: { summary: 3, shouldUpdate: true },
          topOfMind: { summary: "Moving.", shouldUpdate: "yes" },
        },
        history: "none",
        newFacts: [],
      }),
    );
    expect(parsed.user).toEqual({ topOfMind: { summary: "Moving.", shouldUpdate: false } });
    expect(parsed.history).toEqual({});
  });

  it("throws a MemoryError when there is no JSON object", () => {
    for (const text of [
      "",
      "I could not decide.",
      "[1, 2]",
      '{"newFacts": [',
      '<think>{"newFacts": []}</think>',
      '{"a": 1}',
    ]) {
      expect(() => parseMemoryUpdateResponse(text), text).toThrow(MemoryError);
    }
  });
});

describe("upload mentions", () => {
  it("recognises upload events, not files in general", () => {
    expect(mentionsUpload("User uploaded a CSV file of sales")).toBe(true);
    expect(mentionsUpload("The user attached the file report.pdf")).toBe(true);
    expect(mentionsUpload("Discussed the file upload flow")).toBe(true);
    expect(mentionsUpload("Read /mnt/user-data/uploads/a.pdf")).toBe(true);
    expect(mentionsUpload("User works with CSV files")).toBe(false);
    expect(mentionsUpload("User prefers PDF export")).toBe(false);
  });

  it("removes only the sentences about uploads from a summary", () => {
    expect(withoutUploadSentences("Works at Acme. Uploaded two files for review. Likes Go!")).toBe(
      "Works at Acme. Likes Go!",
    );
    expect(withoutUploadSentences("Works at Acme.")).toBe("Works at Acme.");
    expect(withoutUploadSentences("User uploaded the files")).toBe("");
    expect(withoutUploadSentences("用户在北京工作。用户上传了一个文件。喜欢Go")).toBe("用户在北京工作。喜欢Go");
  });
});

describe("applyMemoryUpdate", () => {
  it("skips a duplicate of an existing fact and applies removals", () => {
    const doc = withFacts(fact("fact_keep", "User likes Python", 0.9), fact("fact_remove", "User likes Java", 0.8));
    const next = applyMemoryUpdate(
      doc,
      update([{ content: "User likes Python", confidence: 0.95 }], ["fact_remove"]),
      OPTIONS,
    );
    expect(next.facts).toEqual([doc.facts[0]]);
  });

  it("ignores whitespace-only facts and stores same-batch duplicates once, with new ids and the thread as source", () => {
    const next = applyMemoryUpdate(
      emptyMemoryDocument(),
      update([{ content: "   " }, { content: "User prefers dark mode" }, { content: "User prefers dark mode" }]),
      OPTIONS,
    );
    expect(next.facts).toHaveLength(1);
    expect(next.facts[0]).toMatchObject({
      content: "User prefers dark mode",
      source: "thread-1",
      createdAt: NOW.toISOString(),
    });
    expect(next.facts[0]?.id).toMatch(/^fact_[0-9a-f]{8}$/);
  });

  it("deduplicates ignoring case and surrounding spaces", () => {
    const doc = withFacts(fact("f1", "User prefers Python", 0.9));
    expect(contents(applyMemoryUpdate(doc, update([{ content: "  user prefers python " }]), OPTIONS))).toEqual([
      "User prefers Python",
    ]);
    expect(contents(applyMemoryUpdate(doc, update([{ content: "User prefers Go" }]), OPTIONS))).toEqual([
      "User prefers Python",
      "User prefers Go",
    ]);
  });

  it("keeps new facts from the threshold up, then caps by confidence", () => {
    const doc = withFacts(fact("f1", "User likes Python", 0.95), fact("f2", "User prefers dark mode", 0.8));
    const next = applyMemoryUpdate(
      doc,
      update([
        { content: "User prefers dark mode", confidence: 0.9 },
        { content: "User uses uv", confidence: 0.85 },
        { content: "noisy logs", confidence: 0.6 },
      ]),
      { ...OPTIONS, maxFacts: 2 },
    );
    expect(contents(next)).toEqual(["User likes Python", "User uses uv"]);
    expect(
      contents(applyMemoryUpdate(emptyMemoryDocument(), update([{ content: "edge", confidence: 0.7 }]), OPTIONS)),
    ).toEqual(["edge"]);
  });

  it("keeps the older fact when the cap has to choose between equals", () => {
    const doc = withFacts(fact("f1", "Old", 0.8));
    expect(
      contents(applyMemoryUpdate(doc, update([{ content: "New", confidence: 0.8 }]), { ...OPTIONS, maxFacts: 1 })),
    ).toEqual(["Old"]);
  });

  it("replaces a summary only when asked to, and stamps it", () => {
    const doc = emptyMemoryDocument();
    doc.user.workContext = { summary: "Old work.", updatedAt: "2025-01-01T00:00:00.000Z" };
    doc.user.personalContext = { summary: "Likes tea.", updatedAt: "2025-01-01T00:00:00.000Z" };
    const next = applyMemoryUpdate(
      doc,
      {
        user: {
          workContext: { summary: "  Data engineer at Acme.  ", shouldUpdate: true },
          personalContext: { summary: "Ignored.", shouldUpdate: false },
        },
        history: { longTermBackground: { summary: "Studied physics.", shouldUpdate: true } },
        newFacts: [],
        factsToRemove: [],
      },
      OPTIONS,
    );
    expect(next.user.workContext).toEqual({ summary: "Data engineer at Acme.", updatedAt: NOW.toISOString() });
    expect(next.user.personalContext).toEqual(doc.user.personalContext);
    expect(next.history.longTermBackground.summary).toBe("Studied physics.");
    expect(next.history.recentMonths).toEqual({ summary: "", updatedAt: "" });
    expect(next.lastUpdated).toBe(NOW.toISOString());
  });

  it("leaves upload events out of summaries and facts", () => {
    const next = applyMemoryUpdate(
      emptyMemoryDocument(),
      {
        user: {
          topOfMind: { summary: "Planning a trip to Lisbon. Uploaded the file itinerary.pdf.", shouldUpdate: true },
        },
        history: {},
        newFacts: [
          { content: "User uploaded a file named budget.xlsx", category: "context", confidence: 0.9 },
          { content: "User works with CSV files", category: "context", confidence: 0.9 },
        ],
        factsToRemove: [],
      },
      OPTIONS,
    );
    expect(next.user.topOfMind.summary).toBe("Planning a trip to Lisbon.");
    expect(contents(next)).toEqual(["User works with CSV files"]);
  });

  it("keeps a correction's sourceError and does not change the document it was given", () => {
    const doc = withFacts(fact("f1", "A", 0.9));
    const next = applyMemoryUpdate(
      doc,
      update([{ content: "Use pnpm", category: "correction", confidence: 0.95, sourceError: "suggested npm" }]),
      OPTIONS,
    );
    expect(next.facts[1]).toMatchObject({ category: "correction", sourceError: "suggested npm" });
    expect(doc.facts).toHaveLength(1);
  });
});
