// An endpoint's models as its provider lists them, with what the list says of each (context window, vision, tools).
import type { ListedModel, ModelEndpoint, ModelProvider } from "../protocol/index.ts";
import { PROXY_TOKEN_HEADER } from "../shared/proxy-token.ts";
import { ANTHROPIC_BROWSER_HEADER, ANTHROPIC_VERSION, apiRoot } from "./provider-urls.ts";

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : undefined;
}

function byId(models: ListedModel[]): ListedModel[] {
  return models.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * An OpenAI-style list (`{data: [{id, …}]}`), reading what some providers add: OpenRouter's `context_length`,
 * `architecture.input_modalities` and `supported_parameters`; Groq's `context_window`; vLLM's `max_model_len`.
 */
export function parseOpenAiModels(body: unknown): ListedModel[] {
  const data = record(body)?.data;
  if (!Array.isArray(data)) return [];
  const models: ListedModel[] = [];
  for (const item of data) {
    const model = record(item);
    if (!model || typeof model.id !== "string") continue;
    const contextWindow =
      positiveInt(model.context_length) ?? positiveInt(model.context_window) ?? positiveInt(model.max_model_len);
    const modalities = strings(record(model.architecture)?.input_modalities);
    const parameters = strings(model.supported_parameters);
    models.push({
      id: model.id,
      ...(contextWindow !== undefined && { contextWindow }),
      ...(modalities && { vision: modalities.includes("image") }),
      ...(parameters && { tools: parameters.includes("tools") }),
      ...(parameters && { thinking: parameters.includes("reasoning") || parameters.includes("include_reasoning") }),
    });
  }
  return byId(models);
}

/** Anthropic's `GET /v1/models` (`{data: [{type: "model", id, display_name}]}`): ids, and a limit if it gives one. */
export function parseAnthropicModels(body: unknown): ListedModel[] {
  const data = record(body)?.data;
  if (!Array.isArray(data)) return [];
  const models: ListedModel[] = [];
  for (const item of data) {
    const model = record(item);
    if (!model || typeof model.id !== "string") continue;
    const contextWindow = positiveInt(model.max_input_tokens);
    models.push({ id: model.id, ...(contextWindow !== undefined && { contextWindow }) });
  }
  return byId(models);
}

/**
 * Gemini's `GET /v1beta/models` (`{models: [{name: "models/…", inputTokenLimit, supportedGenerationMethods,
 * thinking}]}`): only models that chat (`generateContent`), without the `models/` prefix.
 */
export function parseGeminiModels(body: unknown): ListedModel[] {
  const list = record(body)?.models;
  if (!Array.isArray(list)) return [];
  const models: ListedModel[] = [];
  for (const item of list) {
    const model = record(item);
    if (!model || typeof model.name !== "string") continue;
    const methods = strings(model.supportedGenerationMethods);
    if (methods && !methods.includes("generateContent")) continue;
    const contextWindow = positiveInt(model.inputTokenLimit);
    models.push({
      id: model.name.replace(/^models\//, ""),
      ...(contextWindow !== undefined && { contextWindow }),
      ...(typeof model.thinking === "boolean" && { thinking: model.thinking }),
    });
  }
  return byId(models);
}

/** The list's address and headers for each provider (the key as that provider takes it). */
function listRequest(provider: ModelProvider, baseUrl: string, apiKey: string): { url: string; headers: HeadersInit } {
  const root = apiRoot(provider, baseUrl);
  const headers: Record<string, string> = { accept: "application/json" };
  if (provider === "anthropic") {
    if (apiKey) headers["x-api-key"] = apiKey;
    headers["anthropic-version"] = ANTHROPIC_VERSION;
    headers[ANTHROPIC_BROWSER_HEADER] = "true";
    return { url: `${root}/v1/models?limit=1000`, headers };
  }
  if (provider === "gemini") {
    if (apiKey) headers["x-goog-api-key"] = apiKey;
    return { url: `${root}/v1beta/models?pageSize=1000`, headers };
  }
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  return { url: `${root}/models`, headers };
}

const PARSERS: Record<ModelProvider, (body: unknown) => ListedModel[]> = {
  "openai-compatible": parseOpenAiModels,
  anthropic: parseAnthropicModels,
  gemini: parseGeminiModels,
  "on-device": parseOpenAiModels,
};

/**
 * The endpoint's models from its provider's list (`baseUrl` already through the proxy when it uses it). A refusal
 * throws an error with the `status` and the provider's error body (`error`), for describeModelError.
 */
export async function fetchModels(
  endpoint: Pick<ModelEndpoint, "baseUrl" | "apiKey"> & { provider: ModelProvider; proxyToken?: string },
  fetchImpl: typeof fetch = fetch,
): Promise<ListedModel[]> {
  const { url, headers } = listRequest(endpoint.provider, endpoint.baseUrl, endpoint.apiKey);
  // The base URL already names the proxy when the endpoint goes through it: the token goes there, with the list.
  const response = await fetchImpl(url, {
    headers: endpoint.proxyToken ? { ...headers, [PROXY_TOKEN_HEADER]: endpoint.proxyToken } : headers,
  });
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    const providerError = record(record(body)?.error);
    const said = typeof providerError?.message === "string" ? ` ${providerError.message}` : "";
    const error = new Error(`GET models answered ${response.status} ${response.statusText}.${said}`.trim());
    Object.assign(error, { status: response.status, ...(body !== undefined && { error: body }) });
    throw error;
  }
  return PARSERS[endpoint.provider](await response.json());
}
