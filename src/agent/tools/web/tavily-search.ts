// Tavily search (https://docs.tavily.com): a JSON POST with the key as a Bearer token; it answers browsers (CORS).
import { WEB_SEARCH_PROVIDERS } from "../../../protocol/index.ts";
import {
  WEB_SEARCH_TIMEOUT_MS,
  type WebProviderOptions,
  type WebSearchProvider,
  type WebSearchResult,
} from "./web-provider.ts";
import { property, text, webRequestJson, type WebEndpoint } from "./web-request.ts";

const INFO = WEB_SEARCH_PROVIDERS.tavily;

export class TavilySearch implements WebSearchProvider {
  readonly label = INFO.label;
  private readonly endpoint: WebEndpoint;
  private readonly baseUrl: string;

  constructor(private readonly options: WebProviderOptions) {
    this.baseUrl = options.baseUrl ?? INFO.defaultBaseUrl!;
    this.endpoint = {
      service: INFO.label,
      browserCors: INFO.browserCors,
      fetchImpl: options.fetchImpl,
      proxyUrl: options.proxyUrl,
      timeoutMs: options.timeoutMs ?? WEB_SEARCH_TIMEOUT_MS,
      secrets: [options.apiKey],
      statusHints: {
        401: "Check the search API key in Settings → Web.",
        403: "Check the search API key in Settings → Web.",
      },
    };
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
    const results = property(json, "results");
    if (!Array.isArray(results)) return [];
    return results
      .map((item: unknown) => ({
        title: text(property(item, "title")),
        url: text(property(item, "url")),
        content: text(property(item, "content")),
      }))
      .filter((result) => result.url !== "")
      .slice(0, maxResults);
  }
}
