// Settings → Web: the services behind web_search and web_fetch, with the user's own keys, and Fawn's proxy for the
// services and pages that refuse browser requests. The worker validates on save; a refusal is shown as it comes.
import { createSignal, For, onMount, Show } from "solid-js";
import {
  WEB_FETCH_PROVIDERS,
  WEB_SEARCH_PROVIDERS,
  type WebFetchProviderName,
  type WebProviderInfo,
  type WebSearchProviderName,
  type WebToolSettings,
} from "../../protocol/index.ts";
import { errorMessage } from "../gateway-client.ts";

/** The form's fields, all text; blanks become absent settings on save. */
interface WebForm {
  searchProvider: WebSearchProviderName;
  searchApiKey: string;
  searchBaseUrl: string;
  fetchProvider: WebFetchProviderName;
  fetchApiKey: string;
  fetchBaseUrl: string;
  proxyUrl: string;
}

const EMPTY_FORM: WebForm = {
  searchProvider: "off",
  searchApiKey: "",
  searchBaseUrl: "",
  fetchProvider: "jina",
  fetchApiKey: "",
  fetchBaseUrl: "",
  proxyUrl: "",
};

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

function toSettings(form: WebForm): WebToolSettings {
  const text = (value: string) => value.trim();
  return {
    search: {
      provider: form.searchProvider,
      apiKey: text(form.searchApiKey),
      ...(text(form.searchBaseUrl) && { baseUrl: text(form.searchBaseUrl) }),
    },
    fetch: {
      provider: form.fetchProvider,
      apiKey: text(form.fetchApiKey),
      ...(text(form.fetchBaseUrl) && { baseUrl: text(form.fetchBaseUrl) }),
    },
    ...(text(form.proxyUrl) && { proxyUrl: text(form.proxyUrl) }),
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
  const [form, setForm] = createSignal<WebForm>({ ...EMPTY_FORM });
  const [loaded, setLoaded] = createSignal(false);
  const [showKeys, setShowKeys] = createSignal(false);
  const [status, setStatus] = createSignal<{ kind: "ok" | "error" | "busy"; text: string } | undefined>();

  onMount(() => {
    props
      .load()
      .then((settings) => {
        setForm(toForm(settings));
        setLoaded(true);
      })
      .catch((error: unknown) => setStatus({ kind: "error", text: errorMessage(error) }));
  });

  const update =
    <K extends keyof WebForm>(key: K) =>
    (event: { currentTarget: HTMLInputElement | HTMLSelectElement }) =>
      setForm({ ...form(), [key]: event.currentTarget.value as WebForm[K] });

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
          name="searchProvider"
          value={form().searchProvider}
          onChange={update("searchProvider")}
        >
          <option value="off">Off</option>
          <For each={SEARCH_CHOICES}>{([value, info]) => <option value={value}>{info.label}</option>}</For>
        </select>
        <p class="hint">{searchHint(form().searchProvider)}</p>
      </div>
      <Show when={searchInfo()?.apiKey !== undefined && searchInfo()?.apiKey !== "none"}>
        <div class="field">
          <label for="web-search-api-key">Search API key</label>
          <div class="inline">
            <input
              id="web-search-api-key"
              type="text"
              name="searchApiKey"
              class={showKeys() ? "" : "masked"}
              autocomplete="off"
              spellcheck={false}
              value={form().searchApiKey}
              onInput={update("searchApiKey")}
            />
            <button type="button" class="ghost" aria-pressed={showKeys()} onClick={() => setShowKeys(!showKeys())}>
              {showKeys() ? "Hide keys" : "Show keys"}
            </button>
          </div>
        </div>
      </Show>
      <Show when={searchInfo()}>
        {(info) => (
          <div class="field">
            <label for="web-search-base-url">Search base URL</label>
            <input
              id="web-search-base-url"
              type="url"
              name="searchBaseUrl"
              autocomplete="off"
              spellcheck={false}
              placeholder={info().defaultBaseUrl ?? "https://searx.example.org"}
              value={form().searchBaseUrl}
              onInput={update("searchBaseUrl")}
            />
            <Show when={info().defaultBaseUrl}>
              <p class="hint">Leave empty for the public service.</p>
            </Show>
          </div>
        )}
      </Show>
      <div class="field">
        <label for="web-fetch-provider">Fetch provider</label>
        <select
          id="web-fetch-provider"
          name="fetchProvider"
          value={form().fetchProvider}
          onChange={update("fetchProvider")}
        >
          <For each={FETCH_CHOICES}>{([value, info]) => <option value={value}>{info.label}</option>}</For>
        </select>
        <p class="hint">{fetchHint(form().fetchProvider)}</p>
      </div>
      <Show when={form().fetchProvider === "jina"}>
        <div class="field">
          <label for="web-fetch-api-key">Fetch API key</label>
          <input
            id="web-fetch-api-key"
            type="text"
            name="fetchApiKey"
            class={showKeys() ? "" : "masked"}
            autocomplete="off"
            spellcheck={false}
            placeholder="Optional"
            value={form().fetchApiKey}
            onInput={update("fetchApiKey")}
          />
        </div>
        <div class="field">
          <label for="web-fetch-base-url">Fetch base URL</label>
          <input
            id="web-fetch-base-url"
            type="url"
            name="fetchBaseUrl"
            autocomplete="off"
            spellcheck={false}
            placeholder={WEB_FETCH_PROVIDERS.jina.defaultBaseUrl}
            value={form().fetchBaseUrl}
            onInput={update("fetchBaseUrl")}
          />
        </div>
      </Show>
      <div class="field">
        <label for="web-proxy-url">Proxy URL</label>
        <input
          id="web-proxy-url"
          type="url"
          name="proxyUrl"
          autocomplete="off"
          spellcheck={false}
          placeholder={PROXY_PLACEHOLDER}
          value={form().proxyUrl}
          onInput={update("proxyUrl")}
        />
        <p class="hint">
          Fawn's optional proxy (<code>npm run proxy</code>) for services and pages that refuse browser requests.
          Services that answer browsers are always called directly.
        </p>
      </div>
      <Show when={status()}>
        {(current) => (
          <p class={`status ${current().kind}`} role="status">
            {current().text}
          </p>
        )}
      </Show>
      <div class="actions">
        <button type="submit" class="primary" disabled={!loaded() && status()?.kind !== "error"}>
          Save
        </button>
      </div>
    </form>
  );
}
