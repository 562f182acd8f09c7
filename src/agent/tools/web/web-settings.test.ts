import { describe, expect, it } from "vitest";
import { DEFAULT_WEB_TOOL_SETTINGS, type WebToolSettings } from "../../../protocol/index.ts";
import { parseWebToolSettings, readWebToolSettings } from "./web-settings.ts";

function settings(overrides: {
  search?: Partial<WebToolSettings["search"]>;
  fetch?: Partial<WebToolSettings["fetch"]>;
}): unknown {
  return {
    search: { ...DEFAULT_WEB_TOOL_SETTINGS.search, ...overrides.search },
    fetch: { ...DEFAULT_WEB_TOOL_SETTINGS.fetch, ...overrides.fetch },
  };
}

/** The problems with `input`, checked against the proxy Settings → Proxy names (none by default). */
function problems(input: unknown, proxyUrl?: string): string[] {
  const parsed = parseWebToolSettings(input, proxyUrl);
  return parsed.ok ? [] : parsed.problems;
}

describe("web tool settings", () => {
  it("defaults to no search and Jina's reader for fetch, which need no key", () => {
    expect(DEFAULT_WEB_TOOL_SETTINGS).toEqual({
      search: { provider: "off", apiKey: "" },
      fetch: { provider: "jina", apiKey: "" },
    });
    expect(parseWebToolSettings(DEFAULT_WEB_TOOL_SETTINGS)).toEqual({ ok: true, value: DEFAULT_WEB_TOOL_SETTINGS });
    expect(parseWebToolSettings({})).toEqual({ ok: true, value: DEFAULT_WEB_TOOL_SETTINGS });
  });

  it("asks for the key of a search service that needs one, in one sentence each", () => {
    expect(problems(settings({ search: { provider: "tavily" } }))).toEqual(["Tavily needs an API key."]);
    expect(problems(settings({ search: { provider: "jina" } }))).toEqual([
      "Jina Search needs an API key (the Jina Reader works without one, search does not).",
    ]);
    expect(problems(settings({ search: { provider: "brave" } }), "http://127.0.0.1:8787/forward/")).toEqual([
      "Brave Search needs an API key.",
    ]);
  });

  it("asks for the SearXNG instance's address and normalizes it", () => {
    expect(problems(settings({ search: { provider: "searxng" } }))).toEqual([
      "SearXNG needs the address of your instance, e.g. https://searx.example.org.",
    ]);
    const parsed = parseWebToolSettings(
      settings({ search: { provider: "searxng", baseUrl: " https://searx.me/search/ " } }),
    );
    expect(parsed.ok && parsed.value.search).toEqual({ provider: "searxng", apiKey: "", baseUrl: "https://searx.me" });
  });

  it("refuses addresses that are not http(s), naming the field and an example", () => {
    expect(
      problems(
        settings({
          search: { provider: "tavily", apiKey: "tvly-1", baseUrl: "api.tavily.com" },
          fetch: { baseUrl: "ftp://r.jina.ai" },
        }),
      ),
    ).toEqual([
      "The search base URL must be an http:// or https:// address, e.g. https://api.tavily.com.",
      "The fetch base URL must be an http:// or https:// address, e.g. https://r.jina.ai.",
    ]);
  });

  it("requires the proxy for Brave, which refuses browsers, unless its address is overridden", () => {
    expect(problems(settings({ search: { provider: "brave", apiKey: "BSA-1" } }))).toEqual([
      "Brave Search refuses requests from web pages: it works through Fawn's proxy, a helper that runs on your " +
        "computer. Set its Proxy URL in Settings → Web.",
    ]);
    expect(
      problems(settings({ search: { provider: "brave", apiKey: "BSA-1", baseUrl: "http://127.0.0.1:9/brave" } })),
    ).toEqual([]);
  });

  it("trims keys and refuses keys a request header cannot carry", () => {
    const parsed = parseWebToolSettings(settings({ search: { provider: "tavily", apiKey: "  tvly-abc \n" } }));
    expect(parsed.ok && parsed.value.search.apiKey).toBe("tvly-abc");
    expect(problems(settings({ search: { provider: "tavily", apiKey: "tvly abc" } }))).toEqual([
      "The search API key has spaces or characters a request cannot carry; paste it again.",
    ]);
    expect(problems(settings({ fetch: { apiKey: "jina_é" } }))).toEqual([
      "The fetch API key has spaces or characters a request cannot carry; paste it again.",
    ]);
  });

  it("refuses unknown providers", () => {
    expect(problems(settings({ search: { provider: "google" as never } }))).toEqual([
      "Choose a search provider: Off, Tavily, Brave Search, SearXNG, Jina Search or Firecrawl.",
    ]);
    expect(problems(settings({ fetch: { provider: "curl" as never } }))).toEqual([
      "Choose a fetch provider: Jina Reader, Direct or Firecrawl.",
    ]);
    expect(problems({ images: { provider: "google", apiKey: "" } })).toEqual([
      "Choose an image search provider: Off, Firecrawl, Brave Search or Serper.",
    ]);
  });

  it("Firecrawl needs its key for search, fetch and images; Brave's and Serper's image search need the proxy", () => {
    expect(
      problems({
        search: { provider: "firecrawl", apiKey: "" },
        fetch: { provider: "firecrawl", apiKey: "" },
        images: { provider: "firecrawl", apiKey: "" },
      }),
    ).toEqual([
      "Firecrawl needs an API key.",
      "Firecrawl image search needs an API key.",
      "Firecrawl needs an API key to read pages.",
    ]);
    expect(problems({ images: { provider: "serper", apiKey: "k" } })).toEqual([
      "Serper refuses requests from web pages: its image search works through Fawn's proxy, a helper that runs on " +
        "your computer. Set its Proxy URL in Settings → Web.",
    ]);
    expect(problems({ images: { provider: "brave", apiKey: "k" } }, "http://127.0.0.1:8787/forward/")).toEqual([]);
    expect(problems({ images: { provider: "firecrawl", apiKey: "k", baseUrl: "ftp://x" } })).toEqual([
      "The image search base URL must be an http:// or https:// address, e.g. https://api.firecrawl.dev.",
    ]);
  });

  it("keeps image search with its key and address, and none at all when it is off", () => {
    const parsed = parseWebToolSettings({
      images: { provider: "firecrawl", apiKey: " fc-key ", baseUrl: "http://127.0.0.1:3002/" },
    });
    expect(parsed).toEqual({
      ok: true,
      value: {
        ...DEFAULT_WEB_TOOL_SETTINGS,
        images: { provider: "firecrawl", apiKey: "fc-key", baseUrl: "http://127.0.0.1:3002" },
      },
    });
    expect(parseWebToolSettings({ images: { provider: "off", apiKey: "x" } })).toEqual({
      ok: true,
      value: DEFAULT_WEB_TOOL_SETTINGS,
    });
    // A stored image search that no longer passes (its proxy is gone) is off; the rest stays.
    expect(
      readWebToolSettings({ search: { provider: "tavily", apiKey: "t" }, images: { provider: "serper", apiKey: "k" } }),
    ).toEqual({ search: { provider: "tavily", apiKey: "t" }, fetch: { provider: "jina", apiKey: "" } });
  });

  it("joins the problems into one message for the Save button's status line", () => {
    const parsed = parseWebToolSettings(settings({ search: { provider: "tavily" }, fetch: { baseUrl: "nope" } }));
    expect(parsed).toMatchObject({
      ok: false,
      message:
        "Tavily needs an API key. The fetch base URL must be an http:// or https:// address, e.g. https://r.jina.ai.",
    });
  });

  it("reads stored settings leniently: defaults for garbage, kept values when a later rule fails", () => {
    expect(readWebToolSettings(undefined)).toEqual(DEFAULT_WEB_TOOL_SETTINGS);
    expect(readWebToolSettings("garbage")).toEqual(DEFAULT_WEB_TOOL_SETTINGS);
    expect(readWebToolSettings({ search: { provider: "tavily", apiKey: "" } })).toEqual({
      search: { provider: "tavily", apiKey: "" },
      fetch: { provider: "jina", apiKey: "" },
    });
  });
});
