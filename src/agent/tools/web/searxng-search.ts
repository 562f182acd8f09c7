// SearXNG (https://docs.searxng.org/dev/search_api.html): the user's own instance, `GET /search?format=json`.
// Instances send no CORS headers unless their operator adds them, so SearXNG goes through the proxy when one is set.
import { WEB_SEARCH_PROVIDERS } from "../../../protocol/index.ts";
import { WebToolError, type WebProviderOptions, type WebSearchProvider, type WebSearchResult } from "./web-provider.ts";
import { property, searchEndpoint, searchResults, webRequestJson, type WebEndpoint } from "./web-request.ts";

const INFO = WEB_SEARCH_PROVIDERS.searxng;

export class SearxngSearch implements WebSearchProvider {
  readonly label = INFO.label;
  private readonly endpoint: WebEndpoint;
  private readonly baseUrl: string | undefined;

  constructor(options: WebProviderOptions) {
    this.baseUrl = options.baseUrl;
    this.endpoint = searchEndpoint(INFO, options, {
      statusHints: {
        403: "The instance may not allow the JSON format: add json to search.formats in its settings.yml.",
        429: "The instance's limiter blocks this client; raise its limits or turn the limiter off for your address.",
      },
      unreachableHint: "or let the instance send CORS headers",
    });
  }

  async search(query: string, maxResults: number, signal?: AbortSignal): Promise<WebSearchResult[]> {
    if (!this.baseUrl) {
      throw new WebToolError("SearXNG needs the address of your instance: set it in Settings → Web.");
    }
    const url = new URL(`${this.baseUrl}/search`);
    url.searchParams.set("q", query);
    url.searchParams.set("format", "json");
    url.searchParams.set("pageno", "1");
    const json = await webRequestJson(
      this.endpoint,
      url.href,
      { method: "GET", headers: { Accept: "application/json" } },
      signal,
    );
    return searchResults(property(json, "results"), maxResults);
  }
}
