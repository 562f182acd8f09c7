// The two interfaces behind web_search and web_fetch; each service implements one of them in a file beside this one.

/** One search hit, DeerFlow's shape. */
export interface WebSearchResult {
  title: string;
  url: string;
  /** A snippet of the page: the service's description or extract. */
  content: string;
}

export interface WebSearchProvider {
  /** Shown in messages, e.g. "Tavily". */
  readonly label: string;
  /**
   * At most `maxResults` hits for `query`, best first; an empty list when there are none. Rejects with a
   * `WebToolError` whose message a user can act on and that never holds the API key.
   */
  search(query: string, maxResults: number, signal?: AbortSignal): Promise<WebSearchResult[]>;
}

/** A page's readable content. */
export interface WebPage {
  title?: string;
  markdown: string;
}

export interface WebFetchProvider {
  readonly label: string;
  /** The readable content of the http(s) page at `url`; rejects like `WebSearchProvider.search`. */
  fetch(url: string, signal?: AbortSignal): Promise<WebPage>;
}

/** What every provider is built from. */
export interface WebProviderOptions {
  /** Injected in tests; defaults to the global fetch. */
  fetchImpl?: typeof fetch;
  apiKey?: string;
  /** Overrides the service's public address (tests point it at the mock server); SearXNG requires it. */
  baseUrl?: string;
  /** Prefix of Fawn's CORS proxy; used by services that refuse browser requests. */
  proxyUrl?: string;
  /** The proxy's token (Settings → Web): sent with the requests that go through the proxy, and no others. */
  proxyToken?: string;
  /** Overrides the default time limit of one request. */
  timeoutMs?: number;
}

/** A failure explained in one or two sentences, safe to show the model and the user (no key in it). */
export class WebToolError extends Error {
  override readonly name = "WebToolError";
}

/** How long one search may take. */
export const WEB_SEARCH_TIMEOUT_MS = 15_000;
/** How long reading one page may take (DeerFlow's web_fetch timeout). */
export const WEB_FETCH_TIMEOUT_MS = 10_000;

/** One image hit, DeerFlow's image_search shape (plus the page the image is on, when the service says). */
export interface ImageSearchResult {
  title: string;
  /** The full-size image. */
  image_url: string;
  /** A small version to preview; the full image when the service gives none. */
  thumbnail_url: string;
  /** The page the image was found on. */
  source_url?: string;
  width?: number;
  height?: number;
}

/** DeerFlow's image_search filters; a service applies those it has and ignores the others. */
export interface ImageSearchFilters {
  size?: "Small" | "Medium" | "Large" | "Wallpaper";
  type_image?: "photo" | "clipart" | "gif" | "transparent" | "line";
  layout?: "Square" | "Tall" | "Wide";
}

export interface ImageSearchProvider {
  readonly label: string;
  /** Which of DeerFlow's filters this service applies (the tool tells the model about these only). */
  readonly filters: readonly (keyof ImageSearchFilters)[];
  /** At most `maxResults` images for `query`, best first; rejects like `WebSearchProvider.search`. */
  search(
    query: string,
    maxResults: number,
    filters: ImageSearchFilters,
    signal?: AbortSignal,
  ): Promise<ImageSearchResult[]>;
}

/** Which of DeerFlow's image filters each image service applies (Serper maps them to Google's image options). */
export const IMAGE_FILTERS_OF: Readonly<
  Record<"firecrawl" | "brave" | "serper", readonly (keyof ImageSearchFilters)[]>
> = { firecrawl: [], brave: [], serper: ["size", "type_image", "layout"] };
