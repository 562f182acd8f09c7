// What Settings → Memory shows of the memory document, and how it reads what the user types and imports.
import {
  MEMORY_FACT_CATEGORIES,
  type MemoryDocument,
  type MemoryFact,
  type MemorySettings,
} from "../../../protocol/index.ts";

/** One non-empty summary, as the tab labels it. */
export interface SummaryItem {
  label: string;
  summary: string;
  updatedAt: string;
}

/** A heading ("User context", "History") with its non-empty summaries. */
export interface SummaryGroup {
  title: string;
  items: SummaryItem[];
}

/** The summaries that say something, grouped and labelled as the tab shows them; empty groups are left out. */
export function memorySummaries(document: MemoryDocument): SummaryGroup[] {
  const { user, history } = document;
  const groups: SummaryGroup[] = [
    {
      title: "User context",
      items: [
        { label: "Work", ...user.workContext },
        { label: "Personal", ...user.personalContext },
        { label: "Current focus", ...user.topOfMind },
      ],
    },
    {
      title: "History",
      items: [
        { label: "Recent", ...history.recentMonths },
        { label: "Earlier", ...history.earlierContext },
        { label: "Background", ...history.longTermBackground },
      ],
    },
  ];
  return groups
    .map((group) => ({ ...group, items: group.items.filter((item) => item.summary.trim() !== "") }))
    .filter((group) => group.items.length > 0);
}

/** True when the memory holds no summary and no fact. */
export function isMemoryEmpty(document: MemoryDocument): boolean {
  return document.facts.length === 0 && memorySummaries(document).length === 0;
}

/** The facts whose content or category contains every word of the query (case ignored); all for a blank query. */
export function filterFacts(facts: readonly MemoryFact[], query: string): MemoryFact[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...facts];
  return facts.filter((fact) => {
    const text = `${fact.content} ${fact.category}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

/** A confidence (0 to 1) as a whole percentage: 0.9 → "90%". */
export function formatConfidence(confidence: number): string {
  return Number.isFinite(confidence) ? `${Math.round(confidence * 100)}%` : "—";
}

/** The day an ISO time falls on, in the reader's locale ("—" when there is none). */
export function formatLearned(iso: string, locale?: string): string {
  const date = new Date(iso);
  if (iso === "" || Number.isNaN(date.getTime())) return "—";
  return date.toLocaleDateString(locale, { year: "numeric", month: "short", day: "numeric" });
}

/** What the user typed as a confidence, when it is a number from 0 to 1. */
export function parseConfidence(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 && value <= 1 ? value : undefined;
}

/** A fact as its row's (or "Add a fact"'s) fields hold it while the user types. */
export interface FactDraft {
  content: string;
  category: string;
  confidence: string;
}

/** The categories a fact may be given here, its own first when the updater used another. */
export function categoryChoices(current: string): string[] {
  const known: readonly string[] = MEMORY_FACT_CATEGORIES;
  return current === "" || known.includes(current) ? [...known] : [current, ...known];
}

/** Settings → Memory's number fields as typed; text, so a half-typed number is never rewritten under the cursor. */
export interface MemorySettingsForm {
  enabled: boolean;
  injectionEnabled: boolean;
  debounceSeconds: string;
  maxInjectionTokens: string;
}

export function toMemorySettingsForm(settings: MemorySettings): MemorySettingsForm {
  return {
    enabled: settings.enabled,
    injectionEnabled: settings.injectionEnabled,
    debounceSeconds: String(settings.debounceSeconds),
    maxInjectionTokens: String(settings.maxInjectionTokens),
  };
}

/**
 * The form over the settings it was loaded from (fields it does not show are kept), or what is wrong with it. Only
 * the numbers' form is checked here; the worker checks their ranges.
 */
export function fromMemorySettingsForm(
  form: MemorySettingsForm,
  base: MemorySettings,
): { settings: MemorySettings } | { error: string } {
  const debounceSeconds = Number(form.debounceSeconds);
  if (form.debounceSeconds.trim() === "" || !Number.isFinite(debounceSeconds)) {
    return { error: "Update delay must be a number of seconds." };
  }
  const maxInjectionTokens = Number(form.maxInjectionTokens);
  if (form.maxInjectionTokens.trim() === "" || !Number.isInteger(maxInjectionTokens)) {
    return { error: "Memory budget must be a whole number of tokens." };
  }
  return {
    settings: {
      ...base,
      enabled: form.enabled,
      injectionEnabled: form.injectionEnabled,
      debounceSeconds,
      maxInjectionTokens,
    },
  };
}

/** The name an exported memory is saved under. */
export const MEMORY_EXPORT_FILE_NAME = "fawn-memory.json";

/** The memory as the exported file holds it: the document itself, indented. */
export function memoryExportText(document: MemoryDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * An imported file's text as a document to hand to the worker, which validates it whole; this only refuses what is
 * plainly not a memory export, with a message for the user.
 */
export function parseMemoryFile(text: string): { document: unknown; factCount: number } | { error: string } {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return { error: "That file is not JSON." };
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    return { error: "That file is not a memory export: it holds no memory document." };
  }
  const { facts } = document as { facts?: unknown };
  if (facts !== undefined && !Array.isArray(facts)) {
    return { error: "That file is not a memory export: its facts are not a list." };
  }
  return { document, factCount: facts?.length ?? 0 };
}
