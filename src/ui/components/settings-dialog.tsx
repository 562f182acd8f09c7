// Settings: the Models tab stores the endpoint (Base URL, API key, Model) in this browser only; Sandbox picks where
// commands run; Data shows storage.
import { createEffect, createSignal, For, Match, Show, Switch } from "solid-js";
import { AppearanceTab } from "./appearance-tab.tsx";
import { DataTab } from "./data-tab.tsx";
import { MemoryTab } from "./memory-tab.tsx";
import { SkillsTab } from "./skills-tab.tsx";
import { SubagentsTab } from "./subagents-tab.tsx";
import { SandboxTab } from "./sandbox-tab.tsx";
import { TextField } from "./text-field.tsx";
import { WebTab } from "./web-tab.tsx";
import { modelEntries, type ModelEntry, type ModelSettings } from "../../protocol/index.ts";
import type { AppState } from "../app-state.ts";
import { errorMessage } from "../gateway-client.ts";
import { StatusLine, type Status } from "./status-line.tsx";

const PRESETS: { name: string; baseUrl: string }[] = [
  { name: "OpenAI", baseUrl: "https://api.openai.com/v1" },
  { name: "OpenRouter", baseUrl: "https://openrouter.ai/api/v1" },
  { name: "Ollama", baseUrl: "http://localhost:11434/v1" },
  { name: "LM Studio", baseUrl: "http://localhost:1234/v1" },
  { name: "Mock (npm run mock-llm)", baseUrl: "http://127.0.0.1:11435/v1" },
];

function ModelsTab(props: { state: AppState }) {
  const initial = props.state.settings() ?? { baseUrl: "", apiKey: "", model: "", models: [] };
  const [form, setForm] = createSignal<ModelSettings>({ ...initial });
  const [models, setModels] = createSignal<string[]>([]);
  const [status, setStatus] = createSignal<Status | undefined>();

  const update = (key: "baseUrl" | "apiKey" | "model") => (event: { currentTarget: HTMLInputElement }) =>
    setForm({ ...form(), [key]: event.currentTarget.value });
  const [newModel, setNewModel] = createSignal("");
  /** The endpoint's models as listed, the default one first when the list lacks it. */
  const entries = (): ModelEntry[] => modelEntries({ ...form(), model: form().model.trim() });
  const setEntries = (models: ModelEntry[]) => setForm({ ...form(), models });
  const flag = (id: string, key: "thinking" | "vision", on: boolean) =>
    setEntries(entries().map((entry) => (entry.id === id ? { ...entry, [key]: on } : entry)));
  const addModel = () => {
    const id = newModel().trim();
    if (!id) return;
    if (!entries().some((entry) => entry.id === id)) setEntries([...entries(), { id }]);
    setNewModel("");
  };

  const loadModels = async () => {
    setStatus({ kind: "busy", text: "Asking the endpoint for its models…" });
    try {
      const ids = await props.state.listModels({ baseUrl: form().baseUrl, apiKey: form().apiKey });
      setModels(ids);
      setStatus({
        kind: "ok",
        text: ids.length ? `The endpoint offers ${ids.length} models.` : "The endpoint listed no models.",
      });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
    }
  };

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    try {
      const saved = await props.state.saveSettings({ ...form(), models: entries() });
      setForm({ ...saved });
      setStatus({ kind: "ok", text: "Saved." });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
    }
  };

  return (
    <form class="settings-form" noValidate onSubmit={(event) => void save(event)}>
      <p class="hint">
        Any OpenAI-compatible endpoint works. Your key stays in this browser and is sent only to this endpoint.
      </p>
      <div class="presets" role="group" aria-label="Endpoint presets">
        <For each={PRESETS}>
          {(preset) => (
            <button type="button" class="chip" onClick={() => setForm({ ...form(), baseUrl: preset.baseUrl })}>
              {preset.name}
            </button>
          )}
        </For>
      </div>
      <TextField
        id="settings-base-url"
        label="Base URL"
        kind="url"
        placeholder="https://api.openai.com/v1"
        value={form().baseUrl}
        onInput={(baseUrl) => setForm({ ...form(), baseUrl })}
      />
      <TextField
        id="settings-api-key"
        label="API key"
        kind="key"
        placeholder="Leave empty for local servers"
        value={form().apiKey}
        onInput={(apiKey) => setForm({ ...form(), apiKey })}
      />
      <div class="field">
        <label for="settings-model">Model</label>
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
            onInput={update("model")}
          />
          <button type="button" class="ghost" onClick={() => void loadModels()}>
            List models
          </button>
        </div>
        <datalist id="model-options">
          <For each={models()}>{(id) => <option value={id} />}</For>
        </datalist>
      </div>
      <fieldset class="model-list">
        <legend>Models to choose from</legend>
        <p class="hint">
          Mark the models that reason (they think in the Thinking, Pro and Ultra modes) and those that read images.
        </p>
        <ul>
          <For each={entries()}>
            {(entry) => (
              <li role="group" aria-label={entry.id}>
                <span class="model-id">
                  {entry.id}
                  <Show when={entry.id === form().model.trim()}>
                    <span class="badge">default</span>
                  </Show>
                </span>
                <label>
                  <input
                    type="checkbox"
                    checked={entry.thinking === true}
                    onChange={(event) => flag(entry.id, "thinking", event.currentTarget.checked)}
                  />
                  Thinking
                </label>
                <label>
                  <input
                    type="checkbox"
                    checked={entry.vision === true}
                    onChange={(event) => flag(entry.id, "vision", event.currentTarget.checked)}
                  />
                  Vision
                </label>
                <Show when={entry.id !== form().model.trim()}>
                  <button
                    type="button"
                    class="ghost"
                    aria-label={`Remove ${entry.id}`}
                    onClick={() => setEntries(entries().filter((other) => other.id !== entry.id))}
                  >
                    ×
                  </button>
                </Show>
              </li>
            )}
          </For>
        </ul>
        <div class="inline">
          <input
            type="text"
            aria-label="Add a model"
            list="model-options"
            autocomplete="off"
            spellcheck={false}
            placeholder="another model of this endpoint"
            value={newModel()}
            onInput={(event) => setNewModel(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                addModel();
              }
            }}
          />
          <button type="button" class="ghost" onClick={addModel}>
            Add model
          </button>
        </div>
      </fieldset>
      <label class="check">
        <input
          type="checkbox"
          checked={form().modelTitles === true}
          onChange={(event) => setForm({ ...form(), modelTitles: event.currentTarget.checked })}
        />
        Name threads with the model (one short extra request per thread)
      </label>
      <StatusLine status={status()} />
      <div class="actions">
        <button type="submit" class="primary">
          Save
        </button>
      </div>
    </form>
  );
}

