// Settings → Web: the services behind web_search and web_fetch, with the user's own keys, and Fawn's proxy for the
// services and pages that refuse browser requests. The worker validates on save; a refusal is shown as it comes.
import { createSignal, For, onMount, Show } from "solid-js";
import {
  DEFAULT_WEB_TOOL_SETTINGS,
  WEB_FETCH_PROVIDERS,
  WEB_SEARCH_PROVIDERS,
  type WebFetchProviderName,
  type WebProviderInfo,
  type WebSearchProviderName,
  type WebToolSettings,
} from "../../protocol/index.ts";
import { errorMessage } from "../gateway-client.ts";
import { TextField } from "./text-field.tsx";
import { StatusLine, type Status } from "./status-line.tsx";

/** The form's fields, all text; blanks become absent settings when the worker validates them. */
interface WebForm {
  searchProvider: WebSearchProviderName;
  searchApiKey: string;
  searchBaseUrl: string;
  fetchProvider: WebFetchProviderName;
  fetchApiKey: string;
  fetchBaseUrl: string;
  proxyUrl: string;
}

const PROXY_PLACEHOLDER = "http://127.0.0.1:8787/forward/";

const SEARCH_CHOICES = Object.entries(WEB_SEARCH_PROVIDERS) as [
  Exclude<WebSearchProviderName, "off">,
  WebProviderInfo,
][];
const FETCH_CHOICES = Object.entries(WEB_FETCH_PROVIDERS) as [WebFetchProviderName, WebProviderInfo][];

function toForm(settings: WebToolSettings): WebForm {
  return {
    searchProvider: settings.search.provider,
    searchApiKey: settings.search.apiKey,
    searchBaseUrl: settings.search.baseUrl ?? "",
    fetchProvider: settings.fetch.provider,
    fetchApiKey: settings.fetch.apiKey,
    fetchBaseUrl: settings.fetch.baseUrl ?? "",
    proxyUrl: settings.proxyUrl ?? "",
  };
}

/** The form as settings; the worker trims them and drops blank addresses. */
function toSettings(form: WebForm): WebToolSettings {
  return {
    search: { provider: form.searchProvider, apiKey: form.searchApiKey, baseUrl: form.searchBaseUrl },
    fetch: { provider: form.fetchProvider, apiKey: form.fetchApiKey, baseUrl: form.fetchBaseUrl },
    proxyUrl: form.proxyUrl,
  };
}

/** One line on what the chosen search service needs. */
function searchHint(provider: WebSearchProviderName): string {
  switch (provider) {
    case "off":
      return "The agent has no web_search. It can still read pages you give it with web_fetch.";
    case "tavily":
      return "Needs an API key from tavily.com. Answers this browser directly.";
    case "brave":
      return "Needs an API key from brave.com/search/api. Brave refuses browser requests: set the Proxy URL below.";
    case "searxng":
      return (
        "Your own SearXNG instance, with the json format enabled in its settings.yml. Without CORS headers on the " +
        "instance, set the Proxy URL below."
      );
    case "jina":
      return "Needs an API key from jina.ai. Answers this browser directly.";
  }
}

function fetchHint(provider: WebFetchProviderName): string {
  return provider === "jina"
    ? "Jina's reader works without a key at a low rate limit; a key raises it. The pages are read on Jina's side."
    : "Pages are read from this browser. Most sites refuse browser requests, so set the Proxy URL below.";
}

export function WebTab(props: {
  load: () => Promise<WebToolSettings>;
  save: (settings: WebToolSettings) => Promise<WebToolSettings>;
}) {
  const [form, setForm] = createSignal<WebForm>(toForm(DEFAULT_WEB_TOOL_SETTINGS));
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

  const set = <K extends keyof WebForm>(key: K, value: WebForm[K]) => setForm({ ...form(), [key]: value });

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    setStatus({ kind: "busy", text: "Saving…" });
    try {
      const saved = await props.save(toSettings(form()));
      setForm(toForm(saved));
      setLoaded(true);
      setStatus({ kind: "ok", text: "Saved." });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
    }
  };

  const searchInfo = () => {
    const provider = form().searchProvider;
    return provider === "off" ? undefined : WEB_SEARCH_PROVIDERS[provider];
  };

  return (
    <form class="settings-form web-tab" noValidate onSubmit={(event) => void save(event)}>
      <p class="hint">
        The agent's web_search and web_fetch tools call these services with your own keys. Keys stay in this browser and
        are sent only to their service (or through your proxy).
      </p>
      <div class="field">
        <label for="web-search-provider">Search provider</label>
        <select
          id="web-search-provider"
          value={form().searchProvider}
          onChange={(event) => set("searchProvider", event.currentTarget.value as WebSearchProviderName)}
        >
          <option value="off">Off</option>
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
                label="Search API key"
                kind="key"
                value={form().searchApiKey}
                onInput={(value) => set("searchApiKey", value)}
              />
            </Show>
            <TextField
              id="web-search-base-url"
              label="Search base URL"
              kind="url"
              placeholder={info().defaultBaseUrl ?? "https://searx.example.org"}
              value={form().searchBaseUrl}
              onInput={(value) => set("searchBaseUrl", value)}
              hint={info().defaultBaseUrl && "Leave empty for the public service."}
            />
          </>
        )}
      </Show>
      <div class="field">
        <label for="web-fetch-provider">Fetch provider</label>
        <select
          id="web-fetch-provider"
          value={form().fetchProvider}
          onChange={(event) => set("fetchProvider", event.currentTarget.value as WebFetchProviderName)}
        >
          <For each={FETCH_CHOICES}>{([value, info]) => <option value={value}>{info.label}</option>}</For>
        </select>
        <p class="hint">{fetchHint(form().fetchProvider)}</p>
      </div>
      <Show when={form().fetchProvider === "jina"}>
        <TextField
          id="web-fetch-api-key"
          label="Fetch API key"
          kind="key"
          placeholder="Optional"
          value={form().fetchApiKey}
          onInput={(value) => set("fetchApiKey", value)}
        />
        <TextField
          id="web-fetch-base-url"
          label="Fetch base URL"
          kind="url"
          placeholder={WEB_FETCH_PROVIDERS.jina.defaultBaseUrl}
          value={form().fetchBaseUrl}
          onInput={(value) => set("fetchBaseUrl", value)}
        />
      </Show>
      <TextField
        id="web-proxy-url"
        label="Proxy URL"
        kind="url"
        placeholder={PROXY_PLACEHOLDER}
        value={form().proxyUrl}
        onInput={(value) => set("proxyUrl", value)}
        hint={
          <>
            Fawn's optional proxy (<code>npm run proxy</code>) for services and pages that refuse browser requests.
            Services that answer browsers are always called directly.
          </>
        }
      />
      <StatusLine status={status()} />
      <div class="actions">
        <button type="submit" class="primary" disabled={!loaded() && status()?.kind !== "error"}>
          Save
        </button>
      </div>
    </form>
  );
}
