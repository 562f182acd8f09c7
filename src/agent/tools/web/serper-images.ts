// Serper's Google image search (https://serper.dev): a JSON POST to /images with the key in X-API-KEY. DeerFlow's
// filters become Google's `tbs` image options (size, type, aspect ratio). Not documented to answer browsers, so it
// goes through Fawn's proxy when one is set.
import { IMAGE_SEARCH_PROVIDERS } from "../../../protocol/index.ts";
import { imageResults } from "./image-results.ts";
import {
  IMAGE_FILTERS_OF,
  type ImageSearchFilters,
  type ImageSearchProvider,
  type ImageSearchResult,
  type WebProviderOptions,
} from "./web-provider.ts";
import { property, searchEndpoint, text, webRequestJson, type WebEndpoint } from "./web-request.ts";

const INFO = IMAGE_SEARCH_PROVIDERS.serper;
const KEY_HINT = "Check the image search API key in Settings → Web.";
/** Serper returns at most 100 images per request. */
const SERPER_MAX_NUM = 100;

const SIZE: Record<NonNullable<ImageSearchFilters["size"]>, string> = {
  Small: "isz:i",
  Medium: "isz:m",
  Large: "isz:l",
  // Larger than 2 megapixels.
  Wallpaper: "isz:lt,islt:2mp",
};
const TYPE: Record<NonNullable<ImageSearchFilters["type_image"]>, string> = {
  photo: "itp:photo",
  clipart: "itp:clipart",
  gif: "itp:animated",
  transparent: "ic:trans",
  line: "itp:lineart",
};
const LAYOUT: Record<NonNullable<ImageSearchFilters["layout"]>, string> = {
  Square: "iar:s",
  Tall: "iar:t",
  Wide: "iar:w",
};

/** DeerFlow's filters as Google's `tbs` value; "" when there are none. */
export function serperTbs(filters: ImageSearchFilters): string {
  return [
    filters.size && SIZE[filters.size],
    filters.type_image && TYPE[filters.type_image],
    filters.layout && LAYOUT[filters.layout],
  ]
    .filter(Boolean)
    .join(",");
}

export class SerperImages implements ImageSearchProvider {
  readonly label = INFO.label;
  readonly filters = IMAGE_FILTERS_OF.serper;
  private readonly endpoint: WebEndpoint;
  private readonly baseUrl: string;

  constructor(private readonly options: WebProviderOptions) {
    this.baseUrl = options.baseUrl ?? INFO.defaultBaseUrl!;
    this.endpoint = searchEndpoint(INFO, options, { statusHints: { 401: KEY_HINT, 403: KEY_HINT } });
  }

  async search(
    query: string,
    maxResults: number,
    filters: ImageSearchFilters,
    signal?: AbortSignal,
  ): Promise<ImageSearchResult[]> {
    const tbs = serperTbs(filters);
    const json = await webRequestJson(
      this.endpoint,
      `${this.baseUrl}/images`,
      {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-API-KEY": this.options.apiKey ?? "",
        },
        body: JSON.stringify({
          q: query,
          num: Math.min(Math.max(maxResults, 10), SERPER_MAX_NUM),
          ...(tbs && { tbs }),
        }),
      },
      signal,
    );
    return imageResults(property(json, "images"), maxResults, (item) => ({
      title: text(property(item, "title")),
      image_url: text(property(item, "imageUrl")),
      thumbnail_url: text(property(item, "thumbnailUrl")),
      source_url: text(property(item, "link")),
      width: property(item, "imageWidth"),
      height: property(item, "imageHeight"),
    }));
  }
}
