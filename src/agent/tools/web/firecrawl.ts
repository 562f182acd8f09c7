// Firecrawl (https://docs.firecrawl.dev, API v2): web_search through POST /v2/search, web_fetch through POST
// /v2/scrape (the page as Markdown, read on Firecrawl's side) and image_search through /v2/search's image source. The
// key goes as a Bearer token; Firecrawl's API answers browsers (CORS), and a self-hosted instance takes its address.
import { IMAGE_SEARCH_PROVIDERS, WEB_FETCH_PROVIDERS, WEB_SEARCH_PROVIDERS } from "../../../protocol/index.ts";
import {
  IMAGE_FILTERS_OF,
  WEB_FETCH_TIMEOUT_MS,
  WebToolError,
  type ImageSearchProvider,
  type ImageSearchResult,
  type WebFetchProvider,
  type WebPage,
  type WebProviderOptions,
  type WebSearchProvider,
  type WebSearchResult,
} from "./web-provider.ts";
import {
  property,
  searchEndpoint,
  searchResults,
  serviceEndpoint,
  text,
  webRequestJson,
  type WebEndpoint,
} from "./web-request.ts";
import { imageResults } from "./image-results.ts";

/** Firecrawl's search returns at most 100 results per request. */
const FIRECRAWL_MAX_LIMIT = 100;
const CREDITS_HINT = "The Firecrawl account has no credits left.";

function headers(apiKey: string | undefined): Record<string, string> {
  return {
    "Content-Type": "application/json",
    Accept: "application/json",
    ...(apiKey && { Authorization: `Bearer ${apiKey}` }),
  };
}

/** POST /v2/search for one source (`web` or `images`); the hits of that source, or none. */
async function searchSource(
  endpoint: WebEndpoint,
  baseUrl: string,
  apiKey: string | undefined,
  source: "web" | "images",
  query: string,
  maxResults: number,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  const json = await webRequestJson(
    endpoint,
    `${baseUrl}/v2/search`,
    {
      method: "POST",
      headers: headers(apiKey),
      body: JSON.stringify({ query, limit: Math.min(maxResults, FIRECRAWL_MAX_LIMIT), sources: [{ type: source }] }),
    },
    signal,
  );
  if (property(json, "success") === false) {
    throw new WebToolError(`Firecrawl could not search: ${text(property(json, "error")) || "no reason given"}.`);
  }
  return property(property(json, "data"), source);
}

export class FirecrawlSearch implements WebSearchProvider {
  readonly label = WEB_SEARCH_PROVIDERS.firecrawl.label;
  private readonly endpoint: WebEndpoint;
  private readonly baseUrl: string;

  constructor(private readonly options: WebProviderOptions) {
    this.baseUrl = options.baseUrl ?? WEB_SEARCH_PROVIDERS.firecrawl.defaultBaseUrl!;
    this.endpoint = searchEndpoint(WEB_SEARCH_PROVIDERS.firecrawl, options, { statusHints: { 402: CREDITS_HINT } });
  }

  async search(query: string, maxResults: number, signal?: AbortSignal): Promise<WebSearchResult[]> {
    const web = await searchSource(this.endpoint, this.baseUrl, this.options.apiKey, "web", query, maxResults, signal);
    return searchResults(web, maxResults, { content: ["description", "markdown"] });
  }
}

export class FirecrawlFetch implements WebFetchProvider {
  readonly label = WEB_FETCH_PROVIDERS.firecrawl.label;
  private readonly endpoint: WebEndpoint;
  private readonly baseUrl: string;

  constructor(private readonly options: WebProviderOptions) {
    this.baseUrl = options.baseUrl ?? WEB_FETCH_PROVIDERS.firecrawl.defaultBaseUrl!;
    const keyHint = "Check the fetch API key in Settings → Web.";
    this.endpoint = serviceEndpoint(WEB_FETCH_PROVIDERS.firecrawl, options, WEB_FETCH_TIMEOUT_MS, {
      statusHints: { 401: keyHint, 403: keyHint, 402: CREDITS_HINT },
    });
  }

  async fetch(url: string, signal?: AbortSignal): Promise<WebPage> {
    const json = await webRequestJson(
      this.endpoint,
      `${this.baseUrl}/v2/scrape`,
      {
        method: "POST",
        headers: headers(this.options.apiKey),
        // Firecrawl waits for the page up to its own limit; ours ends the request first, so ask for less.
        body: JSON.stringify({ url, formats: ["markdown"], onlyMainContent: true, timeout: this.endpoint.timeoutMs }),
      },
      signal,
    );
    if (property(json, "success") === false) {
      throw new WebToolError(`Firecrawl could not read ${url}: ${text(property(json, "error")) || "no reason given"}.`);
    }
    const data = property(json, "data");
    const metadata = property(data, "metadata");
    const status = property(metadata, "statusCode");
    // The page itself answered an error: say so rather than hand its error page over as its content.
    if (typeof status === "number" && status >= 400) {
      throw new WebToolError(`${new URL(url).host} answered HTTP ${status} to Firecrawl.`);
    }
    const title = text(property(metadata, "title")).trim();
    return { ...(title && { title }), markdown: text(property(data, "markdown")) };
  }
}

export class FirecrawlImages implements ImageSearchProvider {
  readonly label = IMAGE_SEARCH_PROVIDERS.firecrawl.label;
  readonly filters = IMAGE_FILTERS_OF.firecrawl;
  private readonly endpoint: WebEndpoint;
  private readonly baseUrl: string;

  constructor(private readonly options: WebProviderOptions) {
    this.baseUrl = options.baseUrl ?? IMAGE_SEARCH_PROVIDERS.firecrawl.defaultBaseUrl!;
    this.endpoint = searchEndpoint(IMAGE_SEARCH_PROVIDERS.firecrawl, options, {
      statusHints: {
        401: "Check the image search API key in Settings → Web.",
        403: "Check the image search API key in Settings → Web.",
        402: CREDITS_HINT,
      },
    });
  }

  async search(
    query: string,
    maxResults: number,
    _filters: object,
    signal?: AbortSignal,
  ): Promise<ImageSearchResult[]> {
    const images = await searchSource(
      this.endpoint,
      this.baseUrl,
      this.options.apiKey,
      "images",
      query,
      maxResults,
      signal,
    );
    // Firecrawl gives no thumbnail: the image itself previews.
    return imageResults(images, maxResults, (item) => ({
      title: text(property(item, "title")),
      image_url: text(property(item, "imageUrl")),
      thumbnail_url: text(property(item, "imageUrl")),
      source_url: text(property(item, "url")),
      width: property(item, "imageWidth"),
      height: property(item, "imageHeight"),
    }));
  }
}
