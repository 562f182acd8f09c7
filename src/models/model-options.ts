// A model's options as DeerFlow's model config has them (temperature, max tokens, OpenAI's Responses API, the extra
// request body when thinking): their sentences when Settings → Models is refused, and what each provider's chat
// model is built with (docs/architecture.md#d6-models-and-keys).
import {
  MAX_EXTRA_BODY_CHARS,
  MAX_REPLY_TOKENS,
  maxTemperature,
  modelOptionIssues,
  type ModelEntry,
  type ModelOptionIssue,
  type ModelProvider,
} from "../protocol/index.ts";
import {
  ANTHROPIC_ANSWER_TOKENS,
  isAnthropicAdaptiveOnly,
  reasoningRequest,
  type AnthropicReasoning,
  type GeminiReasoning,
  type ReasoningEffort,
} from "./reasoning.ts";

const PROVIDER_NAMES: Record<ModelProvider, string> = {
  "openai-compatible": "OpenAI-compatible",
  anthropic: "Anthropic",
  gemini: "Gemini",
  "on-device": "On this device",
};

function sentence(issue: ModelOptionIssue, model: string, endpoint: string, provider: ModelProvider): string {
  const of = `${model} of ${endpoint}`;
  switch (issue.field) {
    case "temperature":
      return `The temperature of ${of} is a number from 0 to ${maxTemperature(provider)}.`;
    case "maxTokens":
      return `Max tokens of ${of} is a whole number from 1 to ${MAX_REPLY_TOKENS.toLocaleString("en-US")}.`;
    case "responsesApi":
      return `Only an OpenAI-compatible endpoint speaks OpenAI's Responses API; turn it off for ${of}.`;
    case "thinkingExtraBody":
      switch (issue.problem) {
        case "object":
          return `The extra body when thinking of ${of} is a JSON object, for example {"thinking": {"type": "enabled"}}.`;
        case "provider":
          return `A ${PROVIDER_NAMES[provider]} endpoint sends no extra body; clear it for ${of}.`;
        case "reserved":
          return `The extra body when thinking of ${of} may not set ${issue.key}: Fawn writes it.`;
        case "size":
          return `The extra body when thinking of ${of} is at most ${MAX_EXTRA_BODY_CHARS.toLocaleString("en-US")} characters of JSON.`;
      }
  }
}

/** One sentence per problem of the model's options, naming the model and its endpoint. */
export function modelOptionSentences(provider: ModelProvider, endpoint: string, entry: ModelEntry): string[] {
  return modelOptionIssues(provider, entry).map((issue) => sentence(issue, entry.id, endpoint, provider));
}

/** The options that are set, in a stable shape (an extra body copied as plain JSON, an empty one dropped). */
export function modelOptionsOf(entry: ModelEntry): Partial<ModelEntry> {
  const body = entry.thinkingExtraBody;
  return {
    ...(entry.temperature !== undefined && { temperature: entry.temperature }),
    ...(entry.maxTokens !== undefined && { maxTokens: entry.maxTokens }),
    ...(entry.responsesApi && { responsesApi: true }),
    ...(body !== undefined &&
      Object.keys(body).length > 0 && {
        thinkingExtraBody: JSON.parse(JSON.stringify(body)) as Record<string, unknown>,
      }),
  };
}

/** What ChatOpenAI is built with for the model: its options, and its reasoning switch at `effort`. */
export interface OpenAiFields {
  temperature?: number;
  maxTokens?: number;
  useResponsesApi: boolean;
  modelKwargs?: Record<string, unknown>;
}

export function openAiFields(
  entry: ModelEntry,
  effort: ReasoningEffort | undefined,
  provider: "openai-compatible" | "on-device" = "openai-compatible",
): OpenAiFields {
  const kwargs: Record<string, unknown> = { ...reasoningRequest(provider, entry, effort).modelKwargs };
  // The Responses API asks for an effort as `reasoning: {effort}`; chat completions as `reasoning_effort`.
  if (entry.responsesApi && kwargs.reasoning_effort !== undefined) {
    kwargs.reasoning = { effort: kwargs.reasoning_effort };
    delete kwargs.reasoning_effort;
  }
  // DeerFlow's when_thinking_enabled.extra_body: only when the run asks the model to reason.
  if (effort && entry.thinkingExtraBody) Object.assign(kwargs, entry.thinkingExtraBody);
  return {
    ...(entry.temperature !== undefined && { temperature: entry.temperature }),
    ...(entry.maxTokens !== undefined && { maxTokens: entry.maxTokens }),
    useResponsesApi: entry.responsesApi === true,
    ...(Object.keys(kwargs).length > 0 && { modelKwargs: kwargs }),
  };
}

/** What ChatAnthropic is built with: its reasoning fields, and its options where thinking allows them. */
export interface AnthropicFields extends AnthropicReasoning {
  temperature?: number;
  invocationKwargs?: Record<string, unknown>;
}

export function anthropicFields(entry: ModelEntry, effort: ReasoningEffort | undefined): AnthropicFields {
  const reasoning = reasoningRequest("anthropic", entry, effort);
  const thinking = reasoning.thinking;
  // With a thinking budget, max tokens is the answer's room above it (Anthropic counts both in max_tokens).
  const maxTokens =
    thinking?.type === "enabled"
      ? thinking.budget_tokens + (entry.maxTokens ?? ANTHROPIC_ANSWER_TOKENS)
      : entry.maxTokens;
  // Anthropic takes no temperature while thinking, nor from a model that only thinks adaptively.
  const temperature = thinking || isAnthropicAdaptiveOnly(entry.id) ? undefined : entry.temperature;
  return {
    ...reasoning,
    ...(maxTokens !== undefined && { maxTokens }),
    ...(temperature !== undefined && { temperature }),
    ...(effort && entry.thinkingExtraBody && { invocationKwargs: { ...entry.thinkingExtraBody } }),
  };
}

/** What ChatGoogleGenerativeAI is built with. */
export interface GeminiFields extends GeminiReasoning {
  temperature?: number;
  maxOutputTokens?: number;
}

export function geminiFields(entry: ModelEntry, effort: ReasoningEffort | undefined): GeminiFields {
  const reasoning = reasoningRequest("gemini", entry, effort);
  // Gemini counts its thoughts in maxOutputTokens: max tokens is the answer's room above the thinking budget.
  const budget = reasoning.thinkingConfig?.thinkingBudget ?? 0;
  return {
    ...reasoning,
    ...(entry.temperature !== undefined && { temperature: entry.temperature }),
    ...(entry.maxTokens !== undefined && { maxOutputTokens: budget + entry.maxTokens }),
  };
}
