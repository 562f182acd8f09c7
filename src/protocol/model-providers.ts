// The wire formats a model endpoint speaks and how each model is asked to reason (docs/architecture.md#d6-models-and-keys).

/**
 * The API an endpoint speaks: OpenAI's chat completions (most providers and local servers), Anthropic's Messages API,
 * or Google's Gemini API; or `on-device`: a GGUF model file kept in this browser, run by llama.cpp in a worker (no
 * key, no network). Settings stored before providers existed have none: they are `openai-compatible`.
 */
export type ModelProvider = "openai-compatible" | "anthropic" | "gemini" | "on-device";

export const MODEL_PROVIDERS: readonly ModelProvider[] = ["openai-compatible", "anthropic", "gemini", "on-device"];

/**
 * The Base URL an on-device endpoint carries: never fetched (its requests are answered in the worker), and `.invalid`
 * so that nothing could ever resolve it if one slipped out.
 */
export const ON_DEVICE_BASE_URL = "http://on-device.invalid/v1";

/** An endpoint's provider; absent (settings from before providers) means OpenAI-compatible. */
export function providerOf(endpoint: { provider?: ModelProvider | undefined } | undefined): ModelProvider {
  const provider = endpoint?.provider;
  return provider && MODEL_PROVIDERS.includes(provider) ? provider : "openai-compatible";
}

/**
 * How a model is asked to reason, each provider's own switch:
 * - `reasoning-effort`: OpenAI's `reasoning_effort` (low / medium / high by mode);
 * - `enable-thinking`: Qwen's `enable_thinking` in the request body (on in Thinking, Pro, Ultra; off in Flash); for a
 *   model file on this device, in the arguments of its chat template (llama.cpp's `chat_template_kwargs`);
 * - `deepseek`: DeepSeek's reasoner models always reason and send `reasoning_content`; nothing to ask;
 * - `anthropic-thinking`: Anthropic's extended thinking with a token budget by mode;
 * - `gemini-thinking`: Gemini's `thinkingConfig` (a token budget by mode, thoughts included);
 * - `none`: nothing is sent.
 */
export type ReasoningStyle =
  "none" | "reasoning-effort" | "enable-thinking" | "deepseek" | "anthropic-thinking" | "gemini-thinking";

export const REASONING_STYLES: readonly ReasoningStyle[] = [
  "reasoning-effort",
  "enable-thinking",
  "deepseek",
  "anthropic-thinking",
  "gemini-thinking",
  "none",
];

/**
 * The reasoning switch a model of `provider` most likely takes, from its id: Anthropic and Gemini have their own;
 * on OpenAI-compatible endpoints, Qwen models take `enable_thinking`, DeepSeek's reasoners need nothing, and the
 * rest take `reasoning_effort`; on this device, Qwen 3's and QwQ's files take `enable_thinking`, DeepSeek R1's think
 * anyway, and the rest have no switch. Settings → Models shows it as "Auto" and lets the user pick another.
 */
export function detectReasoning(provider: ModelProvider, modelId: string): ReasoningStyle {
  if (provider === "anthropic") return "anthropic-thinking";
  if (provider === "gemini") return "gemini-thinking";
  const id = modelId.toLowerCase();
  if (/deepseek[^/]*(reasoner|r1)|(^|\/)deepseek-r1/.test(id)) return "deepseek";
  // A model file is named by its file: Qwen 3's and QwQ's files take the switch in their chat template.
  if (provider === "on-device") return /^(qwen3|qwq)/.test(id) ? "enable-thinking" : "none";
  if (/(^|\/)(qwen3|qwen-(plus|max|turbo|flash)|qwq)/.test(id)) return "enable-thinking";
  return "reasoning-effort";
}

/** The model's switch: the one chosen in Settings, else the detected one. */
export function reasoningStyleOf(
  provider: ModelProvider,
  entry: { id: string; reasoning?: ReasoningStyle | undefined },
): ReasoningStyle {
  return entry.reasoning && REASONING_STYLES.includes(entry.reasoning)
    ? entry.reasoning
    : detectReasoning(provider, entry.id);
}

/** One model as an endpoint's model list reports it; what the list does not say is left out. */
export interface ListedModel {
  id: string;
  /** Input tokens the model takes (OpenRouter's `context_length`, Gemini's `inputTokenLimit`, …). */
  contextWindow?: number;
  /** It reads images (OpenRouter's `architecture.input_modalities`). */
  vision?: boolean;
  /** It can call tools (OpenRouter's `supported_parameters`); absent when the list does not say. */
  tools?: boolean;
  /** It can reason (OpenRouter's `supported_parameters`, Gemini's `thinking`). */
  thinking?: boolean;
}
