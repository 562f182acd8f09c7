// Tavily search (https://docs.tavily.com): a JSON POST with the key as a Bearer token; it answers browsers (CORS).
import { WEB_SEARCH_PROVIDERS } from "../../../protocol/index.ts";
import type { WebProviderOptions, WebSearchProvider, WebSearchResult } from "./web-provider.ts";
import { property, searchEndpoint, searchResults, webRequestJson, type WebEndpoint } from "./web-request.ts";

const INFO = WEB_SEARCH_PROVIDERS.tavily;

export class TavilySearch implements WebSearchProvider {
  readonly label = INFO.label;
  private readonly endpoint: WebEndpoint;
  private readonly baseUrl: string;

  constructor(private readonly options: WebProviderOptions) {
    this.baseUrl = options.baseUrl ?? INFO.defaultBaseUrl!;
    this.endpoint = searchEndpoint(INFO, options);
  }

  async search(query: string, maxResults: number, signal?: AbortSignal): Promise<WebSearchResult[]> {
    const json = await webRequestJson(
      this.endpoint,
      `${this.baseUrl}/search`,
      {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          Authorization: `Bearer ${this.options.apiKey ?? ""}`,
        },
        body: JSON.stringify({
          query,
          max_results: maxResults,
          search_depth: "basic",
          topic: "general",
          include_answer: false,
          include_raw_content: false,
          include_images: false,
        }),
      },
      signal,
    );
    return searchResults(property(json, "results"), maxResults);
  }
}
