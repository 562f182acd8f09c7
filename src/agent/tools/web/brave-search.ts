// Brave Search API (https://api-dashboard.search.brave.com/app/documentation/web-search): a GET with the key in
// X-Subscription-Token. Brave refuses browser requests, so it goes through Fawn's proxy.
import { WEB_SEARCH_PROVIDERS } from "../../../protocol/index.ts";
import type { WebProviderOptions, WebSearchProvider, WebSearchResult } from "./web-provider.ts";
import {
  property,
  SEARCH_KEY_HINT,
  searchEndpoint,
  searchResults,
  webRequestJson,
  type WebEndpoint,
} from "./web-request.ts";

const INFO = WEB_SEARCH_PROVIDERS.brave;
/** Brave returns at most 20 web results per request. */
const BRAVE_MAX_COUNT = 20;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Brave's titles and descriptions carry <strong> highlights and HTML entities: plain text instead. */
export function plainText(html: string): string {
  return html.replace(/<[^>]*>/g, "").replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (!name.startsWith("#")) return ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    // String.fromCodePoint throws past U+10FFFF: such a reference is left as written.
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

export class BraveSearch implements WebSearchProvider {
  readonly label = INFO.label;
  private readonly endpoint: WebEndpoint;
  private readonly baseUrl: string;

  constructor(private readonly options: WebProviderOptions) {
    this.baseUrl = options.baseUrl ?? INFO.defaultBaseUrl!;
    this.endpoint = searchEndpoint(INFO, options, { statusHints: { 422: SEARCH_KEY_HINT } });
  }

  async search(query: string, maxResults: number, signal?: AbortSignal): Promise<WebSearchResult[]> {
    const url = new URL(`${this.baseUrl}/res/v1/web/search`);
    url.searchParams.set("q", query);
    url.searchParams.set("count", String(Math.min(maxResults, BRAVE_MAX_COUNT)));
    const json = await webRequestJson(
      this.endpoint,
      url.href,
      { method: "GET", headers: { Accept: "application/json", "X-Subscription-Token": this.options.apiKey ?? "" } },
      signal,
    );
    const results = property(property(json, "web"), "results");
    return searchResults(results, maxResults, { content: ["description"], clean: plainText });
  }
}
