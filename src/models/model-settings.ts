// Validation of the model endpoint settings (Settings → Models) and of the proxy (Settings → Proxy); bad input is
// refused before anything is stored.
import { z } from "zod";
import {
  DEFAULT_PROXY_URL,
  MODEL_PROVIDERS,
  modelChoiceFor,
  providerOf,
  proxiedUrl,
  REASONING_STYLES,
  type ModelEntry,
  type ModelSettings,
  type ModelTarget,
  type ProxySettings,
  type RunRequest,
} from "../protocol/index.ts";
import { goesToProxy } from "../shared/proxy-token.ts";
import { modelOptionSentences, modelOptionsOf } from "./model-options.ts";

const httpUrl = z
  .string()
  .trim()
  .min(1, "Base URL is required, for example https://api.openai.com/v1")
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: "Base URL must be an http:// or https:// address, for example https://api.openai.com/v1",
  })
  .transform((value) => value.replace(/\/+$/, ""));

const modelId = z
  .string()
  .trim()
  .min(1, "A model name is required, for example gpt-4o-mini")
  .max(200, "Model name is too long");

const modelEntry = z.object({
  id: modelId,
  thinking: z.boolean().optional(),
  vision: z.boolean().optional(),
  reasoning: z.enum(REASONING_STYLES, { error: "Pick a reasoning switch from the list." }).optional(),
  contextWindow: z
    .number({ error: "A context window is a number of tokens." })
    .int("A context window is a whole number of tokens.")
    .min(1_000, "A context window is at least 1,000 tokens.")
    .max(100_000_000, "A context window is at most 100,000,000 tokens.")
    .optional(),
  tools: z.boolean().optional(),
  // Their ranges and the provider's say are checked with the endpoint (modelOptionIssues), naming the model.
  temperature: z.number().optional(),
  maxTokens: z.number().optional(),
  responsesApi: z.boolean().optional(),
  thinkingExtraBody: z.unknown().optional(),
});

/** At most this many endpoints. */
export const MAX_ENDPOINTS = 11;

/** The id Settings gives the first endpoint; later ones get `endpoint-2`, `endpoint-3`… (see nextEndpointId). */
export const FIRST_ENDPOINT_ID = "main";

const endpoint = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/, "An endpoint id is lowercase letters, digits and dashes."),
  name: z.string().trim().min(1, "Each endpoint needs a name.").max(40, "An endpoint name is at most 40 characters."),
  // Absent in settings saved before providers: those endpoints are OpenAI-compatible.
  provider: z
    .enum(MODEL_PROVIDERS, { error: "The provider is OpenAI-compatible, Anthropic, Gemini or On this device." })
    .optional(),
  baseUrl: httpUrl,
  apiKey: z.string().trim().max(4096, "API key is too long"),
  models: z.array(modelEntry).max(50, "List at most 50 models per endpoint."),
  useProxy: z.boolean().optional(),
});

export const modelSettingsSchema = z
  .object({
    endpoints: z.array(endpoint).max(MAX_ENDPOINTS, `List at most ${MAX_ENDPOINTS} endpoints.`),
    defaultModel: z.object({ endpoint: z.string(), model: modelId }).optional(),
    modelTitles: z.boolean().optional(),
  })
  .superRefine((value, context) => {
    const problems: string[] = [];
    const names = new Set<string>();
    const ids = new Set<string>();
    for (const other of value.endpoints) {
      if (names.has(other.name.toLowerCase())) problems.push(`Two endpoints are named ${other.name}.`);
      names.add(other.name.toLowerCase());
      if (ids.has(other.id)) problems.push(`Two endpoints have the id ${other.id}.`);
      ids.add(other.id);
      if (other.models.length === 0) problems.push(`List at least one model for ${other.name}.`);
      const seen = new Set<string>();
      for (const entry of other.models) {
        if (seen.has(entry.id)) problems.push(`The model ${entry.id} is listed twice for ${other.name}.`);
        seen.add(entry.id);
        problems.push(...modelOptionSentences(providerOf(other), other.name, entry as ModelEntry));
      }
    }
    const chosen = value.defaultModel;
    if (chosen) {
      const holder = value.endpoints.find((other) => other.id === chosen.endpoint);
      if (!holder) problems.push("The default model belongs to an endpoint that is no longer listed; pick another.");
      else if (!holder.models.some((entry) => entry.id === chosen.model)) {
        problems.push(`The default model ${chosen.model} is not listed for ${holder.name}; pick another.`);
      }
    } else if (value.endpoints.length > 0) {
      problems.push("Choose the default model.");
    }
    for (const message of problems) context.addIssue({ code: "custom", message });
  })
  .transform((value): ModelSettings => ({
    endpoints: value.endpoints.map(({ useProxy, models, provider, ...other }) => ({
      ...other,
      provider: providerOf({ provider }),
      // Only the flags that are on (and what differs from the default), in a stable shape.
      models: models.map((entry) => ({
        id: entry.id,
        ...(entry.thinking && { thinking: true }),
        ...(entry.vision && { vision: true }),
        ...(entry.reasoning && { reasoning: entry.reasoning }),
        ...(entry.contextWindow !== undefined && { contextWindow: entry.contextWindow }),
        ...(entry.tools === false && { tools: false }),
        ...modelOptionsOf(entry as ModelEntry),
      })),
      ...(useProxy && { useProxy: true }),
    })),
    ...(value.defaultModel && { defaultModel: value.defaultModel }),
    ...(value.modelTitles && { modelTitles: true }),
  }));

