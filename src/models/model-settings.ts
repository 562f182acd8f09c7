// Validation of the model endpoint settings (Settings → Models); bad input is refused before anything is stored.
import { z } from "zod";
import {
  MAIN_ENDPOINT_NAME,
  modelEntryFor,
  proxiedUrl,
  type ModelSettings,
  type RunRequest,
} from "../protocol/index.ts";

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
});

const apiKey = z.string().trim().max(4096, "API key is too long");
const modelList = z.array(modelEntry).max(50, "List at most 50 models per endpoint.");
const endpointName = z
  .string()
  .trim()
  .min(1, "Each endpoint needs a name.")
  .max(40, "An endpoint name is at most 40 characters.");

/** At most this many endpoints besides the main one. */
export const MAX_EXTRA_ENDPOINTS = 10;

const endpoint = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/, "An endpoint id is lowercase letters, digits and dashes."),
  name: endpointName,
  baseUrl: httpUrl,
  apiKey,
  models: modelList,
  useProxy: z.boolean().optional(),
});

/** The models with only the flags that are on, in a stable shape. */
function cleanModels(models: readonly z.infer<typeof modelEntry>[]) {
  return models.map((entry) => ({
    id: entry.id,
    ...(entry.thinking && { thinking: true }),
    ...(entry.vision && { vision: true }),
  }));
}

function duplicateModels(models: readonly { id: string }[], where: string): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const entry of models) {
    if (seen.has(entry.id)) problems.push(`The model ${entry.id} is listed twice${where}.`);
    seen.add(entry.id);
  }
  return problems;
}

export const modelSettingsSchema = z
  .object({
    baseUrl: httpUrl,
    apiKey,
    model: modelId,
    models: modelList.optional(),
    modelTitles: z.boolean().optional(),
    name: z.string().trim().max(40, "An endpoint name is at most 40 characters.").optional(),
    useProxy: z.boolean().optional(),
    endpoints: z
      .array(endpoint)
      .max(MAX_EXTRA_ENDPOINTS, `Add at most ${MAX_EXTRA_ENDPOINTS} more endpoints.`)
      .optional(),
  })
  .superRefine((value, context) => {
    const problems = duplicateModels(value.models ?? [], "");
    const names = new Set([(value.name || MAIN_ENDPOINT_NAME).toLowerCase()]);
    const ids = new Set<string>();
    for (const other of value.endpoints ?? []) {
      if (names.has(other.name.toLowerCase())) problems.push(`Two endpoints are named ${other.name}.`);
      names.add(other.name.toLowerCase());
      if (ids.has(other.id)) problems.push(`Two endpoints have the id ${other.id}.`);
      ids.add(other.id);
      if (other.models.length === 0) problems.push(`List at least one model for ${other.name}.`);
      problems.push(...duplicateModels(other.models, ` for ${other.name}`));
    }
    for (const message of problems) context.addIssue({ code: "custom", message });
  })
  .transform((value) => {
    // The default model is always one of the list, keeping its flags when the list has it.
    const listed = cleanModels(value.models ?? []);
    const models = listed.some((entry) => entry.id === value.model) ? listed : [{ id: value.model }, ...listed];
    const { modelTitles, name, useProxy, endpoints, ...rest } = value;
    return {
      ...rest,
      models,
      ...(modelTitles && { modelTitles: true }),
      ...(name && { name }),
      ...(useProxy && { useProxy: true }),
      ...(endpoints?.length && {
        endpoints: endpoints.map(({ useProxy: proxied, models: own, ...other }) => ({
          ...other,
          models: cleanModels(own),
          ...(proxied && { useProxy: true }),
        })),
      }),
    };
  });

export const EMPTY_MODEL_SETTINGS: ModelSettings = { baseUrl: "", apiKey: "", model: "", models: [] };

export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** Normalizes valid settings (trimmed, no trailing slash) or explains, in one sentence per field, what is wrong. */
export function parseModelSettings(input: unknown): ParseResult<ModelSettings> {
  const result = modelSettingsSchema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, message: result.error.issues.map((issue) => issue.message).join(" ") };
}

/** True when the settings name an endpoint and a model, so a run can start. */
export function isConfigured(settings: ModelSettings): boolean {
  return settings.baseUrl.length > 0 && settings.model.length > 0;
}

/**
 * The settings a run talks to: the endpoint its context names (another endpoint, or the main one), with that
 * endpoint's key and models, the model asked for when the endpoint lists it, and the proxy applied when the endpoint
 * uses it. An unknown endpoint falls back to the main one and its default model.
 */
export function settingsForRun(
  settings: ModelSettings,
  context: RunRequest["context"] | undefined,
  proxyUrl: string | undefined,
): ModelSettings {
  const other = context?.endpoint ? settings.endpoints?.find((found) => found.id === context.endpoint) : undefined;
  if (!other) {
    const { endpoints: _others, ...main } = settings;
    const model = modelEntryFor(settings, context?.model)?.id ?? settings.model;
    return { ...main, model, ...(settings.useProxy && { baseUrl: proxiedUrl(settings.baseUrl, proxyUrl) }) };
  }
  const model = other.models.find((entry) => entry.id === context?.model)?.id ?? other.models[0]?.id ?? "";
  return {
    baseUrl: other.useProxy ? proxiedUrl(other.baseUrl, proxyUrl) : other.baseUrl,
    apiKey: other.apiKey,
    model,
    models: other.models,
    ...(other.useProxy && { useProxy: true }),
    ...(settings.modelTitles && { modelTitles: true }),
  };
}
