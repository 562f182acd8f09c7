// What the memory model answers (a MemoryUpdate), read tolerantly from its text, and applied to the document.
import type { MemoryDocument, MemoryFact, MemorySection } from "../../protocol/index.ts";
import { stripThinking } from "../visible-text.ts";
import {
  capFacts,
  DEFAULT_FACT_CATEGORY,
  DEFAULT_FACT_CONFIDENCE,
  factContentKey,
  isValidConfidence,
  MemoryError,
  newFactId,
} from "./memory-document.ts";

export const USER_SECTIONS = ["workContext", "personalContext", "topOfMind"] as const;
export const HISTORY_SECTIONS = ["recentMonths", "earlierContext", "longTermBackground"] as const;

export type UserSectionName = (typeof USER_SECTIONS)[number];
export type HistorySectionName = (typeof HISTORY_SECTIONS)[number];

/** A proposed summary; it replaces the stored one only when `shouldUpdate` is true. */
export interface MemorySectionUpdate {
  summary: string;
  shouldUpdate: boolean;
}

/** A fact the model proposes to remember. */
export interface MemoryFactProposal {
  content: string;
  category: string;
  /** 0 to 1. */
  confidence: number;
  /** For a correction: what went wrong. */
  sourceError?: string;
}

/** The memory model's answer: new summaries, new facts, and the ids of facts to forget. */
export interface MemoryUpdate {
  user: Partial<Record<UserSectionName, MemorySectionUpdate>>;
  history: Partial<Record<HistorySectionName, MemorySectionUpdate>>;
  newFacts: MemoryFactProposal[];
  factsToRemove: string[];
}

const UPDATE_KEYS = ["user", "history", "newFacts", "factsToRemove"];

/**
 * The MemoryUpdate in a model's answer. Tolerant: `<think>` reasoning and Markdown fences are ignored, the first
 * JSON object with a memory-update key is taken, and malformed items (a fact without text or with a confidence
 * outside 0–1, a removal that is not an id) are skipped. When a proposed fact was malformed the removals are
 * dropped too, so a botched replacement never costs the fact it was meant to replace. Throws a MemoryError when
 * the answer holds no such JSON object.
 */
