// The settings domain's contract (`gateway.settings`): Settings → Models, Proxy, Web, Sandbox and Subagents.
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
