// web_search, web_fetch and image_search with DeerFlow's arguments and result formats (deerflow-inventory.md §5.8),
// over the services the user picked in Settings → Web. Results are plain strings; failures are `Error: …` strings.
import type { StructuredTool } from "@langchain/core/tools";
import { tool } from "langchain";
import { z } from "zod";
import {
  IMAGE_SEARCH_PROVIDERS,
  WEB_FETCH_PROVIDERS,
  WEB_SEARCH_PROVIDERS,
  type WebToolSettings,
} from "../../../protocol/index.ts";
import { truncateHead } from "../output-limits.ts";
import { BraveSearch } from "./brave-search.ts";
import { DirectFetch } from "./direct-fetch.ts";
import { imageSearchTool } from "./image-search-tool.ts";
import { JinaReader } from "./jina-reader.ts";
import { JinaSearch } from "./jina-search.ts";
import { lazyFetch, lazyImages, lazySearch } from "./lazy-providers.ts";
import { neutralizeFrameworkTags } from "./neutralize-tags.ts";
import { SearxngSearch } from "./searxng-search.ts";
import { TavilySearch } from "./tavily-search.ts";
import {
  IMAGE_FILTERS_OF,
  WebToolError,
  type ImageSearchProvider,
  type WebFetchProvider,
  type WebProviderOptions,
  type WebSearchProvider,
} from "./web-provider.ts";
import { redact } from "./web-request.ts";

/** web_fetch's result is cut to this many characters, as DeerFlow's is. */
export const WEB_FETCH_MAX_CHARS = 4096;
const WEB_SEARCH_DEFAULT_RESULTS = 5;
const WEB_SEARCH_MAX_RESULTS = 10;

export interface WebProviders {
  /** Absent when search is off: the agent gets no web_search. */
  search?: WebSearchProvider;
  fetch?: WebFetchProvider;
  /** Absent when image search is off: the agent gets no image_search. */
  images?: ImageSearchProvider;
}

export interface WebToolOptions {
  /** Injected in tests; defaults to the global fetch. */
  fetchImpl?: typeof fetch;
  /** Fawn's CORS relay (Settings → Proxy): services that refuse browsers go through it when it is set. */
  proxyUrl?: string;
  /** The relay's token, sent with the requests that go through it. */
  proxyToken?: string;
}

/** The providers the settings name, each with its own key, address and the proxy. */
function createWebProviders(settings: WebToolSettings, options: WebToolOptions = {}): WebProviders {
  const common: WebProviderOptions = {
    fetchImpl: options.fetchImpl,
    proxyUrl: options.proxyUrl,
    ...(options.proxyToken && { proxyToken: options.proxyToken }),
  };
  const searchOptions = { ...common, apiKey: settings.search.apiKey, baseUrl: settings.search.baseUrl };
  const fetchOptions = { ...common, apiKey: settings.fetch.apiKey, baseUrl: settings.fetch.baseUrl };
  const images = settings.images;
  const imageOptions = { ...common, apiKey: images?.apiKey, baseUrl: images?.baseUrl };
  return {
    ...(settings.search.provider === "tavily" && { search: new TavilySearch(searchOptions) }),
    ...(settings.search.provider === "brave" && { search: new BraveSearch(searchOptions) }),
    ...(settings.search.provider === "searxng" && { search: new SearxngSearch(searchOptions) }),
    ...(settings.search.provider === "jina" && { search: new JinaSearch(searchOptions) }),
    // Firecrawl and the image services load with their own chunk, on their first call (lazy-providers.ts).
    ...(settings.search.provider === "firecrawl" && {
      search: lazySearch(WEB_SEARCH_PROVIDERS.firecrawl.label, (m) => new m.FirecrawlSearch(searchOptions)),
    }),
    fetch:
      settings.fetch.provider === "direct"
        ? new DirectFetch(fetchOptions)
        : settings.fetch.provider === "firecrawl"
          ? lazyFetch(WEB_FETCH_PROVIDERS.firecrawl.label, (m) => new m.FirecrawlFetch(fetchOptions))
          : new JinaReader(fetchOptions),
    ...(images &&
      images.provider !== "off" && {
        images: lazyImages(IMAGE_SEARCH_PROVIDERS[images.provider].label, IMAGE_FILTERS_OF[images.provider], (m) =>
          images.provider === "firecrawl"
            ? new m.FirecrawlImages(imageOptions)
            : images.provider === "brave"
              ? new m.BraveImages(imageOptions)
              : new m.SerperImages(imageOptions),
        ),
      }),
  };
}

