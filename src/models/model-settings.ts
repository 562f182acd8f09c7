// Validation of the model endpoint settings (Settings → Models); bad input is refused before anything is stored.
import { z } from "zod";
import {
  MAIN_ENDPOINT_NAME,
  modelChoiceFor,
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
    defaultModel: z.object({ endpoint: z.string(), model: modelId }).optional(),
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
    const chosen = value.defaultModel;
    if (chosen) {
      const holder = value.endpoints?.find((other) => other.id === chosen.endpoint);
      if (!holder) problems.push("The default model belongs to an endpoint that is no longer listed; pick another.");
      else if (!holder.models.some((entry) => entry.id === chosen.model)) {
        problems.push(`The default model ${chosen.model} is not listed for ${holder.name}; pick another.`);
      }
    }
    for (const message of problems) context.addIssue({ code: "custom", message });
  })
  .transform((value) => {
    // The default model is always one of the list, keeping its flags when the list has it.
    const listed = cleanModels(value.models ?? []);
    const models = listed.some((entry) => entry.id === value.model) ? listed : [{ id: value.model }, ...listed];
    const { modelTitles, name, useProxy, endpoints, defaultModel, ...rest } = value;
    return {
      ...rest,
      models,
      ...(defaultModel && { defaultModel }),
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
 * The settings a run talks to: the endpoint and model its context names, with that endpoint's key and models, and the
 * proxy applied when the endpoint uses it. A context naming another endpoint gets that endpoint's model (its first
 * when it lacks the one asked for); a bare model id is looked up as the composer does (`modelChoiceFor`); no choice,
 * an unknown one, or an endpoint that is gone, gets the default model, whichever endpoint holds it.
 */
export function settingsForRun(
  settings: ModelSettings,
  context: RunRequest["context"] | undefined,
  proxyUrl: string | undefined,
): ModelSettings {
  const named = context?.endpoint ? settings.endpoints?.find((found) => found.id === context.endpoint) : undefined;
  let endpointId: string | undefined;
  let model: string;
  if (named) {
    endpointId = named.id;
    model = named.models.find((entry) => entry.id === context?.model)?.id ?? named.models[0]?.id ?? "";
  } else {
    // An endpoint that is gone takes its model's meaning with it: the default model.
    const choice = modelChoiceFor(settings, context?.endpoint ? undefined : context?.model);
    endpointId = choice?.endpoint;
    model = choice?.entry.id ?? settings.model;
  }
  const other = endpointId ? settings.endpoints?.find((found) => found.id === endpointId) : undefined;
  if (!other) {
    const { endpoints: _others, defaultModel: _default, ...main } = settings;
    return { ...main, model, ...(settings.useProxy && { baseUrl: proxiedUrl(settings.baseUrl, proxyUrl) }) };
  }
  return {
    name: other.name,
    baseUrl: other.useProxy ? proxiedUrl(other.baseUrl, proxyUrl) : other.baseUrl,
    apiKey: other.apiKey,
    model,
    models: other.models,
    ...(other.useProxy && { useProxy: true }),
    ...(settings.modelTitles && { modelTitles: true }),
  };
}
