// Settings → Web: the services behind web_search, web_fetch and image_search, with the user's own keys, and Fawn's proxy for the
// services and pages that refuse browser requests. The worker validates on save; a refusal is shown as it comes.
import { createSignal, For, onMount, Show } from "solid-js";
import {
  DEFAULT_WEB_TOOL_SETTINGS,
  IMAGE_SEARCH_PROVIDERS,
  WEB_FETCH_PROVIDERS,
  WEB_SEARCH_PROVIDERS,
  type ImageSearchProviderName,
  type ProxySettings,
  type WebFetchProviderName,
  type WebProviderInfo,
  type WebSearchProviderName,
  type WebToolSettings,
} from "../../../protocol/index.ts";
import { errorMessage } from "../../gateway-client.ts";
import { rich, t } from "../../i18n/index.ts";
import { TextField } from "../fields/text-field.tsx";
import { StatusLine, type Status } from "../../shared/status-line.tsx";
import { announceRefused, announceSaved } from "../settings-saved.ts";
import { WEB_FIELD_IDS, webFormProblems, type WebForm, type WebFormField } from "./web-form.ts";

const PROXY_PLACEHOLDER = "http://127.0.0.1:8787/forward/";

const SEARCH_CHOICES = Object.entries(WEB_SEARCH_PROVIDERS) as [
  Exclude<WebSearchProviderName, "off">,
  WebProviderInfo,
][];
const FETCH_CHOICES = Object.entries(WEB_FETCH_PROVIDERS) as [WebFetchProviderName, WebProviderInfo][];
const IMAGE_CHOICES = Object.entries(IMAGE_SEARCH_PROVIDERS) as [
  Exclude<ImageSearchProviderName, "off">,
  WebProviderInfo,
][];

/** What the tab edits: the web tools and the proxy they (and model endpoints) may go through. */
export interface WebTabSettings {
  web: WebToolSettings;
  proxy: ProxySettings;
}

function toForm({ web: settings, proxy }: WebTabSettings): WebForm {
  return {
    searchProvider: settings.search.provider,
    searchApiKey: settings.search.apiKey,
    searchBaseUrl: settings.search.baseUrl ?? "",
    fetchProvider: settings.fetch.provider,
    fetchApiKey: settings.fetch.apiKey,
    fetchBaseUrl: settings.fetch.baseUrl ?? "",
    imageProvider: settings.images?.provider ?? "off",
    imageApiKey: settings.images?.apiKey ?? "",
    imageBaseUrl: settings.images?.baseUrl ?? "",
    proxyUrl: proxy.url ?? "",
    proxyToken: proxy.token ?? "",
    askBeforeSending: settings.askBeforeSending === true,
  };
}

/** The form as settings; the worker trims them and drops blank addresses. */
function toSettings(form: WebForm): WebTabSettings {
  return {
    web: {
      search: { provider: form.searchProvider, apiKey: form.searchApiKey, baseUrl: form.searchBaseUrl },
      fetch: { provider: form.fetchProvider, apiKey: form.fetchApiKey, baseUrl: form.fetchBaseUrl },
      ...(form.imageProvider !== "off" && {
        images: { provider: form.imageProvider, apiKey: form.imageApiKey, baseUrl: form.imageBaseUrl },
      }),
      askBeforeSending: form.askBeforeSending,
    },
    proxy: { url: form.proxyUrl, token: form.proxyToken },
  };
}

/** One line on what the chosen search service needs. */
function searchHint(provider: WebSearchProviderName): string {
  switch (provider) {
    case "off":
      return t("web.search.off");
    case "tavily":
      return t("web.search.tavily");
    case "brave":
      return t("web.search.brave");
    case "searxng":
      return t("web.search.searxng");
    case "jina":
      return t("web.search.jina");
    case "firecrawl":
      return t("web.search.firecrawl");
  }
}

function fetchHint(provider: WebFetchProviderName): string {
  return t(
    provider === "jina" ? "web.fetch.jina" : provider === "firecrawl" ? "web.fetch.firecrawl" : "web.fetch.direct",
  );
}

