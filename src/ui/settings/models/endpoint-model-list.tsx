// Settings → Models' list of one endpoint's models: which is the default, each one's Thinking, Vision and Tools
// abilities, its reasoning switch and context window, its Options (model-options-fields.tsx), removing one, and adding one by its id (the ids "List models"
// offered are suggested).
import { createSignal, For, Index, Show } from "solid-js";
import {
  detectReasoning,
  REASONING_STYLES,
  type ModelEntry,
  type ModelProvider,
  type ReasoningStyle,
} from "../../../protocol/index.ts";
import { t } from "../../i18n/index.ts";
import { FieldError } from "../fields/text-field.tsx";
import { ModelOptionsFields } from "./model-options-fields.tsx";
import type { ModelFormField } from "./model-settings-form.ts";

/** The context window as typed: a whole number of tokens, or nothing (unknown). */
function tokens(text: string): number | undefined {
  const value = Number(text.replace(/[\s,_]/g, ""));
  return text.trim() !== "" && Number.isFinite(value) ? Math.round(value) : undefined;
}

/** The group "Models" of the endpoint being edited; the tab (models-tab.tsx) owns the settings it changes. */
export function EndpointModelList(props: {
  entries: ModelEntry[];
  /** The endpoint's provider, which decides the reasoning switch "Auto" stands for. */
  provider: ModelProvider;
  isDefault: (id: string) => boolean;
  /** Whether a model may be removed: not the default, nor the main endpoint's own model. */
  removable: (id: string) => boolean;
  onDefault: (id: string) => void;
  /** Changes one model's abilities or settings. */
  onEntry: (id: string, change: Partial<ModelEntry>) => void;
  onRemove: (id: string) => void;
  newModel: string;
  onNewModel: (text: string) => void;
  onAdd: () => void;
  /** What a refused Save found wrong with a model's context window. */
  contextError: (id: string) => string | undefined;
  /** What a refused Save found wrong with one of a model's options. */
  optionError: (id: string, field: ModelFormField) => string | undefined;
}) {
  /** The models whose Options are open (a changed model's row is rendered anew; its disclosure stays as it was). */
  const [opened, setOpened] = createSignal<ReadonlySet<string>>(new Set());
  const setOpen = (id: string, open: boolean) =>
    setOpened((ids) => {
      const next = new Set(ids);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });
  return (
    <fieldset class="model-list">
      <legend>{t("models.choose")}</legend>
      <p class="hint">{t("models.chooseHint")}</p>
      <p class="hint">{t("models.defaultHint")}</p>
      {/* By position: a changed model keeps its row's elements (the field the user moved to keeps its focus). */}
      <div class="model-rows">
        <Index each={props.entries}>
          {(entry, index) => (
            <div class="model-row" role="group" aria-label={entry().id}>
              <span class="model-id">{entry().id}</span>
              <label>
                <input
                  type="radio"
                  name="default-model"
                  checked={props.isDefault(entry().id)}
                  onChange={(event) => {
                    if (event.currentTarget.checked) props.onDefault(entry().id);
                  }}
                />
                {t("models.defaultChoice")}
              </label>
              <label>
                <input
                  type="checkbox"
                  checked={entry().thinking === true}
                  onChange={(event) => props.onEntry(entry().id, { thinking: event.currentTarget.checked })}
                />
                {t("models.thinking")}
              </label>
              <label>
                <input
                  type="checkbox"
                  checked={entry().vision === true}
                  onChange={(event) => props.onEntry(entry().id, { vision: event.currentTarget.checked })}
                />
                {t("models.vision")}
              </label>
              <label>
                <input
                  type="checkbox"
                  checked={entry().tools !== false}
                  onChange={(event) => props.onEntry(entry().id, { tools: event.currentTarget.checked })}
                />
                {t("models.tools")}
              </label>
              <label>
                {t("models.reasoning")}
                <select
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    props.onEntry(entry().id, { reasoning: value ? (value as ReasoningStyle) : undefined });
                  }}
                >
                  <option value="" selected={!entry().reasoning}>
                    {t("models.reasoning.auto", {
                      style: t(`models.reasoning.${detectReasoning(props.provider, entry().id)}`),
                    })}
                  </option>
                  <For each={REASONING_STYLES}>
                    {(style) => (
                      <option value={style} selected={entry().reasoning === style}>
                        {t(`models.reasoning.${style}`)}
                      </option>
                    )}
                  </For>
                </select>
              </label>
              <label>
                {t("models.contextWindow")}
                <input
                  id={`settings-context-${index}`}
                  type="text"
                  inputmode="numeric"
                  class="context-window"
                  aria-invalid={props.contextError(entry().id) ? "true" : undefined}
                  aria-describedby={props.contextError(entry().id) ? `settings-context-${index}-error` : undefined}
                  autocomplete="off"
                  placeholder={t("models.contextPlaceholder")}
                  value={entry().contextWindow?.toString() ?? ""}
                  onChange={(event) => props.onEntry(entry().id, { contextWindow: tokens(event.currentTarget.value) })}
                />
              </label>
              <FieldError id={`settings-context-${index}-error`} error={props.contextError(entry().id)} />
              <ModelOptionsFields
                entry={entry()}
                row={index}
                provider={props.provider}
                open={opened().has(entry().id)}
                onOpen={(open) => setOpen(entry().id, open)}
                onEntry={(change) => props.onEntry(entry().id, change)}
                error={(field) => props.optionError(entry().id, field)}
              />
              <Show when={props.removable(entry().id)}>
                <button
                  type="button"
                  class="ghost"
                  aria-label={t("models.remove", { model: entry().id })}
                  onClick={() => props.onRemove(entry().id)}
                >
                  ×
                </button>
              </Show>
            </div>
          )}
        </Index>
      </div>
      {/* An on-device endpoint's models are its kept files (DeviceModels adds them), never a typed name. */}
      <Show when={props.provider !== "on-device"}>
        <div class="inline">
          <input
            type="text"
            aria-label={t("models.addAModel")}
            list="model-options"
            autocomplete="off"
            spellcheck={false}
            placeholder={t("models.addPlaceholder")}
            value={props.newModel}
            onInput={(event) => props.onNewModel(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                props.onAdd();
              }
            }}
          />
          <button type="button" class="ghost" onClick={() => props.onAdd()}>
            {t("models.addModel")}
          </button>
        </div>
      </Show>
    </fieldset>
  );
}
