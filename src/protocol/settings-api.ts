// The settings domain's contract (`gateway.settings`): Settings → Models, Proxy, Web, Sandbox and Subagents.
import type { DeviceModelFile, DeviceModelProgress } from "./device-models.ts";
import type { ListedModel } from "./model-providers.ts";
import type { ModelEndpoint, ModelSettings, ProxySettings } from "./model-endpoints.ts";
import type { SandboxSettings } from "./sandbox-api.ts";
import type { SubagentSettings } from "./subagents.ts";
import type { SummariesAndTitles } from "./summaries-titles.ts";
import type { WebToolSettings } from "./web-tools.ts";

/** What listing an endpoint's models needs of it. */
export type ModelEndpointAddress = Pick<ModelEndpoint, "baseUrl" | "apiKey" | "useProxy" | "provider">;

export interface SettingsApi {
  getModels(): Promise<ModelSettings>;
  saveModels(settings: ModelSettings): Promise<ModelSettings>;
  /** Model ids the endpoint offers (its provider's model list); rejects with a readable message. */
  listModels(endpoint: ModelEndpointAddress): Promise<string[]>;
  /** The endpoint's models with what its list reports of each (context window, vision, tools, reasoning). */
  describeModels(endpoint: ModelEndpointAddress): Promise<ListedModel[]>;
  /** The model files kept in this browser for "On this device". */
  listDeviceModels(): Promise<DeviceModelFile[]>;
  /**
   * Keeps a GGUF file chosen from disk (copied into the browser's storage, `onProgress` as it goes); rejects with one
   * sentence (not a GGUF file, a name already kept, not enough room), keeping nothing.
   */
  addDeviceModel(file: File, onProgress?: DeviceModelProgress): Promise<DeviceModelFile>;
  /** Downloads a GGUF file from `url` (Hugging Face page addresses work as they are) and keeps it, as addDeviceModel. */
  downloadDeviceModel(url: string, onProgress?: DeviceModelProgress): Promise<DeviceModelFile>;
  /** Stops the copy or download of a model file under way; it rejects, and nothing of it is kept. */
  cancelDeviceModelCopy(): Promise<void>;
  /** Deletes a kept model file (unloading it first when it is loaded). */
  removeDeviceModel(id: string): Promise<void>;
  /** Fawn's CORS relay (Settings → Proxy). */
  getProxy(): Promise<ProxySettings>;
  saveProxy(settings: ProxySettings): Promise<ProxySettings>;
  /** The web tools' providers and keys (Settings → Web). */
  getWebTools(): Promise<WebToolSettings>;
  /** Validates and stores them (keys with the other secrets); rejects with one sentence per problem. */
  saveWebTools(settings: WebToolSettings): Promise<WebToolSettings>;
  getSandbox(): Promise<SandboxSettings>;
  /** Saves the choice; threads switch provider at their next command. */
  saveSandbox(settings: SandboxSettings): Promise<SandboxSettings>;
  /** Subagent limits and the user's own subagent types (Settings → Subagents). */
  getSubagents(): Promise<SubagentSettings>;
  saveSubagents(settings: SubagentSettings): Promise<SubagentSettings>;
  /** When the conversation is summarized for the model, and the threads' titles (Settings → Models). */
  getSummariesAndTitles(): Promise<SummariesAndTitles>;
  /** Validates and stores them, read at each run; rejects with one sentence per problem. */
  saveSummariesAndTitles(settings: SummariesAndTitles): Promise<SummariesAndTitles>;
}
