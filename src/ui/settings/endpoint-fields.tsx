// One endpoint's own fields in Settings → Models: its name, a preset address, Base URL, API key, the proxy switch and
// its first model (typed, or picked from what "List models" offered).
import { For } from "solid-js";
import type { ModelEndpoint } from "../../protocol/index.ts";
import { t } from "../i18n/index.ts";
import { PRESETS } from "./models-presets.ts";
import { TextField } from "./text-field.tsx";

export function EndpointFields(props: {
  endpoint: ModelEndpoint;
  onChange: (change: Partial<ModelEndpoint>) => void;
  /** The endpoint's first model, what the "Model" field edits. */
  firstModel: string;
  onFirstModel: (id: string) => void;
  onListModels: () => void;
  /** Model ids "List models" found, suggested in the Model field. */
  offered: string[];
}) {
  return (
    <>
      <div class="field">
        <label for="settings-endpoint-name">{t("models.endpointName")}</label>
        <input
          id="settings-endpoint-name"
          type="text"
          autocomplete="off"
          value={props.endpoint.name}
          onInput={(event) => props.onChange({ name: event.currentTarget.value })}
        />
      </div>
      <div class="presets" role="group" aria-label={t("models.presets")}>
        <For each={PRESETS}>
          {(preset) => (
            <button type="button" class="chip" onClick={() => props.onChange({ baseUrl: preset.baseUrl })}>
              {preset.name}
            </button>
          )}
        </For>
      </div>
      <TextField
        id="settings-base-url"
        label={t("models.baseUrl")}
        kind="url"
        placeholder="https://api.openai.com/v1"
        value={props.endpoint.baseUrl}
        onInput={(baseUrl) => props.onChange({ baseUrl })}
      />
      <TextField
        id="settings-api-key"
        label={t("models.apiKey")}
        kind="key"
        placeholder={t("models.apiKeyPlaceholder")}
        value={props.endpoint.apiKey}
        onInput={(apiKey) => props.onChange({ apiKey })}
      />
      <label class="check">
        <input
          type="checkbox"
          checked={props.endpoint.useProxy === true}
          onChange={(event) => props.onChange({ useProxy: event.currentTarget.checked })}
        />
        {t("models.useProxy")}
      </label>
      <p class="hint">{t("models.useProxyHint")}</p>
      <div class="field">
        <label for="settings-model">{t("models.model")}</label>
        <div class="inline">
          <input
            id="settings-model"
            type="text"
            name="model"
            list="model-options"
            autocomplete="off"
            spellcheck={false}
            placeholder="gpt-4o-mini"
            value={props.firstModel}
            onInput={(event) => props.onFirstModel(event.currentTarget.value)}
          />
          <button type="button" class="ghost" onClick={() => props.onListModels()}>
            {t("models.listModels")}
          </button>
        </div>
      </div>
      <datalist id="model-options">
        <For each={props.offered}>{(id) => <option value={id} />}</For>
      </datalist>
    </>
  );
}
