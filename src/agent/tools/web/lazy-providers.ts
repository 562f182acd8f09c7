// Providers whose code loads on their first call (optional-providers.ts, a chunk of its own): what the tool needs
// before that — the service's label and, for image search, which filters it applies — is known without it.
import type * as OptionalProviders from "./optional-providers.ts";
import type {
  ImageSearchFilters,
  ImageSearchProvider,
  ImageSearchResult,
  WebFetchProvider,
  WebPage,
  WebSearchProvider,
  WebSearchResult,
} from "./web-provider.ts";

// A type-only import: the module itself loads below, on first use.
type Optional = typeof OptionalProviders;

let loading: Promise<Optional> | undefined;
const load = (): Promise<Optional> => (loading ??= import("./optional-providers.ts"));

/** `make`'s provider, made once on first use. */
function once<T>(make: (module: Optional) => T): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= load().then(make));
}

export function lazySearch(label: string, make: (module: Optional) => WebSearchProvider): WebSearchProvider {
  const provider = once(make);
  return {
    label,
    search: async (query: string, maxResults: number, signal?: AbortSignal): Promise<WebSearchResult[]> =>
      (await provider()).search(query, maxResults, signal),
  };
}

export function lazyFetch(label: string, make: (module: Optional) => WebFetchProvider): WebFetchProvider {
  const provider = once(make);
  return {
    label,
    fetch: async (url: string, signal?: AbortSignal): Promise<WebPage> => (await provider()).fetch(url, signal),
  };
}

export function lazyImages(
  label: string,
  filters: readonly (keyof ImageSearchFilters)[],
  make: (module: Optional) => ImageSearchProvider,
): ImageSearchProvider {
  const provider = once(make);
  return {
    label,
    filters,
    search: async (
      query: string,
      maxResults: number,
      given: ImageSearchFilters,
      signal?: AbortSignal,
    ): Promise<ImageSearchResult[]> => (await provider()).search(query, maxResults, given, signal),
  };
}
