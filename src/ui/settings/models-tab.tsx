// Settings → Models: the main endpoint and any other OpenAI-compatible endpoints, each with its key, its models (with
// their Thinking and Vision abilities) and whether it goes through Fawn's proxy; one model of any endpoint is the
// default. One endpoint is edited at a time, picked in the Endpoint list; Save checks and stores all of them together.
import { createSignal, For, Show } from "solid-js";
import {
  MAIN_ENDPOINT_NAME,
  modelEntries,
  type ModelEndpoint,
  type ModelEntry,
  type ModelSettings,
} from "../../protocol/index.ts";
import type { AppState } from "../app-state.ts";
import { errorMessage } from "../gateway-client.ts";
import { t } from "../i18n/index.ts";
import { ModelList } from "./model-list.tsx";
import { PRESETS } from "./models-presets.ts";
import { StatusLine, type Status } from "./status-line.tsx";
import { TextField } from "./text-field.tsx";

/** The main endpoint in the Endpoint list. */
const MAIN = "";

/** What one endpoint's fields edit, the main one's or another's. */
type EndpointFields = Pick<ModelEndpoint, "name" | "baseUrl" | "apiKey"> & { useProxy: boolean };

function newEndpointId(): string {
  return `ep-${crypto.randomUUID().slice(0, 8)}`;
}

