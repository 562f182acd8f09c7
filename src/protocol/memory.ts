// Long-term memory as the UI and the worker see it: DeerFlow's memory document (summaries and facts) and its settings.

/** One summary of the user or of their history; `updatedAt` is an ISO time, empty until first written. */
export interface MemorySection {
  summary: string;
  updatedAt: string;
}

/** The categories the memory updater uses; the user may type others. */
export const MEMORY_FACT_CATEGORIES = ["preference", "knowledge", "context", "behavior", "goal", "correction"] as const;

/** One fact the agent remembers about the user. */
export interface MemoryFact {
  /** `fact_` and 8 hex digits. */
  id: string;
  content: string;
  /** One of MEMORY_FACT_CATEGORIES, usually. */
  category: string;
  /** 0 to 1. */
  confidence: number;
  /** ISO time. */
  createdAt: string;
  /** The thread it was learned in, or "manual" for a fact the user added. */
  source: string;
  /** For a correction: what the agent got wrong, so it avoids it. */
  sourceError?: string;
}

/** DeerFlow's memory document (API version 1.0). */
export interface MemoryDocument {
  version: "1.0";
  /** ISO time of the last change, empty for an empty memory. */
  lastUpdated: string;
  user: { workContext: MemorySection; personalContext: MemorySection; topOfMind: MemorySection };
  history: { recentMonths: MemorySection; earlierContext: MemorySection; longTermBackground: MemorySection };
  facts: MemoryFact[];
}

/** What the user types to add a fact, or to change one (omitted fields stay as they are). */
export interface MemoryFactInput {
  content?: string;
  category?: string;
  confidence?: number;
}

/** Settings → Memory. */
export interface MemorySettings {
  /** Learn from conversations and use what was learned. Off: nothing is learned or injected. */
  enabled: boolean;
  /** Put the memory into the agent's prompt (when enabled). */
  injectionEnabled: boolean;
  /** How long after a run the memory update waits for more runs, in seconds (0–3600). */
  debounceSeconds: number;
  /** Facts kept at most (1–1000); the least confident go first. */
  maxFacts: number;
  /** New facts below this confidence are not kept (0–1). */
  factConfidenceThreshold: number;
  /** The memory's share of the prompt, in tokens (100–20000). */
  maxInjectionTokens: number;
}

export const DEFAULT_MEMORY_SETTINGS: MemorySettings = {
  enabled: true,
  injectionEnabled: true,
  debounceSeconds: 30,
  maxFacts: 100,
  factConfidenceThreshold: 0.7,
  maxInjectionTokens: 2000,
};

/** A memory with nothing in it. */
export function emptyMemoryDocument(): MemoryDocument {
  const section = (): MemorySection => ({ summary: "", updatedAt: "" });
  return {
    version: "1.0",
    lastUpdated: "",
    user: { workContext: section(), personalContext: section(), topOfMind: section() },
    history: { recentMonths: section(), earlierContext: section(), longTermBackground: section() },
    facts: [],
  };
}
