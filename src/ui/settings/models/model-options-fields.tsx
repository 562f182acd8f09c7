// A model's "Options" disclosure in Settings → Models (DeerFlow's per-model config): temperature, max tokens, OpenAI's
// Responses API (OpenAI-compatible endpoints) and the extra request body sent while it reasons. Closed until opened
// or a refused Save marks one of its fields; the row (endpoint-model-list.tsx) hands each change to the tab.
import { createEffect, Show } from "solid-js";
import type { ModelEntry, ModelProvider } from "../../../protocol/index.ts";
import { t } from "../../i18n/index.ts";
import { FieldError } from "../fields/text-field.tsx";
import { extraBodyField, extraBodyText, numberField, numberText, type ModelFormField } from "./model-settings-form.ts";

/** The options' fields, by the id prefix each input has (`settings-<prefix>-<row>`). */
export const OPTION_FIELD_IDS: Partial<Record<ModelFormField, string>> = {
  temperature: "settings-temperature",
  maxTokens: "settings-max-tokens",
  responsesApi: "settings-responses-api",
  thinkingExtraBody: "settings-extra-body",
};

export function ModelOptionsFields(props: {
  entry: ModelEntry;
  /** The row's index, for the fields' ids. */
  row: number;
  provider: ModelProvider;
  /** Whether the disclosure is open: kept by the list, as a change of the model renders its row anew. */
  open: boolean;
  onOpen: (open: boolean) => void;
  onEntry: (change: Partial<ModelEntry>) => void;
  /** What a refused Save found wrong with one of the options. */
  error: (field: ModelFormField) => string | undefined;
}) {
  const id = (field: ModelFormField) => `${OPTION_FIELD_IDS[field]}-${props.row}`;
  const marked = () => (["temperature", "maxTokens", "responsesApi", "thinkingExtraBody"] as const).some(props.error);
  // A marked field is shown: its disclosure opens (and stays as the user leaves it once they fix it).
  createEffect(() => {
    if (marked() && !props.open) props.onOpen(true);
  });
  const describedBy = (field: ModelFormField) => (props.error(field) ? `${id(field)}-error` : undefined);
  const invalid = (field: ModelFormField) => (props.error(field) ? "true" : undefined);
  // The Responses API and the extra body show where the provider takes them, or while on, so they can be cleared.
  const responses = () => props.provider === "openai-compatible" || props.entry.responsesApi === true;
  const extraBody = () => props.provider !== "gemini" || props.entry.thinkingExtraBody !== undefined;
  return (
    <details
      class="model-options"
      open={props.open}
      onToggle={(event) => {
        if (event.currentTarget.open !== props.open) props.onOpen(event.currentTarget.open);
      }}
    >
      <summary>{t("models.options")}</summary>
      <p class="hint">{t("models.optionsHint")}</p>
      <div class="model-options-grid">
        <label>
          {t("models.temperature")}
          <input
            id={id("temperature")}
            type="text"
            inputmode="decimal"
            autocomplete="off"
            placeholder={t("models.defaultPlaceholder")}
            aria-invalid={invalid("temperature")}
            aria-describedby={describedBy("temperature")}
            value={numberText(props.entry.temperature)}
            onChange={(event) => props.onEntry({ temperature: numberField(event.currentTarget.value) })}
          />
        </label>
        <FieldError id={`${id("temperature")}-error`} error={props.error("temperature")} />
        <label>
          {t("models.maxTokens")}
          <input
            id={id("maxTokens")}
            type="text"
            inputmode="numeric"
            autocomplete="off"
            placeholder={t("models.defaultPlaceholder")}
            aria-invalid={invalid("maxTokens")}
            aria-describedby={describedBy("maxTokens")}
            value={numberText(props.entry.maxTokens)}
            onChange={(event) => props.onEntry({ maxTokens: numberField(event.currentTarget.value, true) })}
          />
        </label>
        <FieldError id={`${id("maxTokens")}-error`} error={props.error("maxTokens")} />
      </div>
      <Show when={responses()}>
        <label class="check">
          <input
            id={id("responsesApi")}
            type="checkbox"
            aria-invalid={invalid("responsesApi")}
            aria-describedby={describedBy("responsesApi")}
            checked={props.entry.responsesApi === true}
            onChange={(event) => props.onEntry({ responsesApi: event.currentTarget.checked || undefined })}
          />
          {t("models.responsesApi")}
        </label>
        <FieldError id={`${id("responsesApi")}-error`} error={props.error("responsesApi")} />
      </Show>
      <Show when={extraBody()}>
        <label class="stacked">
          {t("models.thinkingExtraBody")}
          <textarea
            id={id("thinkingExtraBody")}
            rows={3}
            spellcheck={false}
            autocomplete="off"
            placeholder='{"thinking": {"type": "enabled"}}'
            aria-invalid={invalid("thinkingExtraBody")}
            aria-describedby={describedBy("thinkingExtraBody")}
            value={extraBodyText(props.entry.thinkingExtraBody)}
            onChange={(event) => props.onEntry({ thinkingExtraBody: extraBodyField(event.currentTarget.value) })}
          />
        </label>
        <FieldError id={`${id("thinkingExtraBody")}-error`} error={props.error("thinkingExtraBody")} />
      </Show>
    </details>
  );
}
