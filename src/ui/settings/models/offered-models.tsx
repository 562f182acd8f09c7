// Settings → Models: the models "List models" found on the endpoint, each added to "Models to choose from" with a
// click, or all of them at once (a filter narrows a long list, such as OpenRouter's hundreds).
import { createSignal, For, Show } from "solid-js";
import type { ListedModel } from "../../../protocol/index.ts";
import { t } from "../../i18n/index.ts";
import { MODELS_PER_ENDPOINT } from "./model-settings-form.ts";

/** Past this many models the list gets a filter. */
const FILTER_FROM = 8;

export function OfferedModels(props: {
  offered: ListedModel[];
  /** Whether the model is among the endpoint's models already. */
  chosen: (id: string) => boolean;
  /** How many more models the endpoint may hold. */
  room: number;
  onAdd: (ids: string[]) => void;
}) {
  const [filter, setFilter] = createSignal("");
  const shown = () => {
    const words = filter().trim().toLowerCase();
    return words ? props.offered.filter((model) => model.id.toLowerCase().includes(words)) : props.offered;
  };
  const addable = () => shown().filter((model) => !props.chosen(model.id));
  return (
    <Show when={props.offered.length > 0}>
      <div class="offered-models">
        <span class="field-label" id="settings-offered-label">
          {t("models.offered")}
        </span>
        <Show when={props.offered.length > FILTER_FROM}>
          <input
            type="search"
            aria-label={t("models.filterOffered")}
            autocomplete="off"
            spellcheck={false}
            value={filter()}
            onInput={(event) => setFilter(event.currentTarget.value)}
            onKeyDown={(event) => event.key === "Enter" && event.preventDefault()}
          />
        </Show>
        <ul class="offered-list" aria-labelledby="settings-offered-label">
          <For each={shown()} fallback={<li class="hint">{t("models.offeredNoMatch")}</li>}>
            {(model) => (
              <li>
                <span class="offered-id">{model.id}</span>
                <Show when={!props.chosen(model.id)} fallback={<span class="hint">{t("models.added")}</span>}>
                  <button
                    type="button"
                    class="ghost"
                    aria-label={t("models.addOffered", { model: model.id })}
                    disabled={props.room <= 0}
                    onClick={() => props.onAdd([model.id])}
                  >
                    {t("models.add")}
                  </button>
                </Show>
              </li>
            )}
          </For>
        </ul>
        <Show when={addable().length > 1}>
          <Show
            when={addable().length <= props.room}
            fallback={<p class="hint">{t("models.addAllTooMany", { count: String(MODELS_PER_ENDPOINT) })}</p>}
          >
            <div>
              <button type="button" onClick={() => props.onAdd(addable().map((model) => model.id))}>
                {t("models.addAll")}
              </button>
            </div>
          </Show>
        </Show>
      </div>
    </Show>
  );
}