function imageHint(provider: ImageSearchProviderName): string {
  switch (provider) {
    case "off":
      return t("web.images.off");
    case "firecrawl":
      return t("web.images.firecrawl");
    case "brave":
      return t("web.images.brave");
    case "serper":
      return t("web.images.serper");
  }
}

export function WebTab(props: {
  load: () => Promise<WebTabSettings>;
  save: (settings: WebTabSettings) => Promise<WebTabSettings>;
}) {
  const [form, setForm] = createSignal<WebForm>(toForm({ web: DEFAULT_WEB_TOOL_SETTINGS, proxy: {} }));
  const [loaded, setLoaded] = createSignal(false);
  const [status, setStatus] = createSignal<Status | undefined>();

  onMount(() => {
    props
      .load()
      .then((settings) => {
        setForm(toForm(settings));
        setLoaded(true);
      })
      .catch((error: unknown) => setStatus({ kind: "error", text: errorMessage(error) }));
  });

  /** Whether a Save was refused since the last one taken: then each field's problem shows, as the user fixes it. */
  const [refused, setRefused] = createSignal(false);
  const problemAt = (field: WebFormField) =>
    refused() ? webFormProblems(form()).find((problem) => problem.field === field)?.message : undefined;

  const set = <K extends keyof WebForm>(key: K, value: WebForm[K]) => setForm({ ...form(), [key]: value });

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    const found = webFormProblems(form());
    if (found.length > 0) {
      // Each problem shows at its field; the cursor goes to the first.
      setRefused(true);
      setStatus(undefined);
      queueMicrotask(() => document.getElementById(WEB_FIELD_IDS[found[0]!.field])?.focus());
      announceRefused(element);
      return;
    }
    setStatus({ kind: "busy", text: t("common.saving") });
    try {
      const saved = await props.save(toSettings(form()));
      setForm(toForm(saved));
      setLoaded(true);
      setRefused(false);
      announceSaved(element);
      setStatus({ kind: "ok", text: t("common.saved") });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
      announceRefused(element);
    }
  };

  const searchInfo = () => {
    const provider = form().searchProvider;
    return provider === "off" ? undefined : WEB_SEARCH_PROVIDERS[provider];
  };

  const imageInfo = () => {
    const provider = form().imageProvider;
    return provider === "off" ? undefined : IMAGE_SEARCH_PROVIDERS[provider];
  };

  return (
    <form class="settings-form web-tab" noValidate onSubmit={(event) => void save(event)}>
      <p class="hint">{t("web.intro")}</p>
      {/* Nothing can be changed until the stored settings are read, or reading them would undo the change. */}
      <fieldset class="form-body" disabled={!loaded() && status()?.kind !== "error"}>
        <div class="field">
          <label for="web-search-provider">{t("web.searchProvider")}</label>
          <select
            id="web-search-provider"
            value={form().searchProvider}
            onChange={(event) => set("searchProvider", event.currentTarget.value as WebSearchProviderName)}
          >
            <option value="off">{t("web.off")}</option>
            <For each={SEARCH_CHOICES}>{([value, info]) => <option value={value}>{info.label}</option>}</For>
          </select>
          <p class="hint">{searchHint(form().searchProvider)}</p>
        </div>
        <Show when={searchInfo()}>
          {(info) => (
            <>
              <Show when={info().apiKey !== "none"}>
                <TextField
                  id="web-search-api-key"
                  label={t("web.searchKey")}
                  kind="key"
                  value={form().searchApiKey}
                  onInput={(value) => set("searchApiKey", value)}
                  error={problemAt("searchApiKey")}
                />
              </Show>
              <TextField
                id="web-search-base-url"
                label={t("web.searchBaseUrl")}
                kind="url"
                placeholder={info().defaultBaseUrl ?? "https://searx.example.org"}
                value={form().searchBaseUrl}
                onInput={(value) => set("searchBaseUrl", value)}
                error={problemAt("searchBaseUrl")}
                hint={info().defaultBaseUrl && t("web.publicService")}
              />
            </>
          )}
        </Show>
        <div class="field">
          <label for="web-fetch-provider">{t("web.fetchProvider")}</label>
          <select
            id="web-fetch-provider"
            value={form().fetchProvider}
            onChange={(event) => set("fetchProvider", event.currentTarget.value as WebFetchProviderName)}
          >
            <For each={FETCH_CHOICES}>{([value, info]) => <option value={value}>{info.label}</option>}</For>
          </select>
          <p class="hint">{fetchHint(form().fetchProvider)}</p>
        </div>
        <Show when={form().fetchProvider !== "direct"}>
          <TextField
            id="web-fetch-api-key"
            label={t("web.fetchKey")}
            kind="key"
            placeholder={form().fetchProvider === "jina" ? t("web.optional") : undefined}
            value={form().fetchApiKey}
            onInput={(value) => set("fetchApiKey", value)}
            error={problemAt("fetchApiKey")}
          />
          <TextField
            id="web-fetch-base-url"
            label={t("web.fetchBaseUrl")}
            kind="url"
            placeholder={WEB_FETCH_PROVIDERS[form().fetchProvider].defaultBaseUrl}
            value={form().fetchBaseUrl}
            onInput={(value) => set("fetchBaseUrl", value)}
            error={problemAt("fetchBaseUrl")}
          />
        </Show>
        <div class="field">
          <label for="web-image-provider">{t("web.imageProvider")}</label>
          <select
            id="web-image-provider"
            value={form().imageProvider}
            onChange={(event) => set("imageProvider", event.currentTarget.value as ImageSearchProviderName)}
          >
            <option value="off">{t("web.off")}</option>
            <For each={IMAGE_CHOICES}>{([value, info]) => <option value={value}>{info.label}</option>}</For>
          </select>
          <p class="hint">{imageHint(form().imageProvider)}</p>
        </div>
        <Show when={imageInfo()}>
          {(info) => (
            <>
              <TextField
                id="web-image-api-key"
                label={t("web.imageKey")}
                kind="key"
                value={form().imageApiKey}
                onInput={(value) => set("imageApiKey", value)}
                error={problemAt("imageApiKey")}
              />
              <TextField
                id="web-image-base-url"
                label={t("web.imageBaseUrl")}
                kind="url"
                placeholder={info().defaultBaseUrl}
                value={form().imageBaseUrl}
                onInput={(value) => set("imageBaseUrl", value)}
                error={problemAt("imageBaseUrl")}
                hint={t("web.publicService")}
              />
            </>
          )}
        </Show>
        <div class="field">
          <label class="check">
            <input
              type="checkbox"
              role="switch"
              aria-describedby="web-ask-before-sending-hint"
              checked={form().askBeforeSending}
              onChange={(event) => set("askBeforeSending", event.currentTarget.checked)}
            />
            {t("web.askBeforeSending")}
          </label>
          <p class="hint" id="web-ask-before-sending-hint">
            {t("web.askBeforeSendingHint")}
          </p>
        </div>
        <TextField
          id="web-proxy-url"
          label={t("web.proxyUrl")}
          kind="url"
          placeholder={PROXY_PLACEHOLDER}
          value={form().proxyUrl}
          onInput={(value) => set("proxyUrl", value)}
          error={problemAt("proxyUrl")}
          hint={<>{rich("web.proxyHint", { command: <code>npm run proxy</code> })}</>}
        />
        <TextField
          id="web-proxy-token"
          label={t("web.proxyToken")}
          kind="key"
          value={form().proxyToken}
          onInput={(value) => set("proxyToken", value)}
          error={problemAt("proxyToken")}
          hint={<>{rich("web.proxyTokenHint", { file: <code>~/.config/fawn-proxy/token</code> })}</>}
        />
      </fieldset>
      <StatusLine status={status()} />
      <div class="actions">
        <button type="submit" class="primary" disabled={!loaded() && status()?.kind !== "error"}>
          {t("common.save")}
        </button>
      </div>
    </form>
  );
}
