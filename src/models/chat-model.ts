// The chat-model factory: any OpenAI-compatible endpoint through @langchain/openai (docs/architecture.md#d6-models-and-keys).
import { ChatOpenAI } from "@langchain/openai";
import type { ModelEndpoint, ModelTarget } from "../protocol/index.ts";

/** A key for endpoints that need none (Ollama, LM Studio, the mock); the OpenAI client refuses an empty one. */
const NO_KEY = "no-key";

export interface ChatModelOptions {
  /** Another model of the same endpoint than the default one. */
  model?: string;
  /** Sent as `reasoning_effort`, only to models marked as reasoning. */
  reasoningEffort?: "low" | "medium" | "high";
}

export function createChatModel(settings: ModelTarget, options: ChatModelOptions = {}): ChatOpenAI {
  return new ChatOpenAI({
    model: options.model ?? settings.model,
    // Sent as is: langchain's `reasoning` option only reaches models it knows by name (o1, gpt-5…), while users
    // mark their own reasoning models (DeepSeek, Qwen, local ones) in Settings → Models.
    ...(options.reasoningEffort && { modelKwargs: { reasoning_effort: options.reasoningEffort } }),
    apiKey: settings.apiKey || NO_KEY,
    configuration: { baseURL: settings.baseUrl, dangerouslyAllowBrowser: true },
    streaming: true,
    streamUsage: true,
    useResponsesApi: false,
    // Retrying with backoff belongs to the model-error middleware (src/agent/middlewares/model-errors.ts).
    maxRetries: 0,
  });
}

/** Model ids from `GET {baseUrl}/models` (OpenAI list shape). */
export async function fetchModelIds(
  endpoint: Pick<ModelEndpoint, "baseUrl" | "apiKey">,
  fetchImpl: typeof fetch = fetch,
): Promise<string[]> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  const response = await fetchImpl(`${endpoint.baseUrl.replace(/\/+$/, "")}/models`, { headers });
  if (!response.ok) {
    const error = new Error(`GET /models answered ${response.status} ${response.statusText}`.trim());
    Object.assign(error, { status: response.status });
    throw error;
  }
  const body: unknown = await response.json();
  const data = typeof body === "object" && body !== null ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) return [];
  return data
    .map((item: unknown) => (typeof item === "object" && item !== null ? (item as { id?: unknown }).id : undefined))
    .filter((id): id is string => typeof id === "string")
    .sort();
}
