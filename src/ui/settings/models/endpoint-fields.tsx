// One endpoint's own fields in Settings → Models: its name, a preset, its provider, Base URL, API key, the proxy switch
// (with why it is on for providers that refuse browsers) and its first model (typed, or picked from "List models").
import { For, Show } from "solid-js";
import {
  MODEL_PROVIDERS,
  ON_DEVICE_BASE_URL,
  providerOf,
  type ModelEndpoint,
  type ModelProvider,
} from "../../../protocol/index.ts";
import { DeviceModels } from "./device-models.tsx";
import { t } from "../../i18n/index.ts";
import { presetChange, PRESETS, presetFor } from "./models-presets.ts";
import { FieldError, TextField } from "../fields/text-field.tsx";

/**
 * What choosing a provider changes: an empty Base URL gets that provider's own (Anthropic's, Gemini's). "On this
 * device" needs no address, key or proxy, and its models are the kept files (DeviceModels lists them); leaving it
 * empties the address and the models it had.
 */
function providerChange(endpoint: ModelEndpoint, provider: ModelProvider): Partial<ModelEndpoint> {
  if (provider === "on-device")
    return { provider, baseUrl: ON_DEVICE_BASE_URL, apiKey: "", useProxy: false, models: [] };
  const leaving = providerOf(endpoint) === "on-device";
  const baseUrl = leaving ? "" : endpoint.baseUrl;
  const preset = provider === "openai-compatible" ? undefined : PRESETS.find((each) => each.provider === provider);
  return {
    provider,
    ...(leaving && { baseUrl, models: [] }),
    ...(preset && baseUrl.trim() === "" && { baseUrl: preset.baseUrl }),
  };
}

export function EndpointFields(props: {
  endpoint: ModelEndpoint;
  onChange: (change: Partial<ModelEndpoint>) => void;
  /** The endpoint's first model, what the "Model" field edits. */
  firstModel: string;
  onFirstModel: (id: string) => void;
  onListModels: () => void;
  /** Model ids "List models" found, suggested in the Model field. */
  offered: string[];
  /** What a refused Save found wrong with the name, the Base URL or the Model field, shown under each. */
  errors: Partial<Record<"name" | "baseUrl" | "model", string>>;
}) {
  /** A chip per preset, the developers' or the others; a click fills the endpoint from it. */
  const presetChips = (developer: boolean) => (
    <For each={PRESETS.filter((preset) => (preset.developer ?? false) === developer)}>
      {(preset) => (
        <button type="button" class="chip" onClick={() => props.onChange(presetChange(preset))}>
          {preset.name}
        </button>
      )}
    </For>
  );
  return (
    <>
      <div class="field">
        <label for="settings-endpoint-name">{t("models.endpointName")}</label>
        <input
          id="settings-endpoint-name"
          type="text"
          autocomplete="off"
          aria-invalid={props.errors.name ? "true" : undefined}
          aria-describedby={props.errors.name ? "settings-endpoint-name-error" : undefined}
          value={props.endpoint.name}
          onInput={(event) => props.onChange({ name: event.currentTarget.value })}
        />
        <FieldError id="settings-endpoint-name-error" error={props.errors.name} />
      </div>
      <div class="presets" role="group" aria-label={t("models.presets")}>
        {presetChips(false)}
      </div>
      <div class="presets" role="group" aria-labelledby="settings-developer-presets">
        <span class="hint" id="settings-developer-presets">
          {t("models.developerPresets")}
        </span>
        {presetChips(true)}
      </div>
      <div class="field">
        <label for="settings-provider">{t("models.provider")}</label>
        <select
          id="settings-provider"
          value={providerOf(props.endpoint)}
          onChange={(event) =>
            props.onChange(providerChange(props.endpoint, event.currentTarget.value as ModelProvider))
          }
        >
          <For each={MODEL_PROVIDERS}>
            {(provider) => (
              <option value={provider} selected={provider === providerOf(props.endpoint)}>
                {t(`models.provider.${provider}`)}
              </option>
            )}
          </For>
        </select>
      </div>
      <Show
        when={providerOf(props.endpoint) !== "on-device"}
        fallback={
          <DeviceModels
            models={props.endpoint.models}
            onModels={(models) => props.onChange({ models })}
            error={props.errors.model}
          />
        }
      >
        <TextField
          id="settings-base-url"
          label={t("models.baseUrl")}
          kind="url"
          placeholder={
            PRESETS.find((preset) => preset.provider === providerOf(props.endpoint))?.baseUrl ??
            "https://api.openai.com/v1"
          }
          value={props.endpoint.baseUrl}
          onInput={(baseUrl) => props.onChange({ baseUrl })}
          error={props.errors.baseUrl}
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
        <Show when={presetFor(props.endpoint.baseUrl)?.refusesBrowsers && presetFor(props.endpoint.baseUrl)}>
          {(preset) => <p class="hint">{t("models.proxyBecause", { name: preset().name })}</p>}
        </Show>
        <Show when={PRESETS.find((each) => each.local && each.baseUrl === props.endpoint.baseUrl)}>
          {(preset) => <p class="hint">{t("models.localHint", { name: preset().name })}</p>}
        </Show>
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
              aria-invalid={props.errors.model ? "true" : undefined}
              aria-describedby={props.errors.model ? "settings-model-error" : undefined}
              value={props.firstModel}
              onInput={(event) => props.onFirstModel(event.currentTarget.value)}
            />
            <button type="button" class="ghost" onClick={() => props.onListModels()}>
              {t("models.listModels")}
            </button>
          </div>
          <FieldError id="settings-model-error" error={props.errors.model} />
        </div>
        <datalist id="model-options">
          <For each={props.offered}>{(id) => <option value={id} />}</For>
        </datalist>
      </Show>
    </>
  );
}
