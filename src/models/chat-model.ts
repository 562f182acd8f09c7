// The chat-model factory: OpenAI-compatible endpoints through @langchain/openai, Anthropic's Messages API and Google's
// Gemini API through their LangChain SDKs, each loaded on first use (docs/architecture.md#d6-models-and-keys).
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type * as OpenAiModule from "@langchain/openai";
import type { ChatOpenAI } from "@langchain/openai";
import {
  providerOf,
  type ModelEndpoint,
  type ModelEntry,
  type ModelProgressEvent,
  type ModelTarget,
} from "../protocol/index.ts";
import { PROXY_TOKEN_HEADER } from "../shared/proxy-token.ts";
import { fetchModels } from "./fetch-models.ts";
import { apiRoot } from "./provider-urls.ts";
import { anthropicFields, geminiFields, openAiFields } from "./model-options.ts";
import type { ReasoningEffort } from "./reasoning.ts";
import { MODEL_STALL_MS, stallGuardedFetch } from "./stall-guard.ts";
import { anthropicCountingOutputOnce, completionsReadingEveryField } from "./wire-fixes.ts";
import { loadDeviceEngine } from "./on-device/device-source.ts";
import { DEVICE_CONTEXT_WINDOW } from "../protocol/index.ts";

/** A key for endpoints that need none (Ollama, LM Studio, the mock); the OpenAI client refuses an empty one. */
const NO_KEY = "no-key";

export interface ChatModelOptions {
  /** Another model of the same endpoint than the default one. */
  model?: string;
  /**
   * How hard the model reasons (the Mode's: Thinking low, Pro medium, Ultra high), only for models marked as
   * reasoning; each provider's switch (`reasoningRequest`) turns it into its own request field.
   */
  reasoningEffort?: ReasoningEffort;
  /**
   * The fetch the client sends its requests with (the server's guarded one: server/outbound.ts); default the global
   * fetch. Gemini's SDK takes none, so its requests use the global fetch.
   */
  fetch?: typeof fetch;
  /**
   * The stall limit (MODEL_STALL_MS unless said): how long the endpoint may send nothing before the request fails with
   * a ModelStallError. Gemini's SDK takes no fetch, so its requests have none.
   */
  stallMs?: number;
  /** Told what a model on this device does before its reply's first word (the run shows it); other models say nothing. */
  onProgress?: (progress: Omit<ModelProgressEvent, "type">) => void;
}

/** The fetch a model client sends with: the caller's (or the global one), under the stall limit. */
function modelFetch(options: ChatModelOptions): typeof fetch {
  const base = options.fetch ?? ((input, init) => fetch(input, init));
  return stallGuardedFetch(base, options.stallMs ?? MODEL_STALL_MS);
}

/** The proxy's token as a header, when the target goes through the proxy (its base URL names the proxy). */
function proxyHeaders(target: ModelTarget): Record<string, string> | undefined {
  return target.proxyToken ? { [PROXY_TOKEN_HEADER]: target.proxyToken } : undefined;
}

/** The model's entry in the target's list (its abilities and reasoning switch), or a bare one. */
function entryOf(target: ModelTarget, model: string): ModelEntry {
  return target.models.find((entry) => entry.id === model) ?? { id: model };
}

/**
 * Fetches @langchain/openai (with the `openai` SDK, the agent worker's largest part) once; the worker calls it as
 * soon as it is up, so it is there before a first message needs it without delaying the worker's first answer.
 */
export function loadOpenAi(): Promise<typeof OpenAiModule> {
  return (openAi ??= import("@langchain/openai").catch((error: unknown) => {
    openAi = undefined;
    throw error;
  }));
}
let openAi: Promise<typeof OpenAiModule> | undefined;

/** An OpenAI-compatible endpoint's model (its SDK is a chunk of its own: loadOpenAi). */
export async function createOpenAiModel(target: ModelTarget, options: ChatModelOptions = {}): Promise<ChatOpenAI> {
  const { ChatOpenAI, ChatOpenAICompletions } = await loadOpenAi();
  const model = options.model ?? target.model;
  const fields = {
    model,
    // The reasoning switch goes in modelKwargs, sent as is: langchain's `reasoning` option only reaches models it
    // knows by name (o1, gpt-5…), while users mark their own reasoning models (DeepSeek, Qwen, local ones) in
    // Settings → Models. The entry's temperature, max tokens, Responses API and extra body when thinking too.
    ...openAiFields(
      entryOf(target, model),
      options.reasoningEffort,
      providerOf(target) === "on-device" ? "on-device" : "openai-compatible",
    ),
    apiKey: target.apiKey || NO_KEY,
    configuration: {
      baseURL: target.baseUrl,
      dangerouslyAllowBrowser: true,
      ...(target.proxyToken && { defaultHeaders: proxyHeaders(target) }),
      fetch: modelFetch(options),
    },
    streaming: true,
    streamUsage: true,
    // Retrying with backoff belongs to the model-error middleware (src/agent/middlewares/model-retry.ts).
    maxRetries: 0,
  };
  const Completions = completionsReadingEveryField(ChatOpenAICompletions);
  return new ChatOpenAI({ ...fields, completions: new Completions(fields) });
}

