// Settings → Models → "Summaries and titles" checked before they are stored (one sentence per problem), and turned
// into what the summarization and title middlewares take for a run on a model with a given context window.
import {
  DEFAULT_SUMMARIES_AND_TITLES,
  TITLE_PROMPT_MAX_CHARS,
  TITLE_PROMPT_PLACEHOLDERS,
  type ContextSize,
  type ContextSizeKind,
  type SummariesAndTitles,
  type SummarizationSettings,
  type TitleSettings,
} from "../../protocol/index.ts";
import type { SummarizationOptions } from "./summarization.ts";

export type SummariesAndTitlesParseResult =
  { ok: true; value: SummariesAndTitles } | { ok: false; message: string; problems: string[] };

/** The ranges of each kind of size, as a trigger and as what is kept. */
export const CONTEXT_SIZE_RANGES: Record<"trigger" | "keep", Record<ContextSizeKind, [number, number]>> = {
  trigger: { tokens: [1_000, 10_000_000], messages: [2, 10_000], fraction: [0.05, 1] },
  keep: { tokens: [100, 10_000_000], messages: [1, 1_000], fraction: [0.01, 0.9] },
};

const KINDS: readonly ContextSizeKind[] = ["tokens", "messages", "fraction"];
const KIND_WORDS: Record<ContextSizeKind, string> = {
  tokens: "tokens",
  messages: "messages",
  fraction: "a fraction of the context window",
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function number(value: number): string {
  return value.toLocaleString("en-US");
}

/** A size checked against its range; `what` names it in the sentence ("A trigger", "What is kept"). */
function parseSize(
  value: unknown,
  role: "trigger" | "keep",
  what: string,
  problems: string[],
): ContextSize | undefined {
  if (!isObject(value) || !KINDS.includes(value.type as ContextSizeKind)) {
    problems.push(`${what} is measured in tokens, messages or a fraction of the context window.`);
    return undefined;
  }
  const type = value.type as ContextSizeKind;
  const [min, max] = CONTEXT_SIZE_RANGES[role][type];
  const size = value.value;
  const whole = type !== "fraction";
  if (typeof size !== "number" || !Number.isFinite(size) || (whole && !Number.isInteger(size))) {
    problems.push(`${what} in ${KIND_WORDS[type]} must be ${whole ? "a whole number" : "a number"}.`);
    return undefined;
  }
  if (size < min || size > max) {
    problems.push(`${what} in ${KIND_WORDS[type]} must be from ${number(min)} to ${number(max)}.`);
    return undefined;
  }
  return { type, value: size };
}

function parseSummarization(value: unknown, problems: string[]): SummarizationSettings | undefined {
  const defaults = DEFAULT_SUMMARIES_AND_TITLES.summarization;
  if (value === undefined) return structuredClone(defaults);
  if (!isObject(value)) {
    problems.push("The summary settings must be an object.");
    return undefined;
  }
  const enabled = value.enabled ?? defaults.enabled;
  if (typeof enabled !== "boolean") problems.push("Summaries are on or off.");
  const rawTrigger = value.trigger ?? defaults.trigger;
  const trigger: ContextSize[] = [];
  if (!Array.isArray(rawTrigger)) problems.push("The summary triggers must be a list.");
  else {
    for (const entry of rawTrigger) {
      const size = parseSize(entry, "trigger", "A summary trigger", problems);
      if (!size) continue;
      if (trigger.some((other) => other.type === size.type)) {
        problems.push(`There is more than one summary trigger in ${KIND_WORDS[size.type]}.`);
      } else trigger.push(size);
    }
    if (enabled === true && rawTrigger.length === 0) problems.push("Summaries that are on need at least one trigger.");
  }
  const keep = parseSize(value.keep ?? defaults.keep, "keep", "What a summary keeps", problems);
  const sameKind = keep && trigger.find((size) => size.type === keep.type);
  if (keep && sameKind && keep.value >= sameKind.value) {
    problems.push(`What a summary keeps must be less than its trigger in ${KIND_WORDS[keep.type]}.`);
  }
  if (typeof enabled !== "boolean" || !keep) return undefined;
  return { enabled, trigger, keep };
}

function parseTitles(value: unknown, problems: string[]): TitleSettings | undefined {
  const defaults = DEFAULT_SUMMARIES_AND_TITLES.titles;
  if (value === undefined) return structuredClone(defaults);
  if (!isObject(value)) {
    problems.push("The title settings must be an object.");
    return undefined;
  }
  const enabled = value.enabled ?? defaults.enabled;
  if (typeof enabled !== "boolean") problems.push("Titles are on or off.");
  const whole = (field: unknown, fallback: number, min: number, max: number, what: string): number | undefined => {
    const size = field ?? fallback;
    if (typeof size === "number" && Number.isInteger(size) && size >= min && size <= max) return size;
    problems.push(`${what} must be a whole number from ${min} to ${max}.`);
    return undefined;
  };
  const maxWords = whole(value.maxWords, defaults.maxWords, 1, 20, "A title's words");
  const maxChars = whole(value.maxChars, defaults.maxChars, 10, 200, "A title's characters");
  let prompt: string | undefined;
  if (value.prompt !== undefined && value.prompt !== null) {
    if (typeof value.prompt !== "string") problems.push("The title prompt must be text.");
    else prompt = value.prompt.trim() || undefined;
  }
  if (prompt !== undefined) {
    if (prompt.length > TITLE_PROMPT_MAX_CHARS) {
      problems.push(`The title prompt is longer than ${number(TITLE_PROMPT_MAX_CHARS)} characters.`);
    }
    const unknown = [...prompt.matchAll(/\{([^{}]*)\}/g)]
      .map((match) => match[1]!)
      .filter((name) => !(TITLE_PROMPT_PLACEHOLDERS as readonly string[]).includes(name));
    if (unknown.length > 0) {
      problems.push(
        `The title prompt may use {user_msg}, {assistant_msg} and {max_words}, not {${[...new Set(unknown)].join("}, {")}}.`,
      );
    }
    if (!prompt.includes("{user_msg}")) problems.push("The title prompt must include {user_msg}.");
  }
  if (typeof enabled !== "boolean" || maxWords === undefined || maxChars === undefined) return undefined;
  return { enabled, maxWords, maxChars, ...(prompt !== undefined && { prompt }) };
}

/**
 * "Summaries and titles" checked and normalized (missing parts defaulted, the prompt trimmed), or every problem in
 * one sentence each.
 */
export function parseSummariesAndTitles(value: unknown): SummariesAndTitlesParseResult {
  const problems: string[] = [];
  if (!isObject(value)) {
    const message = "Summary and title settings must be an object.";
    return { ok: false, message, problems: [message] };
  }
  const summarization = parseSummarization(value.summarization, problems);
  const titles = parseTitles(value.titles, problems);
  if (problems.length > 0 || !summarization || !titles) {
    const unique = [...new Set(problems)];
    return { ok: false, message: unique.join(" "), problems: unique };
  }
  return { ok: true, value: { summarization, titles } };
}

/** The stored settings as they apply: a record that no longer passes the check counts as the defaults. */
export function readSummariesAndTitles(stored: unknown): SummariesAndTitles {
  const parsed = parseSummariesAndTitles(stored ?? {});
  return parsed.ok ? parsed.value : structuredClone(DEFAULT_SUMMARIES_AND_TITLES);
}

/** Tokens of a size in tokens or as a fraction of `contextWindow`. */
function tokensOf(size: ContextSize, contextWindow: number): number {
  return size.type === "fraction" ? Math.floor(size.value * contextWindow) : size.value;
}

/**
 * What the summarization middleware takes for a run on a model with `contextWindow` tokens: `false` when summaries
 * are off; a token trigger is the lower of the tokens and fraction ones; a kind with no trigger never triggers.
 */
export function summarizationOptionsFor(
  settings: SummarizationSettings,
  contextWindow: number,
): SummarizationOptions | false {
  if (!settings.enabled || settings.trigger.length === 0) return false;
  const tokenTriggers = settings.trigger
    .filter((size) => size.type !== "messages")
    .map((size) => tokensOf(size, contextWindow));
  const messages = settings.trigger.find((size) => size.type === "messages");
  return {
    triggerTokens: tokenTriggers.length > 0 ? Math.min(...tokenTriggers) : Number.POSITIVE_INFINITY,
    triggerMessages: messages ? messages.value : Number.POSITIVE_INFINITY,
    ...(settings.keep.type === "messages"
      ? { keepMessages: settings.keep.value }
      : { keepTokens: tokensOf(settings.keep, contextWindow) }),
  };
}