export function parseMemoryUpdateResponse(text: string): MemoryUpdate {
  const cleaned = stripThinking(text).replace(/```[a-zA-Z]*\s*\n?/g, "");
  const raw = firstUpdateObject(cleaned);
  if (!raw) throw new MemoryError("The memory model's answer held no memory update (a JSON object).");

  const newFacts: MemoryFactProposal[] = [];
  let malformed = false;
  for (const item of Array.isArray(raw.newFacts) ? raw.newFacts : []) {
    const fact = factProposal(item);
    if (fact) newFacts.push(fact);
    else malformed = true;
  }
  const factsToRemove = malformed || !Array.isArray(raw.factsToRemove) ? [] : raw.factsToRemove.flatMap(removalId);
  return {
    user: sections(raw.user, USER_SECTIONS),
    history: sections(raw.history, HISTORY_SECTIONS),
    newFacts,
    factsToRemove,
  };
}

/** The first `{…}` in `text` that parses as JSON and has one of the update's keys. */
function firstUpdateObject(text: string): Record<string, unknown> | undefined {
  for (let start = text.indexOf("{"); start >= 0; start = text.indexOf("{", start + 1)) {
    const end = matchingBrace(text, start);
    if (end < 0) continue;
    try {
      const value: unknown = JSON.parse(text.slice(start, end + 1));
      if (isRecord(value) && UPDATE_KEYS.some((key) => key in value)) return value;
    } catch {
      // Not JSON from this brace: try the next one.
    }
  }
  return undefined;
}

/** The index of the `}` closing the `{` at `start` (braces inside JSON strings ignored), or -1. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return index;
  }
  return -1;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sections<Name extends string>(
  value: unknown,
  names: readonly Name[],
): Partial<Record<Name, MemorySectionUpdate>> {
  const out: Partial<Record<Name, MemorySectionUpdate>> = {};
  if (!isRecord(value)) return out;
  for (const name of names) {
    const section = value[name];
    if (isRecord(section) && typeof section.summary === "string") {
      out[name] = { summary: section.summary, shouldUpdate: section.shouldUpdate === true };
    }
  }
  return out;
}

function factProposal(value: unknown): MemoryFactProposal | undefined {
  if (!isRecord(value) || typeof value.content !== "string" || !value.content.trim()) return undefined;
  const raw = value.confidence ?? DEFAULT_FACT_CONFIDENCE;
  const confidence = typeof raw === "string" && raw.trim() ? Number(raw) : raw;
  if (!isValidConfidence(confidence)) return undefined;
  const category = typeof value.category === "string" && value.category.trim();
  const sourceError = typeof value.sourceError === "string" && value.sourceError.trim();
  return {
    content: value.content.trim(),
    category: category || DEFAULT_FACT_CATEGORY,
    confidence,
    ...(sourceError ? { sourceError } : {}),
  };
}

/** A removal is an id, or (DeerFlow's newer answers) an object with one. */
function removalId(value: unknown): string[] {
  if (typeof value === "string" && value) return [value];
  if (isRecord(value) && typeof value.id === "string" && value.id) return [value.id];
  return [];
}

// ---------------------------------------------------------------------------------------------------------------
// Uploads are per thread: a memory that says "the user uploaded report.pdf" sends later threads looking for a file
// that is not there, so such sentences never enter the memory.

const UPLOAD_MENTION =
  /\b(?:upload(?:s|ed|ing)?|attached)\s+(?:[\w'’-]+\s+){0,3}?(?:files?|documents?|attachments?|pdfs?|spreadsheets?|images?)\b|\bfile\s+uploads?\b|\/mnt\/user-data\/uploads\b|<uploaded_files>|上传[^。！？\n]{0,8}?(?:文件|文档|附件)/i;

/** True for text that tells of a file upload (not of files in general: "works with CSV files" is fine). */
export function mentionsUpload(text: string): boolean {
  return UPLOAD_MENTION.test(text);
}

/** `summary` without its sentences about file uploads. */
export function withoutUploadSentences(summary: string): string {
  if (!mentionsUpload(summary)) return summary;
  // A sentence ends at . ! ? before a space (not inside "report.pdf") or at a CJK full stop.
  const sentences = summary.match(/[\s\S]+?(?:[.!?]+(?=\s|$)|[。！？]+|$)\s*/g) ?? [summary];
  return sentences
    .filter((sentence) => !mentionsUpload(sentence))
    .join("")
    .replace(/ {2,}/g, " ")
    .trim();
}

// ---------------------------------------------------------------------------------------------------------------

export interface ApplyMemoryUpdateOptions {
  /** The thread the conversation came from: the new facts' `source`. */
  threadId: string;
  now: Date;
  /** New facts below this confidence are not kept. */
  threshold: number;
  maxFacts: number;
}

/**
 * `doc` after `update` (pure). Summaries are replaced where `shouldUpdate` says so; the listed facts are removed;
 * proposed facts are kept when their confidence reaches `threshold` and the memory (or an earlier proposal) does not
 * already hold the same content, ignoring case and surrounding spaces; they get a new id, `createdAt` now and the
 * thread as `source`. Sentences and facts about file uploads are left out. Then the facts are cut to `maxFacts`,
 * the least confident first (between equals, the newer).
 */
export function applyMemoryUpdate(
  doc: MemoryDocument,
  update: MemoryUpdate,
  options: ApplyMemoryUpdateOptions,
): MemoryDocument {
  const now = options.now.toISOString();
  const section = (current: MemorySection, proposed: MemorySectionUpdate | undefined): MemorySection =>
    proposed?.shouldUpdate && typeof proposed.summary === "string"
      ? { summary: withoutUploadSentences(proposed.summary.trim()), updatedAt: now }
      : current;

  const removed = new Set(update.factsToRemove);
  const facts = doc.facts.filter((fact) => !removed.has(fact.id));
  const known = new Set(facts.map((fact) => factContentKey(fact.content)));
  for (const proposal of update.newFacts) {
    const content = proposal.content.trim();
    if (!content || !(proposal.confidence >= options.threshold) || mentionsUpload(content)) continue;
    const key = factContentKey(content);
    if (known.has(key)) continue;
    known.add(key);
    const fact: MemoryFact = {
      id: newFactId(),
      content,
      category: proposal.category.trim() || DEFAULT_FACT_CATEGORY,
      confidence: proposal.confidence,
      createdAt: now,
      source: options.threadId,
      ...(proposal.sourceError?.trim() ? { sourceError: proposal.sourceError.trim() } : {}),
    };
    facts.push(fact);
  }

  const { user, history } = doc;
  return {
    ...doc,
    lastUpdated: now,
    user: {
      workContext: section(user.workContext, update.user.workContext),
      personalContext: section(user.personalContext, update.user.personalContext),
      topOfMind: section(user.topOfMind, update.user.topOfMind),
    },
    history: {
      recentMonths: section(history.recentMonths, update.history.recentMonths),
      earlierContext: section(history.earlierContext, update.history.earlierContext),
      longTermBackground: section(history.longTermBackground, update.history.longTermBackground),
    },
    facts: capFacts(facts, options.maxFacts),
  };
}
