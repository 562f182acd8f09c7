// One contract for every search provider (results, errors, time limits, the proxy), then each one's own request.
import { describe, expect, it } from "vitest";
import { BraveSearch, plainText } from "./brave-search.ts";
import {
  createFakeFetch,
  jsonResponse,
  networkFailure,
  never,
  type FakeFetchHandler,
} from "../../../../test/support/fake-fetch.ts";
import { FirecrawlSearch } from "./firecrawl.ts";
import { JinaSearch } from "./jina-search.ts";
import { SearxngSearch } from "./searxng-search.ts";
import { TavilySearch } from "./tavily-search.ts";
import { WebToolError, type WebProviderOptions, type WebSearchProvider, type WebSearchResult } from "./web-provider.ts";

const KEY = "secret-key-0123456789";
const PROXY = "http://127.0.0.1:8787/forward/";

const HITS: WebSearchResult[] = [
  { title: "Fawn", url: "https://example.com/fawn", content: "A young deer." },
  { title: "Deer", url: "https://example.com/deer", content: "Ruminant mammals." },
  { title: "Doe", url: "https://example.com/doe", content: "A female deer." },
];

interface ProviderCase {
  name: string;
  browserCors: boolean;
  create(options: WebProviderOptions): WebSearchProvider;
  /** The service's answer carrying `hits`, in its own shape. */
  answer(hits: WebSearchResult[]): Response;
}

const CASES: ProviderCase[] = [
  {
    name: "Tavily",
    browserCors: true,
    create: (options) => new TavilySearch(options),
    answer: (hits) => jsonResponse({ query: "q", results: hits.map((hit) => ({ ...hit, score: 0.5 })) }),
  },
  {
    name: "Brave Search",
    browserCors: false,
    create: (options) => new BraveSearch(options),
    answer: (hits) =>
      jsonResponse({
        type: "search",
        web: { results: hits.map((hit) => ({ title: hit.title, url: hit.url, description: hit.content })) },
      }),
  },
  {
    name: "SearXNG",
    browserCors: false,
    create: (options) => new SearxngSearch({ baseUrl: "https://searx.example.org", ...options }),
    answer: (hits) => jsonResponse({ query: "q", results: hits.map((hit) => ({ ...hit, engine: "x" })) }),
  },
  {
    name: "Jina Search",
    browserCors: true,
    create: (options) => new JinaSearch(options),
    answer: (hits) =>
      jsonResponse({
        code: 200,
        data: hits.map((hit) => ({ title: hit.title, url: hit.url, description: hit.content })),
      }),
  },
  {
    name: "Firecrawl",
    browserCors: true,
    create: (options) => new FirecrawlSearch(options),
    answer: (hits) =>
      jsonResponse({
        success: true,
        data: {
          web: hits.map((hit, index) => ({
            ...hit,
            content: undefined,
            description: hit.content,
            position: index + 1,
          })),
        },
      }),
  },
];

function provider(entry: ProviderCase, handler: FakeFetchHandler, options: WebProviderOptions = {}) {
  const fake = createFakeFetch(handler);
  return { search: entry.create({ apiKey: KEY, fetchImpl: fake.fetch, ...options }), requests: fake.requests };
}

async function failure(promise: Promise<unknown>): Promise<WebToolError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WebToolError);
  expect((error as Error).message).not.toContain(KEY);
  return error as WebToolError;
}

describe.each(CASES)("$name search (contract)", (entry) => {
  it("returns title, URL and snippet per hit, at most max results", async () => {
    const { search } = provider(entry, () => entry.answer(HITS));
    expect(await search.search("deer", 5)).toEqual(HITS);
    expect(await search.search("deer", 2)).toEqual(HITS.slice(0, 2));
    expect(search.label).toBe(entry.name);
  });

  it("returns an empty list when nothing matched", async () => {
    const { search } = provider(entry, () => entry.answer([]));
    expect(await search.search("nothing", 5)).toEqual([]);
  });

  it("explains a refused key, a rate limit and a server error without showing the key", async () => {
    const refusing = provider(entry, () => jsonResponse({ error: { message: `Invalid key ${KEY}` } }, 401));
    const refused = await failure(refusing.search.search("q", 5));
    expect(refused.message).toMatch(new RegExp(`^${entry.name} refused the request \\(HTTP 401\\)`));
    expect(refused.message).toContain("[redacted key]");

    const limiting = provider(entry, () => jsonResponse({ message: "Slow down" }, 429, { "Retry-After": "30" }));
    expect((await failure(limiting.search.search("q", 5))).message).toMatch(
      /is limiting requests \(HTTP 429 \(retry after 30 s\)\): Slow down\./,
    );

    const broken = provider(entry, () => new Response("<html><body>Bad gateway</body></html>", { status: 502 }));
    expect((await failure(broken.search.search("q", 5))).message).toContain(
      `${entry.name} had a server error (HTTP 502): Bad gateway.`,
    );
  });

  it("explains a network or CORS failure and an answer that is not JSON", async () => {
    const offline = provider(entry, networkFailure);
    expect((await failure(offline.search.search("q", 5))).message).toMatch(/^Could not reach /);
    const html = provider(entry, () => new Response("<html>login</html>", { status: 200 }));
    expect((await failure(html.search.search("q", 5))).message).toMatch(/answered with something other than JSON/);
  });

  it("gives up after its time limit, and says so apart from a cancelled run", async () => {
    const slow = provider(entry, never, { timeoutMs: 30 });
    expect((await failure(slow.search.search("q", 5))).message).toBe(`${entry.name} did not answer within 0.03 s.`);
    const controller = new AbortController();
    const stopped = provider(entry, never);
    const pending = stopped.search.search("q", 5, controller.signal);
    controller.abort();
    expect((await failure(pending)).message).toBe("The request was cancelled.");
  });

  it(`${entry.browserCors ? "calls the service directly even when a proxy is set" : "goes through the proxy when one is set"}`, async () => {
    const { search, requests } = provider(entry, () => entry.answer(HITS), { proxyUrl: PROXY });
    await search.search("q", 3);
    expect(requests[0]!.url.startsWith(PROXY)).toBe(!entry.browserCors);
  });
});

