// Brave's image search (https://api-dashboard.search.brave.com/app/documentation/image-search): a GET with the key
// in X-Subscription-Token, like its web search, through Fawn's proxy. Its thumbnails are served by Brave, so showing
// one tells the image's own host nothing.
import { IMAGE_SEARCH_PROVIDERS } from "../../../protocol/index.ts";
import { plainText } from "./brave-search.ts";
import { imageResults } from "./image-results.ts";
import {
  IMAGE_FILTERS_OF,
  type ImageSearchProvider,
  type ImageSearchResult,
  type WebProviderOptions,
} from "./web-provider.ts";
import { property, searchEndpoint, text, webRequestJson, type WebEndpoint } from "./web-request.ts";

const INFO = IMAGE_SEARCH_PROVIDERS.brave;
/** Brave returns at most 200 images per request. */
const BRAVE_MAX_IMAGES = 200;
const KEY_HINT = "Check the image search API key in Settings → Web.";

export class BraveImages implements ImageSearchProvider {
  readonly label = INFO.label;
  /** Brave's image search has none of DeerFlow's filters (only safe search, left at its strict default). */
  readonly filters = IMAGE_FILTERS_OF.brave;
  private readonly endpoint: WebEndpoint;
  private readonly baseUrl: string;

  constructor(private readonly options: WebProviderOptions) {
    this.baseUrl = options.baseUrl ?? INFO.defaultBaseUrl!;
    this.endpoint = searchEndpoint(INFO, options, { statusHints: { 401: KEY_HINT, 403: KEY_HINT, 422: KEY_HINT } });
  }

  async search(
    query: string,
    maxResults: number,
    _filters: object,
    signal?: AbortSignal,
  ): Promise<ImageSearchResult[]> {
    const url = new URL(`${this.baseUrl}/res/v1/images/search`);
    url.searchParams.set("q", query);
    url.searchParams.set("count", String(Math.min(maxResults, BRAVE_MAX_IMAGES)));
    const json = await webRequestJson(
      this.endpoint,
      url.href,
      { method: "GET", headers: { Accept: "application/json", "X-Subscription-Token": this.options.apiKey ?? "" } },
      signal,
    );
    return imageResults(property(json, "results"), maxResults, (item) => {
      const properties = property(item, "properties");
      return {
        title: plainText(text(property(item, "title"))),
        image_url: text(property(properties, "url")),
        thumbnail_url: text(property(property(item, "thumbnail"), "src")),
        source_url: text(property(item, "url")),
        width: property(properties, "width"),
        height: property(properties, "height"),
      };
    });
  }
}
