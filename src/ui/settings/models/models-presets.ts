// The endpoints Settings → Models offers as one-click presets: a provider, its Base URL, and whether it refuses
// browsers (then "Use the proxy" is switched on when it is chosen).
import type { ModelEndpoint, ModelProvider } from "../../../protocol/index.ts";

export interface ModelPreset {
  /** The button's label, also the endpoint's name when it still has its placeholder name. */
  name: string;
  provider: ModelProvider;
  baseUrl: string;
  /**
   * The provider refuses requests from a browser page (no CORS answer, or not for the headers the SDK sends), or we
   * could not confirm it accepts them: choosing it switches "Use the proxy" on.
   */
  refusesBrowsers?: boolean;
  /** A local server: its own setting allows this page (Ollama's OLLAMA_ORIGINS, LM Studio's CORS switch). */
  local?: boolean;
  /** Only for people working on Fawn itself: offered apart, under "For developers". */
  developer?: boolean;
}

/**
 * Browser access as the providers document it or users report it: OpenAI, OpenRouter, Groq, Anthropic (with its
 * browser header) and Gemini answer CORS; Mistral refuses the OpenAI SDK's `x-stainless-*` headers; DeepSeek,
 * Together and xAI are unconfirmed, so they are marked conservatively.
 */
export const PRESETS: readonly ModelPreset[] = [
  { name: "OpenAI", provider: "openai-compatible", baseUrl: "https://api.openai.com/v1" },
  { name: "Anthropic", provider: "anthropic", baseUrl: "https://api.anthropic.com" },
  { name: "Gemini", provider: "gemini", baseUrl: "https://generativelanguage.googleapis.com" },
  { name: "OpenRouter", provider: "openai-compatible", baseUrl: "https://openrouter.ai/api/v1" },
  { name: "DeepSeek", provider: "openai-compatible", baseUrl: "https://api.deepseek.com/v1", refusesBrowsers: true },
  { name: "Groq", provider: "openai-compatible", baseUrl: "https://api.groq.com/openai/v1" },
  { name: "Mistral", provider: "openai-compatible", baseUrl: "https://api.mistral.ai/v1", refusesBrowsers: true },
  { name: "Together", provider: "openai-compatible", baseUrl: "https://api.together.xyz/v1", refusesBrowsers: true },
  { name: "xAI", provider: "openai-compatible", baseUrl: "https://api.x.ai/v1", refusesBrowsers: true },
  { name: "Ollama", provider: "openai-compatible", baseUrl: "http://localhost:11434/v1", local: true },
  { name: "LM Studio", provider: "openai-compatible", baseUrl: "http://localhost:1234/v1", local: true },
  { name: "vLLM", provider: "openai-compatible", baseUrl: "http://localhost:8000/v1", local: true },
  // Fawn's scripted test model (test/mock-llm), for people working on Fawn: listed under "For developers".
  { name: "Mock model", provider: "openai-compatible", baseUrl: "http://127.0.0.1:11435/v1", developer: true },
];

/** The preset whose API host `baseUrl` is on (a Base URL typed by hand counts too), if any. */
export function presetFor(baseUrl: string): ModelPreset | undefined {
  if (!URL.canParse(baseUrl)) return undefined;
  const host = new URL(baseUrl).host;
  return PRESETS.find((preset) => !preset.local && new URL(preset.baseUrl).host === host);
}

/** True when requests to `baseUrl` need Fawn's proxy because its provider refuses browsers. */
export function refusesBrowsers(baseUrl: string): boolean {
  return presetFor(baseUrl)?.refusesBrowsers === true;
}

/** What choosing a preset changes: provider, Base URL, and "Use the proxy" on for a provider that refuses browsers. */
export function presetChange(preset: ModelPreset): Partial<ModelEndpoint> {
  return {
    provider: preset.provider,
    baseUrl: preset.baseUrl,
    ...(preset.refusesBrowsers ? { useProxy: true } : {}),
  };
}
