// In-memory web providers for tests and offline demos: canned results and pages, no network.
import {
  WebToolError,
  type ImageSearchFilters,
  type ImageSearchProvider,
  type ImageSearchResult,
  type WebFetchProvider,
  type WebPage,
  type WebSearchProvider,
  type WebSearchResult,
} from "./web-provider.ts";

export class MemoryWebSearch implements WebSearchProvider {
  readonly label = "Memory search";
  /** Queries in the order they were asked. */
  readonly queries: string[] = [];

  /** `results` answers every query, or a function picks the answer per query. */
  constructor(private readonly results: WebSearchResult[] | ((query: string) => WebSearchResult[])) {}

  async search(query: string, maxResults: number, signal?: AbortSignal): Promise<WebSearchResult[]> {
    if (signal?.aborted) throw new WebToolError("The request was cancelled.");
    this.queries.push(query);
    const results = typeof this.results === "function" ? this.results(query) : this.results;
    return results.slice(0, maxResults);
  }
}

export class MemoryWebFetch implements WebFetchProvider {
  readonly label = "Memory fetch";
  /** URLs in the order they were read. */
  readonly urls: string[] = [];

  /** Pages by exact URL; any other URL fails like an HTTP 404. */
  constructor(private readonly pages: Readonly<Record<string, WebPage>>) {}

  async fetch(url: string, signal?: AbortSignal): Promise<WebPage> {
    if (signal?.aborted) throw new WebToolError("The request was cancelled.");
    this.urls.push(url);
    const page = this.pages[url];
    if (!page) throw new WebToolError(`${new URL(url).host} answered HTTP 404 Not Found.`);
    return page;
  }
}

export class MemoryImageSearch implements ImageSearchProvider {
  readonly label = "Memory images";
  /** Each search's query and filters, in order. */
  readonly searches: { query: string; filters: ImageSearchFilters }[] = [];

  constructor(
    private readonly results: ImageSearchResult[],
    readonly filters: readonly (keyof ImageSearchFilters)[] = ["size", "type_image", "layout"],
  ) {}

  async search(
    query: string,
    maxResults: number,
    filters: ImageSearchFilters,
    signal?: AbortSignal,
  ): Promise<ImageSearchResult[]> {
    if (signal?.aborted) throw new WebToolError("The request was cancelled.");
    this.searches.push({ query, filters });
    return this.results.slice(0, maxResults);
  }
}
