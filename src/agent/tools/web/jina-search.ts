// Jina Search (https://s.jina.ai): a GET with a Bearer key; it answers browsers (CORS). Asking for titles and
// descriptions only keeps it fast: web_fetch reads the pages.
import { WEB_SEARCH_PROVIDERS } from "../../../protocol/index.ts";
import { WebToolError, type WebProviderOptions, type WebSearchProvider, type WebSearchResult } from "./web-provider.ts";
import { property, searchEndpoint, searchResults, webRequestJson, type WebEndpoint } from "./web-request.ts";

const INFO = WEB_SEARCH_PROVIDERS.jina;

export class JinaSearch implements WebSearchProvider {
  readonly label = INFO.label;
  private readonly endpoint: WebEndpoint;
  private readonly baseUrl: string;

  constructor(private readonly options: WebProviderOptions) {
    this.baseUrl = options.baseUrl ?? INFO.defaultBaseUrl!;
    this.endpoint = searchEndpoint(INFO, options, {
      statusHints: { 402: "The Jina account has no tokens left." },
    });
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
    return searchResults(property(json, "data"), maxResults, { content: ["description", "content"] });
  }
}
