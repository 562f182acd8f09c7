// The memory document's rules: validating an imported document, and the user's own edits of its facts.
import { z } from "zod";
import type { MemoryDocument, MemoryFact, MemoryFactInput, MemorySection } from "../../protocol/index.ts";
import type { UserFacing } from "../../shared/user-error.ts";

/** A memory operation refused, with a message for the user. */
export class MemoryError extends Error implements UserFacing {
  override name = "MemoryError";
  readonly userFacing = "invalid";
}

/** Facts one document may hold at most, whatever the settings say (DeerFlow's import limit). */
export const MAX_DOCUMENT_FACTS = 1000;

/** Category of a fact that names none (DeerFlow's default). */
export const DEFAULT_FACT_CATEGORY = "context";

/** Confidence of a fact that gives none (DeerFlow's default). */
export const DEFAULT_FACT_CONFIDENCE = 0.5;

/** `source` of a fact the user added by hand. */
export const MANUAL_FACT_SOURCE = "manual";

/** A new fact id: `fact_` and 8 random hex digits. */
export function newFactId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return `fact_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * The key two facts with the same content share: trimmed, Unicode-normalized and case-folded (upper then lower
 * case, so "ß" and "SS" meet, as Python's casefold makes them).
 */
export function factContentKey(content: string): string {
  return content.trim().normalize("NFKC").toUpperCase().toLowerCase();
}

/** True for a finite confidence from 0 to 1. */
export function isValidConfidence(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 1;
}

/**
 * `facts` cut to `maxFacts`, the least confident dropped first (between equals, the newer one); the survivors
 * keep their order.
 */
export function capFacts(facts: readonly MemoryFact[], maxFacts: number): MemoryFact[] {
  if (facts.length <= maxFacts) return [...facts];
  const ranked = facts
    .map((fact, index) => ({ fact, index }))
    .sort(
      (a, b) =>
        b.fact.confidence - a.fact.confidence || compareTimes(a.fact.createdAt, b.fact.createdAt) || a.index - b.index,
    );
  const kept = new Set(ranked.slice(0, Math.max(0, maxFacts)).map(({ fact }) => fact));
  return facts.filter((fact) => kept.has(fact));
}

/** Older first; a time that does not parse counts as equal, so list order decides. */
function compareTimes(a: string, b: string): number {
  const difference = Date.parse(a) - Date.parse(b);
  return Number.isNaN(difference) ? 0 : difference;
}

// ---------------------------------------------------------------------------------------------------------------
// Import: DeerFlow's exported document (API version 1.0, or storage 2.0 with facts) in, ours out.

const text = (fallback: string) =>
  z
    .string({ error: "must be a string" })
    .nullish()
    .transform((value) => value ?? fallback);

const sectionSchema = z
  .object({ summary: text(""), updatedAt: text("") }, { error: "must be an object" })
  .nullish()
  .transform((value): MemorySection => value ?? { summary: "", updatedAt: "" });

const factSchema = z.object(
  {
    id: z.string({ error: "must be a string" }).refine((value) => value.trim() !== "", { error: "must not be empty" }),
    content: z
      .string({ error: "must be a string" })
      .refine((value) => value.trim() !== "", { error: "must not be empty" }),
    category: text(DEFAULT_FACT_CATEGORY).transform((value) => value.trim() || DEFAULT_FACT_CATEGORY),
    confidence: z
      .number({ error: "must be a number between 0 and 1" })
      .min(0, { error: "must be between 0 and 1" })
      .max(1, { error: "must be between 0 and 1" })
      .nullish()
      .transform((value) => value ?? DEFAULT_FACT_CONFIDENCE),
    createdAt: text(""),
    source: text(MANUAL_FACT_SOURCE),
    sourceError: z.string({ error: "must be a string" }).nullish(),
  },
  { error: "must be an object" },
);

const documentSchema = z
  .object(
    {
      version: z.enum(["1.0", "2.0"], { error: 'must be "1.0" or "2.0"' }).optional(),
      lastUpdated: text(""),
      user: z
        .object(
          { workContext: sectionSchema, personalContext: sectionSchema, topOfMind: sectionSchema },
          { error: "must be an object" },
        )
        .nullish(),
      history: z
        .object(
          { recentMonths: sectionSchema, earlierContext: sectionSchema, longTermBackground: sectionSchema },
          { error: "must be an object" },
        )
        .nullish(),
      facts: z
        .array(factSchema, { error: "must be a list" })
        .max(MAX_DOCUMENT_FACTS, { error: `must hold at most ${MAX_DOCUMENT_FACTS} facts` })
        .nullish(),
    },
    { error: "must be an object" },
  )
  .superRefine((value, context) => {
    const seen = new Map<string, number>();
    value.facts?.forEach((fact, index) => {
      const first = seen.get(fact.id);
      if (first === undefined) seen.set(fact.id, index);
      else context.addIssue({ code: "custom", path: ["facts", index, "id"], message: `repeats facts[${first}].id` });
    });
  });

/** `facts[3].confidence`, or `memory` for the document itself. */
function issuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) out += typeof key === "number" ? `[${key}]` : `${out ? "." : ""}${String(key)}`;
  return out || "memory";
}

/**
 * A memory document from anything a user may import: DeerFlow's export (fields we do not keep, such as a fact's
 * `topics` or `status`, are dropped; missing sections are empty; version "1.0" or "2.0") or our own. Facts need
 * a non-empty `content`, a confidence from 0 to 1 (0.5 when absent) and unique ids; at most 1000 of them. The
 * message of a refusal names the first problem, e.g. `facts[3].confidence must be between 0 and 1`.
 */
export function parseMemoryDocument(
  value: unknown,
): { ok: true; value: MemoryDocument } | { ok: false; message: string } {
  const parsed = documentSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, message: issue ? `${issuePath(issue.path)} ${issue.message}` : "memory is not valid" };
  }
  const { lastUpdated, user, history, facts } = parsed.data;
  const empty = (): MemorySection => ({ summary: "", updatedAt: "" });
  return {
    ok: true,
    value: {
      version: "1.0",
      lastUpdated,
      user: {
        workContext: user?.workContext ?? empty(),
        personalContext: user?.personalContext ?? empty(),
        topOfMind: user?.topOfMind ?? empty(),
      },
      history: {
        recentMonths: history?.recentMonths ?? empty(),
        earlierContext: history?.earlierContext ?? empty(),
        longTermBackground: history?.longTermBackground ?? empty(),
      },
      facts: (facts ?? []).map(({ sourceError, ...fact }) =>
        sourceError?.trim() ? { ...fact, sourceError: sourceError.trim() } : fact,
      ),
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The user's edits (Settings → Memory): pure functions, each returning a new document.

export interface AddFactOptions {
  now: Date;
  /** The document's cap (settings' `maxFacts`). */
  maxFacts: number;
  /** Where the fact comes from; "manual" by default. */
  source?: string;
}

function checkedContent(content: unknown): string {
  const trimmed = typeof content === "string" ? content.trim() : "";
  if (!trimmed) throw new MemoryError("A fact needs some text.");
  return trimmed;
}

function checkedConfidence(confidence: unknown): number {
  if (!isValidConfidence(confidence)) throw new MemoryError("A fact's confidence must be a number from 0 to 1.");
  return confidence;
}

function checkedCategory(category: unknown): string {
  return (typeof category === "string" && category.trim()) || DEFAULT_FACT_CATEGORY;
}

function assertUnique(facts: readonly MemoryFact[], content: string, exceptId?: string): void {
  const key = factContentKey(content);
  if (facts.some((fact) => fact.id !== exceptId && factContentKey(fact.content) === key)) {
    throw new MemoryError("Memory already holds this fact.");
  }
}

function indexOfFact(doc: MemoryDocument, id: string): number {
  const index = doc.facts.findIndex((fact) => fact.id === id);
  if (index < 0) throw new MemoryError(`Memory has no fact with id ${id}.`);
  return index;
}

/**
 * `doc` with a new fact (content trimmed; category "context" and confidence 0.5 unless given). Throws a
 * MemoryError for empty content, a confidence outside 0–1, content the memory already holds (ignoring case and
 * surrounding spaces), or a fact that would at once be dropped because the memory is full of more confident ones.
 */
export function addFact(
  doc: MemoryDocument,
  input: MemoryFactInput & { sourceError?: string },
  options: AddFactOptions,
): MemoryDocument {
  const content = checkedContent(input.content);
  const confidence = checkedConfidence(input.confidence ?? DEFAULT_FACT_CONFIDENCE);
  assertUnique(doc.facts, content);
  const fact: MemoryFact = {
    id: newFactId(),
    content,
    category: checkedCategory(input.category),
    confidence,
    createdAt: options.now.toISOString(),
    source: options.source ?? MANUAL_FACT_SOURCE,
    ...(input.sourceError?.trim() ? { sourceError: input.sourceError.trim() } : {}),
  };
  const facts = capFacts([...doc.facts, fact], options.maxFacts);
  if (!facts.includes(fact)) {
    throw new MemoryError(
      `Memory is full (${options.maxFacts} facts), all more confident than this one: raise its confidence or delete a fact first.`,
    );
  }
  return { ...doc, facts, lastUpdated: options.now.toISOString() };
}

/**
 * `doc` with fact `id` changed by `patch` (omitted fields kept, content trimmed). Throws a MemoryError for an
 * unknown id, empty content, a confidence outside 0–1 or content another fact already has.
 */
export function updateFact(doc: MemoryDocument, id: string, patch: MemoryFactInput, now: Date): MemoryDocument {
  const index = indexOfFact(doc, id);
  const current = doc.facts[index] as MemoryFact;
  const next: MemoryFact = { ...current };
  if (patch.content !== undefined) {
    next.content = checkedContent(patch.content);
    assertUnique(doc.facts, next.content, id);
  }
  if (patch.category !== undefined) next.category = checkedCategory(patch.category);
  if (patch.confidence !== undefined) next.confidence = checkedConfidence(patch.confidence);
  const facts = doc.facts.map((fact, at) => (at === index ? next : fact));
  return { ...doc, facts, lastUpdated: now.toISOString() };
}

/** `doc` without fact `id`; throws a MemoryError for an unknown id. */
export function deleteFact(doc: MemoryDocument, id: string, now: Date): MemoryDocument {
  indexOfFact(doc, id);
  return { ...doc, facts: doc.facts.filter((fact) => fact.id !== id), lastUpdated: now.toISOString() };
}
