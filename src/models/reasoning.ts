// Each provider's own reasoning switch, chosen per model and tied to the Mode (docs/architecture.md#d6-models-and-keys).
import { reasoningStyleOf, type ModelProvider, type ModelEntry } from "../protocol/index.ts";

/** How hard the model thinks: Thinking mode low, Pro medium, Ultra high; absent in Flash or for a non-thinking model. */
export type ReasoningEffort = "low" | "medium" | "high";

/** Anthropic's extended-thinking budget by effort (at least 1,024 tokens, below `max_tokens`). */
export const ANTHROPIC_THINKING_BUDGET: Record<ReasoningEffort, number> = { low: 2_048, medium: 6_144, high: 12_288 };
/** Room for the answer above the thinking budget (Anthropic counts both in `max_tokens`). */
export const ANTHROPIC_ANSWER_TOKENS = 4_096;
/** Gemini's `thinkingBudget` by effort (2.5 Flash takes up to 24,576; 2.5 Pro up to 32,768). */
export const GEMINI_THINKING_BUDGET: Record<ReasoningEffort, number> = { low: 2_048, medium: 8_192, high: 24_576 };

/**
 * Anthropic models that take only adaptive thinking with an effort (no budget); @langchain/anthropic refuses a budget
 * for them (its ADAPTIVE_ONLY_MODEL_PREFIXES, not exported).
 */
const ANTHROPIC_ADAPTIVE_ONLY = [
  "claude-opus-4-7",
  "claude-opus-4-8",
  "claude-opus-5",
  "claude-sonnet-5",
  "claude-fable-5",
];

/** Whether the Anthropic model takes only adaptive thinking (and no temperature but 1). */
export function isAnthropicAdaptiveOnly(model: string): boolean {
  return ANTHROPIC_ADAPTIVE_ONLY.some((prefix) => model.startsWith(prefix));
}

/** Extra fields of an OpenAI-compatible request body (`modelKwargs`). */
export interface OpenAiReasoning {
  modelKwargs?: Record<string, unknown>;
}

/** Fields of `ChatAnthropic`'s constructor. */
export interface AnthropicReasoning {
  thinking?: { type: "enabled"; budget_tokens: number } | { type: "adaptive" };
  outputConfig?: { effort: ReasoningEffort };
  maxTokens?: number;
}

/** Fields of `ChatGoogleGenerativeAI`'s constructor. */
export interface GeminiReasoning {
  thinkingConfig?: { thinkingBudget: number; includeThoughts: boolean };
}

/**
 * What a request to the model `entry` of a `provider` endpoint carries to ask for reasoning at `effort` (none in
 * Flash). A switch that belongs to another provider sends nothing.
 */
export function reasoningRequest(
  provider: "openai-compatible" | "on-device",
  entry: ModelEntry,
  effort?: ReasoningEffort,
): OpenAiReasoning;
export function reasoningRequest(
  provider: "anthropic",
  entry: ModelEntry,
  effort?: ReasoningEffort,
): AnthropicReasoning;
export function reasoningRequest(provider: "gemini", entry: ModelEntry, effort?: ReasoningEffort): GeminiReasoning;
export function reasoningRequest(
  provider: ModelProvider,
  entry: ModelEntry,
  effort?: ReasoningEffort,
): OpenAiReasoning | AnthropicReasoning | GeminiReasoning {
  const style = reasoningStyleOf(provider, entry);
  switch (provider) {
    case "openai-compatible":
      if (style === "reasoning-effort" && effort) return { modelKwargs: { reasoning_effort: effort } };
      // Qwen's switch is sent either way: some Qwen models think unless told not to.
      if (style === "enable-thinking") return { modelKwargs: { enable_thinking: effort !== undefined } };
      return {};
    case "anthropic": {
      if (style !== "anthropic-thinking" || !effort) return {};
      if (isAnthropicAdaptiveOnly(entry.id)) {
        return { thinking: { type: "adaptive" }, outputConfig: { effort } };
      }
      const budget = ANTHROPIC_THINKING_BUDGET[effort];
      return { thinking: { type: "enabled", budget_tokens: budget }, maxTokens: budget + ANTHROPIC_ANSWER_TOKENS };
    }
    case "gemini":
      if (style !== "gemini-thinking" || !effort) return {};
      return { thinkingConfig: { thinkingBudget: GEMINI_THINKING_BUDGET[effort], includeThoughts: true } };
    case "on-device":
      // llama.cpp renders the file's chat template with the request's `chat_template_kwargs`; Qwen 3's reads its
      // switch there. Sent either way: Qwen 3 thinks unless told not to, minutes of it on a CPU.
      if (style === "enable-thinking") {
        return { modelKwargs: { chat_template_kwargs: { enable_thinking: effort !== undefined } } };
      }
      return {};
  }
}
