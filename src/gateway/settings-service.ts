// Settings → Models, Proxy, Web, Sandbox and Subagents as one service: each setting checked before it is stored, its
// keys kept apart from it (they never reach a backup), and every tab told when one changed.
import {
  describeModelError,
  EMPTY_MODEL_SETTINGS,
  fetchModels,
  parseModelSettings,
  parseProxySettings,
  targetForRun,
} from "../models/index.ts";
import {
  parseSubagentSettings,
  parseSummariesAndTitles,
  parseWebToolSettings,
  readSummariesAndTitles,
  readWebToolSettings,
} from "../agent/index.ts";
import {
  DEFAULT_SUBAGENT_SETTINGS,
  providerOf,
  deviceModelDownloadUrl,
  type ChangeNotice,
  type DeviceModelFile,
  type DeviceModelProgress,
  type ListedModel,
  type ModelEndpoint,
  type ModelSettings,
  type ModelTarget,
  type ProxySettings,
  type RunRequest,
  type SandboxSettings,
  type SubagentSettings,
  type SummariesAndTitles,
  type WebToolSettings,
  type SettingsApi,
} from "../protocol/index.ts";
import { redactSecrets } from "../shared/redact.ts";
import { UserError } from "../shared/user-error.ts";
import {
  MODEL_SETTINGS_KEY,
  PROXY_SETTINGS_KEY,
  WEB_FETCH_KEY,
  WEB_SEARCH_KEY,
  type DeviceModelFiles,
  type SettingsStorage,
} from "../storage/index.ts";
import { unloadDeviceModel } from "../models/index.ts";
import { writing } from "./writes.ts";

const SANDBOX_SETTINGS_KEY = "sandbox.settings";
/** Settings → Web's "Ask before sending data out" (every thread's tool calls that send data out wait for approval). */
const WEB_APPROVAL_KEY = "web.approval";
/** Settings → Web's image search (image_search), its key kept as the other web keys are; off is no record. */
const WEB_IMAGES_KEY = "web.images";
const SUBAGENT_SETTINGS_KEY = "subagents.settings";
/** Settings → Models → "Summaries and titles"; no record is the defaults. */
const SUMMARIES_TITLES_KEY = "summaries-titles.settings";

export interface SettingsServiceOptions {
  notify: (notice: ChangeNotice) => void;
  fetch: typeof fetch;
  /** Told the sandbox setting just saved: threads switch provider at their next command. */
  onSandboxChanged?: (settings: SandboxSettings) => void;
  /** The model files of "On this device" (their code loaded on first use); without it (a server), none can be kept. */
  deviceModels?: () => Promise<DeviceModelFiles>;
}

/** What a run needs from the settings, read together. */
export interface RunSettings {
  /** Undefined until a default model is set. */
  target: ModelTarget | undefined;
  webTools: WebToolSettings;
  proxyUrl: string | undefined;
  /** The proxy's token (Settings → Web), for whatever a run sends to the proxy. */
  proxyToken: string | undefined;
  /** Every stored secret, to keep out of error text. */
  secrets: string[];
}

export class SettingsService implements SettingsApi {
  /** The copy or download of a model file under way, to cancel (one at a time). */
  private copying: AbortController | undefined;

  constructor(
    private readonly store: SettingsStorage,
    private readonly options: SettingsServiceOptions,
  ) {}

  private async deviceFiles(): Promise<DeviceModelFiles> {
    const files = this.options.deviceModels;
    if (!files) throw new UserError("Model files can be kept only in a browser's own workspace.");
    return files();
  }

  async listDeviceModels(): Promise<DeviceModelFile[]> {
    return this.options.deviceModels ? (await this.options.deviceModels()).list() : [];
  }

  async addDeviceModel(file: File, onProgress?: DeviceModelProgress): Promise<DeviceModelFile> {
    const files = await this.deviceFiles();
    return this.oneCopy((signal) => files.add(file.stream(), { name: file.name, size: file.size }, onProgress, signal));
  }