export const EMPTY_MODEL_SETTINGS: Readonly<ModelSettings> = { endpoints: [] };

export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** Normalizes valid settings (trimmed, no trailing slash) or explains, in one sentence per field, what is wrong. */
export function parseModelSettings(input: unknown): ParseResult<ModelSettings> {
  const result = modelSettingsSchema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, message: result.error.issues.map((issue) => issueSentence(issue, input)).join(" ") };
}

/**
 * A problem as a sentence: zod's own words for a missing or mistyped field ("expected string, received undefined")
 * become the field's name and what is wrong with it.
 */
function issueSentence(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code !== "invalid_type") return issue.message;
  const field = issue.path.map(String).join(".") || "The settings";
  const found = issue.path.reduce<unknown>(
    (node, key) => (node as Record<PropertyKey, unknown> | undefined)?.[key],
    input,
  );
  return found === undefined ? `${field} is missing.` : `${field} is not a ${issue.expected}.`;
}

/** True when the settings name a default model, so a run can start. */
export function isConfigured(settings: ModelSettings): boolean {
  return modelChoiceFor(settings, undefined) !== undefined;
}

/**
 * The endpoint and model a run talks to, with that endpoint's key and models, through the proxy when the endpoint
 * uses it. A context naming an endpoint gets that endpoint's model (its first when it lacks the one asked for); a
 * bare model id is looked up as the composer does (`modelChoiceFor`); no choice, an unknown one, or an endpoint that
 * is gone, gets the default model. Undefined until a default model is set.
 */
export function targetForRun(
  settings: ModelSettings,
  context: RunRequest["context"] | undefined,
  proxyUrl: string | undefined,
  proxyToken?: string,
): ModelTarget | undefined {
  const named = context?.endpoint ? settings.endpoints.find((found) => found.id === context.endpoint) : undefined;
  let holder = named;
  let model = named && (named.models.find((entry) => entry.id === context?.model)?.id ?? named.models[0]?.id);
  if (!holder || !model) {
    // An endpoint that is gone takes its model's meaning with it: the default model.
    const choice = modelChoiceFor(settings, context?.endpoint ? undefined : context?.model);
    if (!choice) return undefined;
    holder = settings.endpoints.find((found) => found.id === choice.endpoint);
    model = choice.entry.id;
  }
  if (!holder) return undefined;
  const contextWindow = holder.models.find((entry) => entry.id === model)?.contextWindow;
  return {
    name: holder.name,
    provider: providerOf(holder),
    baseUrl: holder.useProxy ? proxiedUrl(holder.baseUrl, proxyUrl) : holder.baseUrl,
    apiKey: holder.apiKey,
    model,
    models: holder.models,
    ...(holder.useProxy && { useProxy: true }),
    // The token goes to the proxy alone: through "Use the proxy", or a Base URL written with the proxy's address.
    ...(proxyToken &&
      (holder.useProxy || goesToProxy(holder.baseUrl, proxyUrl?.trim() || DEFAULT_PROXY_URL)) && { proxyToken }),
    ...(settings.modelTitles && { modelTitles: true }),
    ...(contextWindow !== undefined && { contextWindow }),
  };
}

const PROXY_EXAMPLE = "http://127.0.0.1:8787/forward/";

/**
 * The proxy prefix, ready to have a target URL appended: Fawn's proxy given by its bare address gets its
 * `/forward/` path; any other prefix ends with `/` unless it ends a query (`?url=`).
 */
export function normalizeProxyUrl(value: string): string {
  const url = new URL(value);
  if (url.pathname === "/" && url.search === "") return `${url.origin}/forward/`;
  return /[/?=]$/.test(value) ? value : `${value}/`;
}

const proxySettingsSchema = z
  .object({
    url: z
      .string({ error: "The proxy URL must be text." })
      .trim()
      .optional()
      .refine((value) => !value || (URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)), {
        message: `The proxy URL must be an http:// or https:// address, e.g. ${PROXY_EXAMPLE}.`,
      }),
    token: z
      .string({ error: "The proxy token must be text." })
      .trim()
      .optional()
      .refine((value) => !value || /^[A-Za-z0-9_-]{22,}$/.test(value), {
        message:
          "The proxy token is the text of the proxy's token file (letters, digits, - and _, at least 22): " +
          "the proxy names that file when it starts.",
      }),
  })
  .transform((value): ProxySettings => ({
    ...(value.url && { url: normalizeProxyUrl(value.url) }),
    ...(value.token && { token: value.token }),
  }));

/** A normalized proxy setting (a bare address gets Fawn's /forward/ path; blank means none), or why it is wrong. */
export function parseProxySettings(input: unknown): ParseResult<ProxySettings> {
  const result = proxySettingsSchema.safeParse(input ?? {});
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, message: result.error.issues.map((issue) => issueSentence(issue, input)).join(" ") };
}