const TABS = [
  { id: "models", name: "Models" },
  { id: "web", name: "Web" },
  { id: "skills", name: "Skills" },
  { id: "memory", name: "Memory" },
  { id: "subagents", name: "Subagents" },
  { id: "sandbox", name: "Sandbox" },
  { id: "appearance", name: "Appearance" },
  { id: "data", name: "Data" },
] as const;

export function SettingsDialog(props: { state: AppState }) {
  let dialog!: HTMLDialogElement;
  const [selected, setSelected] = createSignal<(typeof TABS)[number]["id"]>("models");
  createEffect(() => {
    if (props.state.settingsOpen()) {
      if (!dialog.open) dialog.showModal();
    } else if (dialog.open) dialog.close();
  });
  return (
    <dialog
      ref={dialog}
      class="settings"
      aria-labelledby="settings-title"
      onClose={() => props.state.setSettingsOpen(false)}
    >
      <header>
        <h2 id="settings-title">Settings</h2>
        <button
          type="button"
          class="ghost icon"
          aria-label="Close settings"
          onClick={() => props.state.setSettingsOpen(false)}
        >
          ×
        </button>
      </header>
      <div role="tablist" aria-label="Settings sections">
        <For each={TABS}>
          {(tab) => (
            <button
              type="button"
              role="tab"
              id={`tab-${tab.id}`}
              aria-selected={selected() === tab.id}
              aria-controls={`panel-${tab.id}`}
              tabIndex={selected() === tab.id ? 0 : -1}
              onClick={() => setSelected(tab.id)}
            >
              {tab.name}
            </button>
          )}
        </For>
      </div>
      <Show when={props.state.settingsOpen()}>
        <section role="tabpanel" id={`panel-${selected()}`} aria-labelledby={`tab-${selected()}`}>
          <Switch fallback={<DataTab />}>
            <Match when={selected() === "models"}>
              <ModelsTab state={props.state} />
            </Match>
            <Match when={selected() === "web"}>
              <WebTab
                load={() => props.state.client.getWebToolSettings()}
                save={(settings) => props.state.client.saveWebToolSettings(settings)}
              />
            </Match>
            <Match when={selected() === "skills"}>
              <SkillsTab client={props.state.client} />
            </Match>
            <Match when={selected() === "memory"}>
              <MemoryTab client={props.state.client} />
            </Match>
            <Match when={selected() === "subagents"}>
              <SubagentsTab client={props.state.client} />
            </Match>
            <Match when={selected() === "appearance"}>
              <AppearanceTab />
            </Match>
            <Match when={selected() === "sandbox"}>
              <SandboxTab client={props.state.client} starter={props.state.webContainer} />
            </Match>
          </Switch>
        </section>
      </Show>
    </dialog>
  );
}
