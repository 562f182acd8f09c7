// Settings → Models: endpoints of any provider (OpenAI-compatible, Anthropic, Gemini), each with its key, its models
// (their abilities, reasoning switch and context window) and whether it goes through Fawn's proxy; one model of any
// endpoint is the default. One endpoint is edited at a time, picked in the Endpoint list; Save checks and stores all
// of them together. A refused Save marks each wrong field with its problem and puts the cursor in the first (opening
// the endpoint it belongs to); the marks follow the user's corrections until a Save is taken.
import { createSignal, For, Show } from "solid-js";
import {
  providerOf,
  type ListedModel,
  type ModelEndpoint,
  type ModelEntry,
  type ModelSettings,
} from "../../../protocol/index.ts";
import { useModelChoice } from "../../state/stores.tsx";
import { errorMessage } from "../../gateway-client.ts";
import { t } from "../../i18n/index.ts";
import { EndpointFields } from "./endpoint-fields.tsx";
import { EndpointModelList } from "./endpoint-model-list.tsx";
import { OPTION_FIELD_IDS } from "./model-options-fields.tsx";
import {
  addEndpoint,
  addModels,
  defaultsSettled,
  modelFormProblems,
  MODELS_PER_ENDPOINT,
  removeEndpoint,
  setFirstModel,
  startingEndpoints,
  updateEndpoint,
  withListed,
  type ModelFormProblem,
} from "./model-settings-form.ts";
import { OfferedModels } from "./offered-models.tsx";
import { announceRefused, announceSaved } from "../settings-saved.ts";
import { StatusLine, type Status } from "../../shared/status-line.tsx";

