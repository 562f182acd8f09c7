// Settings → Models and Proxy as data: the endpoints and their models, the relay, the model a run talks to, the
// composer's model choices and DeerFlow's modes.
import type { ModelProvider, ReasoningStyle } from "./model-providers.ts";

/** What a model of the endpoint can do, as the user declared it in Settings → Models. */
export interface ModelEntry {
  id: string;
  /** It can reason before answering (reasoning_effort is sent in the Thinking, Pro and Ultra modes). */
  thinking?: boolean;
  /** It reads images (the agent gets `view_image`). */
  vision?: boolean;
  /** How it is asked to reason; absent: detected from the provider and the id (`reasoningStyleOf`). */
  reasoning?: ReasoningStyle;
  /** Input tokens it takes, from the provider's model list or typed in Settings; absent: unknown. */
  contextWindow?: number;
  /** `false` when it cannot call tools (from the provider's model list or Settings); absent: it can. */
  tools?: boolean;
  /** Sampling temperature, 0–2 (DeerFlow's `temperature`); absent: the provider's default. */
  temperature?: number;
  /** Most tokens a reply may have (DeerFlow's `max_tokens`); absent: the provider's default. */
  maxTokens?: number;
  /** Talk to it through OpenAI's Responses API (`/responses`) instead of chat completions; OpenAI-compatible only. */
  responsesApi?: boolean;
  /**
   * A JSON object merged into each request's body when the run asks it to reason (DeerFlow's
   * `when_thinking_enabled.extra_body`), e.g. `{"thinking": {"type": "enabled"}}`; OpenAI-compatible and Anthropic.
   */
  thinkingExtraBody?: Record<string, unknown>;
}

/** A model endpoint with its own provider, key and models (Settings → Models). */
export interface ModelEndpoint {
  /** Stable id (lowercase letters, digits, dashes), how runs and the composer name it. */
  id: string;
  name: string;
  /** The API it speaks; absent means OpenAI-compatible (settings saved before providers), parsed settings have it. */
  provider?: ModelProvider;
  baseUrl: string;
  apiKey: string;
  /** At least one. */
  models: ModelEntry[];
  /** Requests go through Fawn's CORS relay (Settings → Proxy), for providers that refuse browsers. */
  useProxy?: boolean;
}

/** The endpoints the agent talks to (Settings → Models), all alike, and which of their models is the default. */
export interface ModelSettings {
  /** In the order Settings and the composer list them; API keys are kept apart from the settings, never exported. */
  endpoints: ModelEndpoint[];
  /** The model new messages and memory updates use: one of an endpoint's. Set whenever there is an endpoint. */
  defaultModel?: { endpoint: string; model: string };
  /** Name each thread with a short model-written title after its first exchange (one small extra request). */
  modelTitles?: boolean;
}

/** Fawn's CORS relay (Settings → Proxy), for model endpoints and web services that refuse browsers. */
export interface ProxySettings {
  /** The relay's prefix, e.g. `http://127.0.0.1:8787/forward/`; absent: endpoints use the default relay, web none. */
  url?: string;
  /**
   * The secret `npm run proxy` keeps in its token file, sent (X-Fawn-Proxy-Token) on every request to the proxy's
   * origin and nowhere else. Kept with the API keys: never in a backup or a bundle.
   */
  token?: string;
}

/** One endpoint's model as a run talks to it: the endpoint's address and key, the model, and its abilities. */
export interface ModelTarget {
  /** The endpoint's name. */
  name: string;
  /** The API the endpoint speaks; absent means OpenAI-compatible. */
  provider?: ModelProvider;
  /** Already through the proxy when the endpoint uses it. */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** The endpoint's models (the run's abilities come from its entry). */
  models: ModelEntry[];
  useProxy?: boolean;
  /** The proxy's token, when `useProxy` and one is set: sent only to the proxy (src/shared/proxy-token.ts). */
  proxyToken?: string;
  modelTitles?: boolean;
  /** The model's context window in tokens when known (the model list or Settings); readers default it (128,000). */
  contextWindow?: number;
}

/** Fawn's CORS relay as `npm run proxy` starts it, used when Settings → Proxy names no other. */
export const DEFAULT_PROXY_URL = "http://127.0.0.1:8787/forward/";

/** `baseUrl` through the relay at `proxyUrl` (the relay takes the target URL after its prefix). */
export function proxiedUrl(baseUrl: string, proxyUrl: string | undefined): string {
  const prefix = proxyUrl?.trim() || DEFAULT_PROXY_URL;
  return `${prefix.endsWith("/") ? prefix : `${prefix}/`}${baseUrl}`;
}

/** One model the composer offers. */
export interface ModelChoice {
  /** Unique across endpoints: `@endpoint-id:model-id`. */
  key: string;
  endpoint: string;
  endpointName: string;
  entry: ModelEntry;
}

/** The composer's key of an endpoint's model. */
export function modelChoiceKey(endpoint: string, model: string): string {
  return `@${endpoint}:${model}`;
}

/** Every model of every endpoint, in order; none until a default model is set. */
export function modelChoices(settings: ModelSettings | undefined): ModelChoice[] {
  if (!settings?.defaultModel) return [];
  return settings.endpoints.flatMap((endpoint) =>
    endpoint.models.map((entry) => ({
      key: modelChoiceKey(endpoint.id, entry.id),
      endpoint: endpoint.id,
      endpointName: endpoint.name,
      entry,
    })),
  );
}

/** The key of the default model, when its endpoint still lists it. */
export function defaultModelKey(settings: ModelSettings | undefined): string | undefined {
  const chosen = settings?.defaultModel;
  if (!chosen) return undefined;
  const holder = settings.endpoints.find((endpoint) => endpoint.id === chosen.endpoint);
  return holder?.models.some((entry) => entry.id === chosen.model)
    ? modelChoiceKey(holder.id, chosen.model)
    : undefined;
}

/**
 * The choice with `key`, else the default model. A bare model id (what threads and requests carried before every
 * endpoint had a key) is the first endpoint's model of that id, in Settings' order.
 */
export function modelChoiceFor(settings: ModelSettings | undefined, key: string | undefined): ModelChoice | undefined {
  const choices = modelChoices(settings);
  const exact = choices.find((choice) => choice.key === key);
  if (exact) return exact;
  const byId = key && !key.startsWith("@") ? choices.find((choice) => choice.entry.id === key) : undefined;
  if (byId) return byId;
  const fallback = defaultModelKey(settings);
  return choices.find((choice) => choice.key === fallback);
}

/**
 * DeerFlow's modes: Flash answers fast; Thinking adds reasoning; Pro adds a plan (`write_todos`); Ultra adds
 * subagents. Reasoning applies only to models marked `thinking`.
 */
export type AgentMode = "flash" | "thinking" | "pro" | "ultra";

export const AGENT_MODES: readonly AgentMode[] = ["flash", "thinking", "pro", "ultra"];

/** The mode a new thread starts in: Pro for a model that reasons, else Flash (DeerFlow's default). */
export function defaultMode(entry: ModelEntry | undefined): AgentMode {
  return entry?.thinking ? "pro" : "flash";
}

/**
 * Whether background work (memory updates, follow-up suggestions) may use the target's model. Not a model on this
 * device: each would read the conversation again on the CPU and hold the one loaded model for minutes, keeping the
 * user's next message waiting.
 */
export function servesBackgroundWork<T extends Pick<ModelTarget, "provider">>(target: T | undefined): target is T {
  return target !== undefined && target.provider !== "on-device";
}