describe("each search service's request", () => {
  it("Tavily: a JSON POST to /search with the key as a Bearer token", async () => {
    const { search, requests } = provider(CASES[0]!, () => CASES[0]!.answer(HITS));
    await search.search("red deer", 4);
    expect(requests[0]).toMatchObject({
      url: "https://api.tavily.com/search",
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    });
    expect(JSON.parse(requests[0]!.body)).toMatchObject({ query: "red deer", max_results: 4, include_answer: false });
  });

  it("Tavily: a base URL override replaces the public endpoint", async () => {
    const { search, requests } = provider(CASES[0]!, () => CASES[0]!.answer(HITS), {
      baseUrl: "http://127.0.0.1:11435/tavily",
    });
    await search.search("q", 1);
    expect(requests[0]!.url).toBe("http://127.0.0.1:11435/tavily/search");
  });

  it("Brave: a GET with the key in X-Subscription-Token, through the proxy, highlights turned to text", async () => {
    const { search, requests } = provider(
      CASES[1]!,
      () =>
        jsonResponse({
          web: {
            results: [
              { title: "Deer &amp; fawns", url: "https://e.org", description: "The <strong>fawn</strong>&#x27;s coat" },
            ],
          },
        }),
      { proxyUrl: PROXY },
    );
    expect(await search.search("fawn coat", 25)).toEqual([
      { title: "Deer & fawns", url: "https://e.org", content: "The fawn's coat" },
    ]);
    expect(requests[0]).toMatchObject({
      url: `${PROXY}https://api.search.brave.com/res/v1/web/search?q=fawn+coat&count=20`,
      method: "GET",
      headers: { "x-subscription-token": KEY, accept: "application/json" },
    });
    expect(plainText("a &lt;b&gt; &#65; &#x1F98C; &unknown; &#99999999;")).toBe("a <b> A 🦌 &unknown; &#99999999;");
  });

  it("SearXNG: GET <instance>/search with format=json; a 403 says how to allow JSON", async () => {
    const { search, requests } = provider(CASES[2]!, () => CASES[2]!.answer(HITS), { apiKey: "" });
    await search.search("deer", 5);
    expect(requests[0]).toMatchObject({
      url: "https://searx.example.org/search?q=deer&format=json&pageno=1",
      method: "GET",
    });
    const forbidden = provider(CASES[2]!, () => new Response("<h1>Forbidden</h1>", { status: 403 }));
    expect((await failure(forbidden.search.search("q", 5))).message).toBe(
      "SearXNG refused the request (HTTP 403): Forbidden. The instance may not allow the JSON format: add json to " +
        "search.formats in its settings.yml.",
    );
    await expect(new SearxngSearch({}).search("q", 5)).rejects.toThrow(/SearXNG needs the address of your instance/);
  });

  it("SearXNG without CORS and without a proxy suggests both remedies", async () => {
    const offline = provider(CASES[2]!, networkFailure);
    expect((await failure(offline.search.search("q", 5))).message).toBe(
      "Could not reach SearXNG (searx.example.org): the network failed, or it refuses requests from web pages " +
        "(CORS). It works through Fawn's proxy, a helper that runs on your computer: set its Proxy URL in " +
        "Settings → Web, or let the instance send CORS headers.",
    );
    const viaProxy = provider(CASES[2]!, networkFailure, { proxyUrl: PROXY });
    expect((await failure(viaProxy.search.search("q", 5))).message).toBe(
      "Could not reach Fawn's proxy at http://127.0.0.1:8787: it is not running on this computer, or the Proxy " +
        "URL in Settings → Web is wrong.",
    );
  });

  it("Jina: GET s.jina.ai/?q= with the key, asking for no page content; 422 'no results' is an empty list", async () => {
    const { search, requests } = provider(CASES[3]!, () => CASES[3]!.answer(HITS));
    await search.search("deer", 5);
    expect(requests[0]).toMatchObject({
      url: "https://s.jina.ai/?q=deer",
      headers: { authorization: `Bearer ${KEY}`, "x-respond-with": "no-content", accept: "application/json" },
    });
    const none = provider(CASES[3]!, () =>
      jsonResponse({ code: 422, message: "No search results available for query deer" }, 422),
    );
    expect(await none.search.search("deer", 5)).toEqual([]);
  });

  it("relays what Fawn's proxy itself says went wrong", async () => {
    const { search } = provider(
      CASES[1]!,
      () =>
        jsonResponse(
          { error: { message: "Could not reach api.search.brave.com: getaddrinfo ENOTFOUND", type: "proxy_error" } },
          502,
        ),
      { proxyUrl: PROXY },
    );
    expect((await failure(search.search("q", 5))).message).toBe(
      "Fawn's proxy could not forward the request (HTTP 502): Could not reach api.search.brave.com: getaddrinfo ENOTFOUND.",
    );
  });
});
