// Settings → Models → "Summaries and titles": when the conversation is condensed for the model and how threads get
// their titles (DeerFlow's `summarization` and `title` config). The defaults are what Fawn did before they were
// configurable.

/** How a size is measured: tokens (approximate), messages, or a fraction of the model's context window. */
export type ContextSizeKind = "tokens" | "messages" | "fraction";

export interface ContextSize {
  type: ContextSizeKind;
  /** Whole tokens or messages; a fraction is above 0 and at most 1. */
  value: number;
}

export interface SummarizationSettings {
  /** Off: the model is always sent the whole conversation (`/compact` still works). */
  enabled: boolean;
  /** A summary is made once any of these is reached; one of each kind at most. */
  trigger: ContextSize[];
  /** What stays as it is after a summary: the latest messages, tokens, or a fraction of the window. */
  keep: ContextSize;
}

export interface TitleSettings {
  /** Off: a new thread gets no title from its first exchange (the user names it). */
  enabled: boolean;
  /** Most words asked of the title model (1–20). */
  maxWords: number;
  /** Longest title, the model's or the first message's (10–200 characters). */
  maxChars: number;
  /**
   * The title model's prompt; `{user_msg}`, `{assistant_msg}` and `{max_words}` are filled in. Absent: Fawn's own.
   */
  prompt?: string;
}

export interface SummariesAndTitles {
  summarization: SummarizationSettings;
  titles: TitleSettings;
}

/** The placeholders a title prompt may use; `{user_msg}` is required. */
export const TITLE_PROMPT_PLACEHOLDERS = ["user_msg", "assistant_msg", "max_words"] as const;

/** The longest title prompt, in characters. */
export const TITLE_PROMPT_MAX_CHARS = 4_000;

/** Summarize past 32,000 tokens or 200 messages, keep the last 10; titles of at most 6 words and 60 characters. */
export const DEFAULT_SUMMARIES_AND_TITLES: SummariesAndTitles = {
  summarization: {
    enabled: true,
    trigger: [
      { type: "tokens", value: 32_000 },
      { type: "messages", value: 200 },
    ],
    keep: { type: "messages", value: 10 },
  },
  titles: { enabled: true, maxWords: 6, maxChars: 60 },
};