export function ModelsTab() {
  const modelChoice = useModelChoice();
  const [form, setForm] = createSignal<ModelSettings>(
    startingEndpoints(modelChoice.settings(), t("models.firstEndpoint")),
  );
  const [selected, setSelected] = createSignal<string>(form().endpoints[0]?.id ?? "");
  /** What "List models" found: the ids suggested, and what the list said of each (used when one is added). */
  const [offered, setOffered] = createSignal<ListedModel[]>([]);
  const [newModel, setNewModel] = createSignal("");
  const [status, setStatus] = createSignal<Status | undefined>();
  /** The endpoints whose Model field the user emptied: their models keep their names, and the field needs one. */
  const [blankModel, setBlankModel] = createSignal<ReadonlySet<string>>(new Set());
  /** Whether a Save was refused since the last one taken: then each field's problem shows, as the user fixes it. */
  const [refused, setRefused] = createSignal(false);
  const problems = () => (refused() ? modelFormProblems(form(), blankModel()) : []);
  /** The problem of the endpoint being edited with `field` (of the model `model`, for a context window). */
  const problemAt = (field: ModelFormProblem["field"], model?: string) =>
    problems().find(
      (problem) => problem.endpoint === endpoint().id && problem.field === field && problem.model === model,
    )?.message;

  const endpoint = (): ModelEndpoint => form().endpoints.find((each) => each.id === selected()) ?? form().endpoints[0]!;
  const patch = (change: Partial<ModelEndpoint>) => setForm(updateEndpoint(form(), endpoint().id, change));
  const entries = (): ModelEntry[] => endpoint().models;
  const setEntries = (models: ModelEntry[]) => patch({ models });
  const isDefault = (id: string) => {
    const chosen = form().defaultModel;
    return chosen?.endpoint === endpoint().id && chosen.model === id;
  };
  /** The Endpoint list's label: the endpoint holding the default model says so. */
  const endpointLabel = (each: ModelEndpoint) =>
    form().defaultModel?.endpoint === each.id ? t("models.mainOption", { name: each.name }) : each.name;
  const changeEntry = (id: string, change: Partial<ModelEntry>) =>
    setEntries(entries().map((entry) => (entry.id === id ? { ...entry, ...change } : entry)));
  const addModel = () => {
    const id = newModel().trim();
    if (!id) return;
    addChosen([id]);
    setNewModel("");
  };
  /** Adds models to the endpoint's models to choose from, with what "List models" said of each. */
  const addChosen = (ids: string[]) => setForm(addModels(form(), endpoint().id, ids, offered()));
  /** The Model field: an emptied one leaves the models as they are (see setFirstModel) and is marked as blank. */
  const typeFirstModel = (id: string) => {
    const blank = id.trim() === "";
    setBlankModel((ids) => {
      const next = new Set(ids);
      if (blank) next.add(endpoint().id);
      else next.delete(endpoint().id);
      return next;
    });
    if (!blank) setForm(setFirstModel(form(), endpoint().id, id, offered()));
  };

  const pick = (id: string) => {
    setSelected(id);
    setOffered([]);
    setNewModel("");
  };
  const add = () => {
    const next = addEndpoint(form(), (count) => t("models.endpointN", { count: String(count) }));
    setForm(next);
    pick(next.endpoints.at(-1)!.id);
  };
  const remove = () => {
    const gone = endpoint();
    setForm(removeEndpoint(form(), gone.id));
    pick(form().endpoints[0]!.id);
    setStatus({ kind: "ok", text: t("models.removedUnsaved", { name: gone.name }) });
  };

  const loadModels = async () => {
    setStatus({ kind: "busy", text: t("models.asking") });
    try {
      const { baseUrl, apiKey, useProxy } = endpoint();
      const listed = await modelChoice.describeModels({
        baseUrl,
        apiKey,
        provider: providerOf(endpoint()),
        ...(useProxy && { useProxy }),
      });
      setOffered(listed);
      // What the list says of models already chosen (context window, vision, tools) fills what they lack.
      setEntries(entries().map((entry) => withListed(entry, listed)));
      setStatus({
        kind: "ok",
        text: listed.length ? t("models.offers", { count: String(listed.length) }) : t("models.offersNone"),
      });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
    }
  };

  /**
   * Refuses a Save the gateway would refuse, at the fields: the endpoint with the first problem (this one, when it
   * has any) is shown, and the cursor goes to that field.
   */
  const refuse = (found: ModelFormProblem[]): void => {
    setRefused(true);
    setStatus(undefined);
    const first = found.find((problem) => problem.endpoint === endpoint().id) ?? found[0]!;
    if (first.endpoint !== endpoint().id) pick(first.endpoint);
    const row = endpoint().models.findIndex((entry) => entry.id === first.model);
    const option = OPTION_FIELD_IDS[first.field];
    const id = option
      ? `${option}-${row}`
      : {
          name: "settings-endpoint-name",
          baseUrl: "settings-base-url",
          model: "settings-model",
          contextWindow: `settings-context-${row}`,
        }[first.field as "name" | "baseUrl" | "model" | "contextWindow"];
    queueMicrotask(() => document.getElementById(id)?.focus());
  };

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    const found = modelFormProblems(form(), blankModel());
    if (found.length > 0) {
      refuse(found);
      announceRefused(element);
      return;
    }
    try {
      const saved = await modelChoice.saveSettings(defaultsSettled(form()));
      setForm(startingEndpoints(saved, t("models.firstEndpoint")));
      setRefused(false);
      setBlankModel(new Set<string>());
      if (!form().endpoints.some((each) => each.id === selected())) pick(form().endpoints[0]!.id);
      announceSaved(element);
      setStatus({ kind: "ok", text: t("common.saved") });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
      announceRefused(element);
    }
  };

  return (
    <form class="settings-form" noValidate onSubmit={(event) => void save(event)}>
      <p class="hint">{t("models.hint")}</p>
      <div class="field">
        <label for="settings-endpoint">{t("models.endpoint")}</label>
        <div class="inline">
          <select id="settings-endpoint" value={endpoint().id} onChange={(event) => pick(event.currentTarget.value)}>
            <For each={form().endpoints}>
              {/* Each option says whether it is selected: editing an endpoint replaces its option element. */}
              {(each) => (
                <option value={each.id} selected={each.id === endpoint().id}>
                  {endpointLabel(each)}
                </option>
              )}
            </For>
          </select>
          <button type="button" class="ghost" onClick={add}>
            {t("models.addEndpoint")}
          </button>
          <Show when={form().endpoints.length > 1}>
            <button type="button" class="ghost" onClick={remove}>
              {t("models.removeEndpoint")}
            </button>
          </Show>
        </div>
      </div>
      <EndpointFields
        endpoint={endpoint()}
        onChange={patch}
        firstModel={blankModel().has(endpoint().id) ? "" : (endpoint().models[0]?.id ?? "")}
        onFirstModel={typeFirstModel}
        onListModels={() => void loadModels()}
        offered={offered().map((model) => model.id)}
        errors={{ name: problemAt("name"), baseUrl: problemAt("baseUrl"), model: problemAt("model") }}
      />
      <OfferedModels
        offered={offered()}
        chosen={(id) => entries().some((entry) => entry.id === id)}
        room={MODELS_PER_ENDPOINT - entries().length}
        onAdd={addChosen}
      />
      <EndpointModelList
        entries={entries()}
        provider={providerOf(endpoint())}
        isDefault={isDefault}
        removable={(id) => !isDefault(id)}
        onDefault={(id) => setForm({ ...form(), defaultModel: { endpoint: endpoint().id, model: id } })}
        onEntry={changeEntry}
        onRemove={(id) => setEntries(entries().filter((each) => each.id !== id))}
        newModel={newModel()}
        onNewModel={setNewModel}
        onAdd={addModel}
        contextError={(id) => problemAt("contextWindow", id)}
        optionError={(id, field) => problemAt(field, id)}
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
