// A model's options as DeerFlow's model config has them (temperature, max tokens, OpenAI's Responses API, the extra
// request body when thinking): their limits and what is wrong with them, which Settings → Models and the settings
// service both check. Apart from model-endpoints.ts so the first screen, which reads the models, does not carry it.
import type { ModelEntry } from "./model-endpoints.ts";
import type { ModelProvider } from "./model-providers.ts";

/** The highest temperature a model takes (OpenAI's and Gemini's range; Anthropic's ends at 1: maxTemperature). */
export const MAX_TEMPERATURE = 2;

/** The highest temperature a `provider` endpoint's models take. */
export function maxTemperature(provider: ModelProvider): number {
  return provider === "anthropic" ? 1 : MAX_TEMPERATURE;
}
/** The most reply tokens a model entry may ask for. */
export const MAX_REPLY_TOKENS = 1_000_000;
/** The longest extra body when thinking, as JSON text. */
export const MAX_EXTRA_BODY_CHARS = 8_000;
/** Fields of a request body Fawn writes itself, which an extra body may not replace. */
export const RESERVED_BODY_KEYS: readonly string[] = [
  "model",
  "messages",
  "input",
  "instructions",
  "system",
  "contents",
  "stream",
  "stream_options",
  "tools",
  "tool_choice",
];

/** What is wrong with one of a model's options (see modelOptionIssues); each side words it in its own language. */
export type ModelOptionIssue =
  | { field: "temperature"; problem: "range" }
  | { field: "maxTokens"; problem: "range" }
  | { field: "responsesApi"; problem: "provider" }
  | { field: "thinkingExtraBody"; problem: "object" | "size" | "provider" }
  | { field: "thinkingExtraBody"; problem: "reserved"; key: string };

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The length of `value` as JSON text; a value JSON cannot write (a cycle, a bigint) counts as too long. */
function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value).length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * The problems of a model's temperature, max tokens, Responses API switch and extra body on a `provider` endpoint,
 * at most one per field: Settings → Models marks them under their fields, and the settings service refuses them.
 */
export function modelOptionIssues(provider: ModelProvider, entry: ModelEntry): ModelOptionIssue[] {
  const issues: ModelOptionIssue[] = [];
  const { temperature, maxTokens, thinkingExtraBody } = entry;
  const highest = maxTemperature(provider);
  if (temperature !== undefined && !(Number.isFinite(temperature) && temperature >= 0 && temperature <= highest)) {
    issues.push({ field: "temperature", problem: "range" });
  }
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens >= 1 && maxTokens <= MAX_REPLY_TOKENS)) {
    issues.push({ field: "maxTokens", problem: "range" });
  }
  if (entry.responsesApi && provider !== "openai-compatible")
    issues.push({ field: "responsesApi", problem: "provider" });
  if (thinkingExtraBody !== undefined) {
    const reserved = isJsonObject(thinkingExtraBody)
      ? Object.keys(thinkingExtraBody).find((key) => RESERVED_BODY_KEYS.includes(key))
      : undefined;
    if (!isJsonObject(thinkingExtraBody)) issues.push({ field: "thinkingExtraBody", problem: "object" });
    else if (provider === "gemini") issues.push({ field: "thinkingExtraBody", problem: "provider" });
    else if (reserved !== undefined) issues.push({ field: "thinkingExtraBody", problem: "reserved", key: reserved });
    else if (jsonLength(thinkingExtraBody) > MAX_EXTRA_BODY_CHARS) {
      issues.push({ field: "thinkingExtraBody", problem: "size" });
    }
  }
  return issues;
}
