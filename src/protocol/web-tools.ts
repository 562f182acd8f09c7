// Settings → Web: which services back the agent's web_search, web_fetch and image_search tools, with the user's own
// keys.

/** Search services Fawn can call; `off` leaves the agent without web_search. */
export type WebSearchProviderName = "off" | "tavily" | "brave" | "searxng" | "jina" | "firecrawl";

/**
 * How web_fetch reads a page: through Jina's reader or Firecrawl's scrape, or by getting the page itself and
 * extracting its text.
 */
export type WebFetchProviderName = "jina" | "direct" | "firecrawl";

/** Image search services (DeerFlow's image_search); `off` leaves the agent without image_search. */
export type ImageSearchProviderName = "off" | "firecrawl" | "brave" | "serper";

export interface WebToolSettings {
  search: {
    provider: WebSearchProviderName;
    /** Empty when the provider needs none (SearXNG) or none is set. */
    apiKey: string;
    /** The service's address; required for SearXNG, otherwise it overrides the public endpoint. */
    baseUrl?: string;
  };
  fetch: {
    provider: WebFetchProviderName;
    /** Optional for Jina (without one its reader allows fewer requests per minute); unused by `direct`. */
    apiKey: string;
    /** Overrides Jina's reader address (https://r.jina.ai); unused by `direct`. */
    baseUrl?: string;
  };
  /** image_search's service; absent is off. */
  images?: {
    provider: ImageSearchProviderName;
    apiKey: string;
    /** Overrides the service's public address (a self-hosted Firecrawl, a test server). */
    baseUrl?: string;
  };
  /**
   * Every thread's tool calls that send data out (web_search, web_fetch, MCP tools) wait for "Allow" in group
   * "Approval"; threads holding another person's messages always do.
   */
  askBeforeSending?: boolean;
}

/** No web_search; web_fetch through Jina's reader, which needs no key and answers browsers. */
export const DEFAULT_WEB_TOOL_SETTINGS: Readonly<WebToolSettings> = {
  search: { provider: "off", apiKey: "" },
  fetch: { provider: "jina", apiKey: "" },
};

export interface WebProviderInfo {
  label: string;
  /** True when the service answers browser requests (CORS); false ones go through the proxy when one is set. */
  browserCors: boolean;
  /** `required`: no request works without a key; `optional`: a key raises the rate limit; `none`: no key. */
  apiKey: "required" | "optional" | "none";
  /** The public endpoint; absent when the user must give an address (SearXNG, self-hosted). */
  defaultBaseUrl?: string;
}

/** What the UI and the worker both need to know about each search service. */
export const WEB_SEARCH_PROVIDERS: Readonly<Record<Exclude<WebSearchProviderName, "off">, WebProviderInfo>> = {
  tavily: { label: "Tavily", browserCors: true, apiKey: "required", defaultBaseUrl: "https://api.tavily.com" },
  brave: {
    label: "Brave Search",
    browserCors: false,
    apiKey: "required",
    defaultBaseUrl: "https://api.search.brave.com",
  },
  // SearXNG sends no CORS headers unless its operator adds them, so the proxy is used when it is set.
  searxng: { label: "SearXNG", browserCors: false, apiKey: "none" },
  jina: { label: "Jina Search", browserCors: true, apiKey: "required", defaultBaseUrl: "https://s.jina.ai" },
  // Firecrawl's API answers browsers (CORS); a self-hosted instance may run without a key.
  firecrawl: { label: "Firecrawl", browserCors: true, apiKey: "required", defaultBaseUrl: "https://api.firecrawl.dev" },
};

/** What the UI and the worker both need to know about each way of reading a page. */
export const WEB_FETCH_PROVIDERS: Readonly<Record<WebFetchProviderName, WebProviderInfo>> = {
  jina: { label: "Jina Reader", browserCors: true, apiKey: "optional", defaultBaseUrl: "https://r.jina.ai" },
  // Most sites send no CORS headers: without the proxy only the few that do can be read.
  direct: { label: "Direct (this browser)", browserCors: false, apiKey: "none" },
  firecrawl: { label: "Firecrawl", browserCors: true, apiKey: "required", defaultBaseUrl: "https://api.firecrawl.dev" },
};

/** What the UI and the worker both need to know about each image search service. */
export const IMAGE_SEARCH_PROVIDERS: Readonly<Record<Exclude<ImageSearchProviderName, "off">, WebProviderInfo>> = {
  firecrawl: { label: "Firecrawl", browserCors: true, apiKey: "required", defaultBaseUrl: "https://api.firecrawl.dev" },
  brave: {
    label: "Brave Search",
    browserCors: false,
    apiKey: "required",
    defaultBaseUrl: "https://api.search.brave.com",
  },
  // Serper (Google results) is not documented to answer browsers: the proxy is used when it is set.
  serper: { label: "Serper", browserCors: false, apiKey: "required", defaultBaseUrl: "https://google.serper.dev" },
};
