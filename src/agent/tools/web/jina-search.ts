// Jina Search (https://s.jina.ai): a GET with a Bearer key; it answers browsers (CORS). Asking for titles and
// descriptions only keeps it fast: web_fetch reads the pages.
import { WEB_SEARCH_PROVIDERS } from "../../../protocol/index.ts";
import {
  WEB_SEARCH_TIMEOUT_MS,
  WebToolError,
  type WebProviderOptions,
  type WebSearchProvider,
  type WebSearchResult,
} from "./web-provider.ts";
import { property, text, webRequestJson, type WebEndpoint } from "./web-request.ts";

const INFO = WEB_SEARCH_PROVIDERS.jina;

export class JinaSearch implements WebSearchProvider {
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
        402: "The Jina account has no tokens left.",
        403: "Check the search API key in Settings → Web.",
      },
    };
  }

  async search(query: string, maxResults: number, signal?: AbortSignal): Promise<WebSearchResult[]> {
    const url = new URL(`${this.baseUrl}/`);
    url.searchParams.set("q", query);
    let json: unknown;
    try {
      json = await webRequestJson(
        this.endpoint,
        url.href,
        {
          method: "GET",
          headers: {
            Accept: "application/json",
            Authorization: `Bearer ${this.options.apiKey ?? ""}`,
            "X-Respond-With": "no-content",
          },
        },
        signal,
      );
    } catch (error) {
      // Jina answers 422 "No search results available for query" when nothing matched.
      if (error instanceof WebToolError && /HTTP 422.*no search results/i.test(error.message)) return [];
      throw error;
    }
    const results = property(json, "data");
    if (!Array.isArray(results)) return [];
    return results
      .map((item: unknown) => ({
        title: text(property(item, "title")),
        url: text(property(item, "url")),
        content: text(property(item, "description")) || text(property(item, "content")),
      }))
      .filter((result) => result.url !== "")
      .slice(0, maxResults);
  }
}