export function ModelsTab(props: { state: AppState }) {
  const initial = props.state.settings() ?? { baseUrl: "", apiKey: "", model: "", models: [] };
  const [form, setForm] = createSignal<ModelSettings>({ ...initial });
  const [selected, setSelected] = createSignal<string>(MAIN);
  const [offered, setOffered] = createSignal<string[]>([]);
  const [newModel, setNewModel] = createSignal("");
  const [status, setStatus] = createSignal<Status | undefined>();

  const others = () => form().endpoints ?? [];
  const other = () => others().find((endpoint) => endpoint.id === selected());
  const isMain = () => other() === undefined;
  const fields = (): EndpointFields => {
    const endpoint = other();
    if (endpoint) return { ...endpoint, useProxy: endpoint.useProxy === true };
    const main = form();
    return { name: main.name ?? "", baseUrl: main.baseUrl, apiKey: main.apiKey, useProxy: main.useProxy === true };
  };
  const patch = (change: Partial<EndpointFields>) => {
    const endpoint = other();
    if (!endpoint) {
      setForm({ ...form(), ...change });
      return;
    }
    setForm({
      ...form(),
      endpoints: others().map((each) => (each.id === endpoint.id ? { ...each, ...change } : each)),
    });
  };

  /** The selected endpoint's models; the main one's with the default model first when its list lacks it. */
  const entries = (): ModelEntry[] => other()?.models ?? modelEntries({ ...form(), model: form().model.trim() });
  const setEntries = (models: ModelEntry[]) => {
    const endpoint = other();
    if (!endpoint) {
      setForm({ ...form(), models });
      return;
    }
    setForm({ ...form(), endpoints: others().map((each) => (each.id === endpoint.id ? { ...each, models } : each)) });
  };
  /** The main endpoint's `model` (its "Model" field) stays listed; so does the default model. */
  const isPrimary = (id: string) => isMain() && id === form().model.trim();
  const isDefault = (id: string) => {
    const chosen = form().defaultModel;
    return chosen ? chosen.endpoint === selected() && chosen.model === id : isPrimary(id);
  };
  const makeDefault = (id: string) => {
    const endpoint = other();
    if (endpoint) {
      setForm({ ...form(), defaultModel: { endpoint: endpoint.id, model: id } });
      return;
    }
    // The main endpoint's default is its `model`; the list keeps the former one.
    const { defaultModel: _other, ...main } = form();
    setForm({ ...main, models: entries(), model: id });
  };
  /** The Endpoint list's label: the endpoint holding the default model says so. */
  const endpointLabel = (id: string, name: string) =>
    (form().defaultModel?.endpoint ?? MAIN) === id ? t("models.mainOption", { name }) : name;
  const flag = (id: string, key: "thinking" | "vision", on: boolean) =>
    setEntries(entries().map((entry) => (entry.id === id ? { ...entry, [key]: on } : entry)));
  const addModel = () => {
    const id = newModel().trim();
    if (!id) return;
    if (!entries().some((entry) => entry.id === id)) setEntries([...entries(), { id }]);
    setNewModel("");
  };

  const pick = (id: string) => {
    setSelected(id);
    setOffered([]);
    setNewModel("");
  };
  const addEndpoint = () => {
    const taken = new Set([form().name || MAIN_ENDPOINT_NAME, ...others().map((endpoint) => endpoint.name)]);
    let count = others().length + 2;
    while (taken.has(t("models.endpointN", { count: String(count) }))) count++;
    const endpoint: ModelEndpoint = {
      id: newEndpointId(),
      name: t("models.endpointN", { count: String(count) }),
      baseUrl: "",
      apiKey: "",
      models: [],
    };
    setForm({ ...form(), endpoints: [...others(), endpoint] });
    pick(endpoint.id);
  };
  const removeEndpoint = () => {
    const endpoint = other();
    if (!endpoint) return;
    const { defaultModel, ...rest } = form();
    // The default model goes back to the main endpoint's when its endpoint leaves.
    setForm({
      ...rest,
      ...(defaultModel && defaultModel.endpoint !== endpoint.id && { defaultModel }),
      endpoints: others().filter((each) => each.id !== endpoint.id),
    });
    pick(MAIN);
    setStatus({ kind: "ok", text: t("models.removedUnsaved", { name: endpoint.name }) });
  };

  const loadModels = async () => {
    setStatus({ kind: "busy", text: t("models.asking") });
    try {
      const { baseUrl, apiKey, useProxy } = fields();
      const ids = await props.state.listModels({ baseUrl, apiKey, useProxy });
      setOffered(ids);
      setStatus({
        kind: "ok",
        text: ids.length ? t("models.offers", { count: String(ids.length) }) : t("models.offersNone"),
      });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
    }
  };

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    try {
      const main = form();
      const saved = await props.state.saveSettings({
        ...main,
        models: modelEntries({ ...main, model: main.model.trim() }),
      });
      setForm({ ...saved });
      if (!saved.endpoints?.some((endpoint) => endpoint.id === selected())) pick(MAIN);
      setStatus({ kind: "ok", text: t("common.saved") });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
    }
  };

  return (
    <form class="settings-form" noValidate onSubmit={(event) => void save(event)}>
      <p class="hint">{t("models.hint")}</p>
      <div class="field">
        <label for="settings-endpoint">{t("models.endpoint")}</label>
        <div class="inline">
          <select id="settings-endpoint" value={selected()} onChange={(event) => pick(event.currentTarget.value)}>
            {/* Each option says whether it is selected: editing an endpoint replaces its option element. */}
            <option value={MAIN} selected={isMain()}>
              {endpointLabel(MAIN, form().name || MAIN_ENDPOINT_NAME)}
            </option>
            <For each={others()}>
              {(endpoint) => (
                <option value={endpoint.id} selected={endpoint.id === selected()}>
                  {endpointLabel(endpoint.id, endpoint.name)}
                </option>
              )}
            </For>
          </select>
          <button type="button" class="ghost" onClick={addEndpoint}>
            {t("models.addEndpoint")}
          </button>
          <Show when={!isMain()}>
            <button type="button" class="ghost" onClick={removeEndpoint}>
              {t("models.removeEndpoint")}
            </button>
          </Show>
        </div>
      </div>
      <div class="field">
        <label for="settings-endpoint-name">{t("models.endpointName")}</label>
        <input
          id="settings-endpoint-name"
          type="text"
          autocomplete="off"
          placeholder={isMain() ? MAIN_ENDPOINT_NAME : ""}
          value={fields().name}
          onInput={(event) => patch({ name: event.currentTarget.value })}
        />
      </div>
      <div class="presets" role="group" aria-label={t("models.presets")}>
        <For each={PRESETS}>
          {(preset) => (
            <button type="button" class="chip" onClick={() => patch({ baseUrl: preset.baseUrl })}>
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
        value={fields().baseUrl}
        onInput={(baseUrl) => patch({ baseUrl })}
      />
      <TextField
        id="settings-api-key"
        label={t("models.apiKey")}
        kind="key"
        placeholder={t("models.apiKeyPlaceholder")}
        value={fields().apiKey}
        onInput={(apiKey) => patch({ apiKey })}
      />
      <label class="check">
        <input
          type="checkbox"
          checked={fields().useProxy}
          onChange={(event) => patch({ useProxy: event.currentTarget.checked })}
        />
        {t("models.useProxy")}
      </label>
      <p class="hint">{t("models.useProxyHint")}</p>
      <Show
        when={isMain()}
        fallback={
          <div class="actions start">
            <button type="button" class="ghost" onClick={() => void loadModels()}>
              {t("models.listModels")}
            </button>
          </div>
        }
      >
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
              value={form().model}
              onInput={(event) => setForm({ ...form(), model: event.currentTarget.value })}
            />
            <button type="button" class="ghost" onClick={() => void loadModels()}>
              {t("models.listModels")}
            </button>
          </div>
        </div>
      </Show>
      <datalist id="model-options">
        <For each={offered()}>{(id) => <option value={id} />}</For>
      </datalist>
      <ModelList
        entries={entries()}
        isDefault={isDefault}
        removable={(id) => !isDefault(id) && !isPrimary(id)}
        onDefault={makeDefault}
        onFlag={flag}
        onRemove={(id) => setEntries(entries().filter((each) => each.id !== id))}
        newModel={newModel()}
        onNewModel={setNewModel}
        onAdd={addModel}
      />
      <label class="check">
        <input
          type="checkbox"
          checked={form().modelTitles === true}
          onChange={(event) => setForm({ ...form(), modelTitles: event.currentTarget.checked })}
        />
        {t("models.titles")}
      </label>
      <StatusLine status={status()} />
      <div class="actions">
        <button type="submit" class="primary">
          {t("common.save")}
        </button>
      </div>
    </form>
  );
}