  /** Runs a model file's copy or download as the one under way, which cancelDeviceModelCopy stops. */
  private async oneCopy<T>(copy: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.copying) throw new UserError("A model file is being kept already; wait for it or cancel it.");
    const controller = new AbortController();
    this.copying = controller;
    try {
      return await copy(controller.signal);
    } finally {
      if (this.copying === controller) this.copying = undefined;
    }
  }

  async downloadDeviceModel(address: string, onProgress?: DeviceModelProgress): Promise<DeviceModelFile> {
    const files = await this.deviceFiles();
    let url: string;
    try {
      url = deviceModelDownloadUrl(address);
    } catch {
      throw new UserError("The model URL is not a web address; give the address of a .gguf file.");
    }
    if (!/^https?:$/.test(new URL(url).protocol))
      throw new UserError("The model URL must start with https:// or http://.");
    return this.oneCopy(async (signal) => {
      let response: Response;
      try {
        response = await this.options.fetch(url, { signal });
      } catch (error) {
        if (signal.aborted) throw new UserError("The model file was not kept: cancelled.");
        throw new UserError(`The model could not be downloaded from ${url}: ${(error as Error).message}`);
      }
      if (!response.ok || !response.body) {
        throw new UserError(`The model could not be downloaded: ${url} answered ${response.status}.`);
      }
      const length = Number(response.headers.get("content-length"));
      const name = decodeURIComponent(new URL(response.url || url).pathname.split("/").pop() || "model.gguf");
      return files.add(response.body, { name, ...(length > 0 && { size: length }), source: url }, onProgress, signal);
    });
  }

  async cancelDeviceModelCopy(): Promise<void> {
    this.copying?.abort();
  }

  async removeDeviceModel(id: string): Promise<void> {
    await unloadDeviceModel(id);
    await (await this.deviceFiles()).remove(id);
  }

  async getModels(): Promise<ModelSettings> {
    const { value, apiKeys } = await this.store.getWithApiKeys(MODEL_SETTINGS_KEY);
    const stored = (value ?? {}) as { endpoints?: unknown };
    const endpoints = Array.isArray(stored.endpoints)
      ? stored.endpoints.map((endpoint: unknown) => {
          const id = (endpoint as { id?: unknown } | null)?.id;
          return { ...(endpoint as object), apiKey: (typeof id === "string" && apiKeys.get(id)) || "" };
        })
      : [];
    const parsed = parseModelSettings({ ...stored, endpoints });
    return parsed.ok ? parsed.value : structuredClone(EMPTY_MODEL_SETTINGS);
  }

  async saveModels(settings: ModelSettings): Promise<ModelSettings> {
    return this.save(parseModelSettings(settings), (parsed) => {
      const apiKeys = new Map(parsed.endpoints.map((endpoint) => [endpoint.id, endpoint.apiKey]));
      const value = { ...parsed, endpoints: parsed.endpoints.map(({ apiKey: _key, ...rest }) => rest) };
      return this.store.putWithApiKeys(MODEL_SETTINGS_KEY, value, apiKeys);
    });
  }

  /** The proxy's address (settings) and its token (kept with the API keys, never in a backup). */
  async getProxy(): Promise<ProxySettings> {
    const { value, apiKey } = await this.store.getWithApiKey(PROXY_SETTINGS_KEY);
    // Only the secrets store holds the token: one in the settings (say, from a crafted backup) is not read.
    const { token: _ignored, ...stored } = (value ?? {}) as { token?: unknown };
    const parsed = parseProxySettings({ ...stored, ...(apiKey && { token: apiKey }) });
    if (parsed.ok) return parsed.value;
    const url = parseProxySettings(stored);
    return url.ok ? url.value : {};
  }

  async saveProxy(settings: ProxySettings): Promise<ProxySettings> {
    return this.save(parseProxySettings(settings), ({ token, ...address }) =>
      this.store.putWithApiKey(PROXY_SETTINGS_KEY, address, token ?? ""),
    );
  }

  /** Model ids an endpoint offers; the key being tried, stored or not, is kept out of the message. */
  async listModels(endpoint: Pick<ModelEndpoint, "baseUrl" | "apiKey" | "useProxy" | "provider">): Promise<string[]> {
    return (await this.describeModels(endpoint)).map((model) => model.id);
  }

  /**
   * An endpoint's models as its provider's list reports them (context window, vision, tools, reasoning where it
   * says); the key being tried, stored or not, is kept out of the message.
   */
  async describeModels(
    endpoint: Pick<ModelEndpoint, "baseUrl" | "apiKey" | "useProxy" | "provider">,
  ): Promise<ListedModel[]> {
    const parsed = parseModelSettings({
      endpoints: [{ id: "probe", name: "probe", ...endpoint, models: [{ id: "any" }] }],
      defaultModel: { endpoint: "probe", model: "any" },
    });
    if (!parsed.ok) throw new UserError(parsed.message);
    const proxy = await this.getProxy();
    const target = targetForRun(parsed.value, undefined, proxy.url, proxy.token) as ModelTarget;
    const probe = parsed.value.endpoints[0] as ModelEndpoint;
    try {
      return await fetchModels({ ...target, provider: providerOf(probe) }, this.options.fetch);
    } catch (error) {
      const secrets = [probe.apiKey, ...(await this.store.secretValues())];
      const described = describeModelError(error, probe.baseUrl, { proxied: probe.useProxy === true });
      throw new UserError(redactSecrets(described.message, secrets));
    }
  }

  async getWebTools(): Promise<WebToolSettings> {
    return this.webTools(await this.proxyUrl());
  }

  /** The web tools' settings, checked against the proxy they would use (read by the caller, once). */
  private async webTools(proxyUrl: string | undefined): Promise<WebToolSettings> {
    const [search, fetch, approval, images] = await Promise.all([
      this.store.getWithApiKey(WEB_SEARCH_KEY),
      this.store.getWithApiKey(WEB_FETCH_KEY),
      this.store.get(WEB_APPROVAL_KEY),
      this.store.getWithApiKey(WEB_IMAGES_KEY),
    ]);
    const ask = (approval as { askBeforeSending?: unknown } | undefined)?.askBeforeSending === true;
    return readWebToolSettings(
      {
        search: { ...(search.value as object | undefined), apiKey: search.apiKey ?? "" },
        fetch: { ...(fetch.value as object | undefined), apiKey: fetch.apiKey ?? "" },
        ...(images.value !== undefined && { images: { ...(images.value as object), apiKey: images.apiKey ?? "" } }),
        ...(ask && { askBeforeSending: true }),
      },
      proxyUrl,
    );
  }

  async saveWebTools(settings: WebToolSettings): Promise<WebToolSettings> {
    return this.save(parseWebToolSettings(settings, await this.proxyUrl()), (parsed) => {
      const { apiKey: searchKey, ...search } = parsed.search;
      const { apiKey: fetchKey, ...fetch } = parsed.fetch;
      const { apiKey: imagesKey = "", ...images } = parsed.images ?? {};
      return this.store.putAllWithApiKeys([
        { key: WEB_SEARCH_KEY, value: search, apiKey: searchKey },
        { key: WEB_FETCH_KEY, value: fetch, apiKey: fetchKey },
        // Off is the default, kept as no record (a backup then carries none).
        { key: WEB_APPROVAL_KEY, value: parsed.askBeforeSending ? { askBeforeSending: true } : undefined, apiKey: "" },
        { key: WEB_IMAGES_KEY, value: parsed.images ? images : undefined, apiKey: imagesKey },
      ]);
    });
  }

  async getSandbox(): Promise<SandboxSettings> {
    const stored = (await this.store.get(SANDBOX_SETTINGS_KEY)) as Partial<SandboxSettings> | undefined;
    return { provider: stored?.provider === "webcontainer" ? "webcontainer" : "browser" };
  }

  async saveSandbox(settings: SandboxSettings): Promise<SandboxSettings> {
    if (settings?.provider !== "browser" && settings?.provider !== "webcontainer") {
      throw new UserError('The sandbox is "browser" or "webcontainer".');
    }
    const saved: SandboxSettings = { provider: settings.provider };
    await writing(() => this.store.put(SANDBOX_SETTINGS_KEY, saved));
    this.options.onSandboxChanged?.(saved);
    this.options.notify({ type: "settings-changed" });
    return saved;
  }

  async getSubagents(): Promise<SubagentSettings> {
    const parsed = parseSubagentSettings((await this.store.get(SUBAGENT_SETTINGS_KEY)) ?? {});
    return parsed.ok ? parsed.value : { ...DEFAULT_SUBAGENT_SETTINGS, custom: [] };
  }

  async saveSubagents(settings: SubagentSettings): Promise<SubagentSettings> {
    return this.save(parseSubagentSettings(settings), (parsed) => this.store.put(SUBAGENT_SETTINGS_KEY, parsed));
  }

  async getSummariesAndTitles(): Promise<SummariesAndTitles> {
    return readSummariesAndTitles(await this.store.get(SUMMARIES_TITLES_KEY));
  }

  async saveSummariesAndTitles(settings: SummariesAndTitles): Promise<SummariesAndTitles> {
    return this.save(parseSummariesAndTitles(settings), (parsed) => this.store.put(SUMMARIES_TITLES_KEY, parsed));
  }

  /** The model a run talks to (the one `context` names, else the default), the web tools and the proxy. */
  async forRun(context: RunRequest["context"] | undefined): Promise<RunSettings> {
    const proxy = this.getProxy();
    const [models, webTools, { url: proxyUrl, token: proxyToken }, secrets] = await Promise.all([
      this.getModels(),
      proxy.then(({ url }) => this.webTools(url)),
      proxy,
      this.store.secretValues(),
    ]);
    return { target: targetForRun(models, context, proxyUrl, proxyToken), webTools, proxyUrl, proxyToken, secrets };
  }

  /** The default model (memory updates use it), through the proxy when its endpoint needs it. */
  async defaultTarget(): Promise<ModelTarget | undefined> {
    const [models, proxy] = await Promise.all([this.getModels(), this.getProxy()]);
    return targetForRun(models, undefined, proxy.url, proxy.token);
  }

  /** Stores a setting its check accepted with `write`, and tells every tab; a refused one throws the check's message. */
  private async save<T>(
    parsed: { ok: true; value: T } | { ok: false; message: string },
    write: (value: T) => Promise<unknown>,
  ): Promise<T> {
    if (!parsed.ok) throw new UserError(parsed.message);
    await writing(() => write(parsed.value));
    this.options.notify({ type: "settings-changed" });
    return parsed.value;
  }

  private async proxyUrl(): Promise<string | undefined> {
    return (await this.getProxy()).url;
  }
}
