// The model choice store: the model settings as saved, the model and mode the next message goes with (each remembered
// in localStorage), and the calls Settings → Models makes. Components take it with useModelChoice() (stores.tsx).
import * as Comlink from "comlink";
import { createSignal } from "solid-js";
import {
  AGENT_MODES,
  defaultMode,
  modelChoiceFor,
  modelChoices,
  type AgentMode,
  type DeviceModelProgress,
  type ModelChoice,
  type ModelEndpoint,
  type ModelEntry,
  type ModelSettings,
} from "../../protocol/index.ts";
import { MODELS_HINT_KEY } from "../../shared/first-screen.ts";
import type { GatewayClient } from "../gateway-client.ts";

const MODE_KEY = "fawn.mode";
const MODEL_KEY = "fawn.model";

function stored(key: string): string | undefined {
  try {
    return localStorage.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

function store(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private windows may refuse storage; the choice then lasts for this page.
  }
}

function forget(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // See store().
  }
}

type EndpointAddress = Pick<ModelEndpoint, "baseUrl" | "apiKey" | "useProxy" | "provider">;

export function createModelChoice(client: Pick<GatewayClient, "settings">) {
  const [settings, setSettingsSignal] = createSignal<ModelSettings | undefined>();
  /** Also keeps, for index.html's first script, whether a model is set up: its prerendered welcome is for those without. */
  const setSettings = (next: ModelSettings) => {
    setSettingsSignal(next);
    if (modelChoices(next).length > 0) store(MODELS_HINT_KEY, "1");
    else forget(MODELS_HINT_KEY);
  };
  const savedMode = stored(MODE_KEY);
  const [chosenMode, setChosenMode] = createSignal<AgentMode | undefined>(
    AGENT_MODES.includes(savedMode as AgentMode) ? (savedMode as AgentMode) : undefined,
  );
  const [chosenModel, setChosenModel] = createSignal<string | undefined>(stored(MODEL_KEY));
  /** The model the next message goes to: the user's choice when the endpoint still has it, else the default. */
  const modelChoice = (): ModelChoice | undefined => modelChoiceFor(settings(), chosenModel());
  const model = (): ModelEntry | undefined => modelChoice()?.entry;

  return {
    settings,
    /** Reads the saved settings again (at load, and when another tab saved). */
    async reload(): Promise<void> {
      setSettings(await client.settings.getModels());
    },
    /** The mode of the next message: the user's last choice, else DeerFlow's default for the model. */
    mode: (): AgentMode => chosenMode() ?? defaultMode(model()),
    setMode(next: AgentMode): void {
      setChosenMode(next);
      store(MODE_KEY, next);
    },
    model,
    setModel(id: string): void {
      setChosenModel(id);
      store(MODEL_KEY, id);
    },
    modelChoices: () => modelChoices(settings()),
    modelChoice,
    /** The model and endpoint a message asks for (none: the default model). */
    runModel(): { model?: string; endpoint?: string } {
      const choice = modelChoice();
      if (!choice) return {};
      return { model: choice.entry.id, endpoint: choice.endpoint };
    },
    async saveSettings(next: ModelSettings): Promise<ModelSettings> {
      const saved = await client.settings.saveModels(next);
      setSettings(saved);
      return saved;
    },
    listModels: (endpoint: EndpointAddress) => client.settings.listModels(endpoint),
    describeModels: (endpoint: EndpointAddress) => client.settings.describeModels(endpoint),
    /** "On this device": the model files kept in this browser, and keeping, downloading and removing one. */
    listDeviceModels: () => client.settings.listDeviceModels(),
    addDeviceModel: (file: File, onProgress: DeviceModelProgress) =>
      client.settings.addDeviceModel(file, Comlink.proxy(onProgress)),
    downloadDeviceModel: (url: string, onProgress: DeviceModelProgress) =>
      client.settings.downloadDeviceModel(url, Comlink.proxy(onProgress)),
    cancelDeviceModelCopy: () => client.settings.cancelDeviceModelCopy(),
    removeDeviceModel: (id: string) => client.settings.removeDeviceModel(id),
  };
}

export type ModelChoiceStore = ReturnType<typeof createModelChoice>;