async function createAnthropicModel(target: ModelTarget, options: ChatModelOptions): Promise<BaseChatModel> {
  // Its own chunk: the agent worker's first chunk stays within its size budget (scripts/size.ts).
  const { ChatAnthropic } = await import("@langchain/anthropic");
  const model = options.model ?? target.model;
  const fields = anthropicFields(entryOf(target, model), options.reasoningEffort);
  const Anthropic = anthropicCountingOutputOnce(ChatAnthropic);
  return new Anthropic({
    model,
    apiKey: target.apiKey || NO_KEY,
    anthropicApiUrl: apiRoot("anthropic", target.baseUrl),
    // The SDK refuses to run in a browser without it; with it, it sends the header Anthropic's API asks browsers for
    // (ANTHROPIC_BROWSER_HEADER).
    clientOptions: {
      dangerouslyAllowBrowser: true,
      ...(target.proxyToken && { defaultHeaders: proxyHeaders(target) }),
      fetch: modelFetch(options),
    },
    ...fields,
    streaming: true,
    streamUsage: true,
    maxRetries: 0,
  });
}

async function createGeminiModel(target: ModelTarget, options: ChatModelOptions): Promise<BaseChatModel> {
  const { ChatGoogleGenerativeAI } = await import("@langchain/google-genai");
  const model = options.model ?? target.model;
  const fields = geminiFields(entryOf(target, model), options.reasoningEffort);
  return new ChatGoogleGenerativeAI({
    model,
    apiKey: target.apiKey || NO_KEY,
    baseUrl: apiRoot("gemini", target.baseUrl),
    ...(target.proxyToken && { customHeaders: proxyHeaders(target) }),
    ...fields,
    streaming: true,
    streamUsage: true,
    maxRetries: 0,
  });
}

/**
 * A model file of this browser's, run on this device: the OpenAI client, answered in this worker (device-fetch.ts).
 * A CPU may take minutes over a long prompt before its first token, so its stall limit is long (DEVICE_STALL_MS).
 */
async function createDeviceModel(target: ModelTarget, options: ChatModelOptions): Promise<BaseChatModel> {
  const [deviceEngine, { deviceFetch }] = await Promise.all([
    loadDeviceEngine(),
    import("./on-device/device-fetch.ts"),
  ]);
  const contextWindow = (model: string) => entryOf(target, model).contextWindow ?? DEVICE_CONTEXT_WINDOW;
  return createOpenAiModel(target, {
    ...options,
    fetch: deviceFetch(deviceEngine, contextWindow, options.onProgress),
    stallMs: Math.max(options.stallMs ?? 0, DEVICE_STALL_MS),
  });
}

/**
 * How long an on-device model may say nothing before the request fails: there is no network to stall, but a CPU may
 * read a long prompt for many minutes (on the 2-core machine of docs/performance.md a 0.5 B model reads 5.3 tokens/s,
 * 14 min over Fawn's 4,500-token prompt; a 1.5 B one 2.3 tokens/s, 33 min). Stop ends it at any time.
 */
const DEVICE_STALL_MS = 60 * 60_000;

/**
 * The chat model of a run's target, in its endpoint's provider's wire format. Each provider's SDK is imported the first
 * time one of its models is used (OpenAI's is usually fetched already: loadOpenAi).
 */
export async function createChatModel(target: ModelTarget, options: ChatModelOptions = {}): Promise<BaseChatModel> {
  switch (providerOf(target)) {
    case "anthropic":
      return createAnthropicModel(target, options);
    case "gemini":
      return createGeminiModel(target, options);
    case "on-device":
      return createDeviceModel(target, options);
    default:
      return createOpenAiModel(target, options);
  }
}

/** Model ids the endpoint's provider lists (see fetchModels for what else the list says). */
export async function fetchModelIds(
  endpoint: Pick<ModelEndpoint, "baseUrl" | "apiKey" | "provider">,
  fetchImpl: typeof fetch = fetch,
): Promise<string[]> {
  const models = await fetchModels({ ...endpoint, provider: providerOf(endpoint) }, fetchImpl);
  return models.map((model) => model.id);
}

/** Makes a run's chat model: `createChatModel`, or a test's fake (which may answer at once). */
export type ChatModelFactory = (
  target: ModelTarget,
  options?: ChatModelOptions,
) => BaseChatModel | Promise<BaseChatModel>;
