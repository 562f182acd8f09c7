// Validation of the model endpoint settings (Settings → Models); bad input is refused before anything is stored.
import { z } from "zod";
import type { ModelSettings } from "../protocol/index.ts";

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

export const modelSettingsSchema = z
  .object({
    baseUrl: httpUrl,
    apiKey: z.string().trim().max(4096, "API key is too long"),
    model: modelId,
    models: z.array(modelEntry).max(50, "List at most 50 models per endpoint.").optional(),
    modelTitles: z.boolean().optional(),
  })
  .superRefine((value, context) => {
    const seen = new Set<string>();
    for (const entry of value.models ?? []) {
      if (seen.has(entry.id)) context.addIssue({ code: "custom", message: `The model ${entry.id} is listed twice.` });
      seen.add(entry.id);
    }
  })
  .transform((value) => {
    // The default model is always one of the list, keeping its flags when the list has it.
    const listed = (value.models ?? []).map((entry) => ({
      id: entry.id,
      ...(entry.thinking && { thinking: true }),
      ...(entry.vision && { vision: true }),
    }));
    const models = listed.some((entry) => entry.id === value.model) ? listed : [{ id: value.model }, ...listed];
    const { modelTitles, ...rest } = value;
    return { ...rest, models, ...(modelTitles && { modelTitles: true }) };
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