/** web_search (when search is on), web_fetch and image_search (when on), as the settings describe them. */
export function createWebTools(settings: WebToolSettings, options: WebToolOptions = {}): StructuredTool[] {
  return webToolsFor(createWebProviders(settings, options), {
    secrets: [settings.search.apiKey, settings.fetch.apiKey, settings.images?.apiKey ?? ""],
  });
}

/** An http(s) URL ready to fetch, or why it cannot be fetched. */
export function checkFetchUrl(raw: string): { ok: true; url: string } | { ok: false; message: string } {
  const value = raw.trim();
  if (!URL.canParse(value)) {
    return {
      ok: false,
      message: /^[a-z][a-z\d+.-]*:\/\//i.test(value)
        ? `${value} is not a valid URL.`
        : `${value} is not a full URL: include the scheme, e.g. https://${value.replace(/^\/+/, "")}`,
    };
  }
  const url = new URL(value);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, message: `Only http:// and https:// URLs can be fetched, not ${url.protocol} ones.` };
  }
  if (url.username || url.password) {
    return { ok: false, message: "URLs with a user name or password in them are not fetched." };
  }
  return { ok: true, url: url.href };
}

function clampResults(value: number | null | undefined): number {
  if (value === null || value === undefined || !Number.isFinite(value) || value < 1) return WEB_SEARCH_DEFAULT_RESULTS;
  return Math.min(Math.floor(value), WEB_SEARCH_MAX_RESULTS);
}

/** The tools over given providers (the in-memory ones in tests); `secrets` never appear in what they return. */
export function webToolsFor(providers: WebProviders, options: { secrets?: readonly string[] } = {}): StructuredTool[] {
  const secrets = (options.secrets ?? []).filter((secret) => secret !== "");
  const clean = (text: string) => neutralizeFrameworkTags(redact(text, secrets));
  const failure = (error: unknown): string => {
    const message = error instanceof Error ? error.message : String(error);
    return clean(`Error: ${error instanceof WebToolError ? message : `the web tool failed: ${message}`}`);
  };
  const tools: StructuredTool[] = [];

  const { search, fetch, images } = providers;
  if (search) {
    tools.push(
      tool(
        async ({ query, max_results }, config) => {
          const trimmed = query.trim();
          if (trimmed === "") return "Error: the search query is empty.";
          try {
            const max = clampResults(max_results);
            const results = (await search.search(trimmed, max, config?.signal)).slice(0, max).map((result) => ({
              title: clean(result.title.trim()),
              url: clean(result.url.trim()),
              content: clean(result.content.trim()),
            }));
            if (results.length === 0) return JSON.stringify({ error: "No results found", query: trimmed });
            return JSON.stringify({ query: trimmed, total_results: results.length, results }, null, 2);
          } catch (error) {
            return failure(error);
          }
        },
        {
          name: "web_search",
          description:
            "Search the web for current information: news, facts, documentation, articles. Returns JSON with a " +
            "title, URL and snippet per result. Use specific keywords. Snippets are short: read a promising result " +
            "with web_fetch before relying on it, and cite the pages you use.",
          schema: z.object({
            query: z.string().describe("What to search for; specific keywords work best."),
            max_results: z
              .number()
              .int()
              .nullish()
              .describe(
                `How many results to return, 1 to ${WEB_SEARCH_MAX_RESULTS} (default ${WEB_SEARCH_DEFAULT_RESULTS}).`,
              ),
          }),
        },
      ),
    );
  }

  if (fetch) {
    tools.push(
      tool(
        async ({ url }, config) => {
          const checked = checkFetchUrl(url);
          if (!checked.ok) return clean(`Error: ${checked.message}`);
          try {
            const page = await fetch.fetch(checked.url, config?.signal);
            const markdown = page.markdown.trim();
            if (markdown === "") {
              return clean(
                `Error: ${checked.url} has no readable text (the page may need JavaScript or a login to show it).`,
              );
            }
            const title = page.title?.replace(/\s+/g, " ").trim() || checked.url;
            return truncateHead(clean(`# ${title}\n\n${markdown}`), WEB_FETCH_MAX_CHARS, "The rest of the page is cut");
          } catch (error) {
            return failure(error);
          }
        },
        {
          name: "web_fetch",
          description:
            `Read a web page and get its main text as Markdown (at most ${WEB_FETCH_MAX_CHARS} characters). ` +
            "Only fetch exact URLs that the user gave you or that web_search or web_fetch returned: never guess or " +
            "change a URL (do not add www.). Write the full URL with its scheme: https://example.com, not " +
            "example.com. Pages behind a login cannot be read.",
          schema: z.object({
            url: z.string().describe("The page's full URL, with http:// or https://."),
          }),
        },
      ),
    );
  }
  if (images) tools.push(imageSearchTool(images, clean, failure));
  return tools;
}
