// Firecrawl's scrape and search requests, and every image search service (Firecrawl, Brave, Serper): the request
// each sends, how its answer becomes DeerFlow's image_search hits, and its errors (never with the key in them).
import { describe, expect, it } from "vitest";
import {
  createFakeFetch,
  jsonResponse,
  networkFailure,
  type FakeFetchHandler,
} from "../../../../test/support/fake-fetch.ts";
import { BraveImages } from "./brave-images.ts";
import { FirecrawlFetch, FirecrawlImages, FirecrawlSearch } from "./firecrawl.ts";
import { SerperImages, serperTbs } from "./serper-images.ts";
import {
  WebToolError,
  type ImageSearchProvider,
  type ImageSearchResult,
  type WebProviderOptions,
} from "./web-provider.ts";

const KEY = "fc-secret-0123456789abcdef";
const PROXY = "http://127.0.0.1:8787/forward/";

function faked<T>(
  create: (options: WebProviderOptions) => T,
  handler: FakeFetchHandler,
  options: WebProviderOptions = {},
) {
  const fake = createFakeFetch(handler);
  return { provider: create({ apiKey: KEY, fetchImpl: fake.fetch, ...options }), requests: fake.requests };
}

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WebToolError);
  expect((error as Error).message).not.toContain(KEY);
  return (error as Error).message;
}

describe("Firecrawl", () => {
  it("web_fetch: a JSON POST to /v2/scrape for Markdown with the key as a Bearer token", async () => {
    const { provider, requests } = faked(
      (options) => new FirecrawlFetch(options),
      () =>
        jsonResponse({
          success: true,
          data: { markdown: "# Fawns\n\nThey hide.", metadata: { title: "Fawns | Deer Weekly", statusCode: 200 } },
        }),
    );
    expect(await provider.fetch("https://deer.example/fawns")).toEqual({
      title: "Fawns | Deer Weekly",
      markdown: "# Fawns\n\nThey hide.",
    });
    expect(requests[0]).toMatchObject({
      url: "https://api.firecrawl.dev/v2/scrape",
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    });
    expect(JSON.parse(requests[0]!.body)).toMatchObject({
      url: "https://deer.example/fawns",
      formats: ["markdown"],
      onlyMainContent: true,
    });
  });

  it("web_fetch: the page's own error status, a refused key and an empty account are sentences", async () => {
    const missing = faked(
      (options) => new FirecrawlFetch(options),
      () => jsonResponse({ success: true, data: { markdown: "Not found", metadata: { statusCode: 404 } } }),
    );
    expect(await failure(missing.provider.fetch("https://deer.example/gone"))).toBe(
      "deer.example answered HTTP 404 to Firecrawl.",
    );
    const refused = faked(
      (options) => new FirecrawlFetch(options),
      () => jsonResponse({ success: false, error: `Unauthorized: Invalid token ${KEY}` }, 401),
    );
    expect(await failure(refused.provider.fetch("https://deer.example/"))).toBe(
      "Firecrawl refused the request (HTTP 401): Unauthorized: Invalid token [redacted key]. Check the fetch API key " +
        "in Settings → Web.",
    );
    const broke = faked(
      (options) => new FirecrawlFetch(options),
      () => jsonResponse({ success: false, error: "Insufficient credits" }, 402),
    );
    expect(await failure(broke.provider.fetch("https://deer.example/"))).toMatch(/no credits left\.$/);
  });

  it("web_search: one web source at most 100 results, to a self-hosted address when one is given", async () => {
    const { provider, requests } = faked(
      (options) => new FirecrawlSearch(options),
      () => jsonResponse({ success: true, data: { web: [] } }),
      { baseUrl: "http://127.0.0.1:3002", proxyUrl: PROXY },
    );
    expect(await provider.search("deer", 500)).toEqual([]);
    expect(requests[0]!.url).toBe("http://127.0.0.1:3002/v2/search");
    expect(JSON.parse(requests[0]!.body)).toEqual({ query: "deer", limit: 100, sources: [{ type: "web" }] });
  });
});

const IMAGES: ImageSearchResult[] = [
  {
    title: "Fawn in grass",
    image_url: "https://img.example/fawn.jpg",
    thumbnail_url: "https://thumbs.example/fawn.jpg",
    source_url: "https://deer.example/fawn",
    width: 1600,
    height: 900,
  },
  {
    title: "Doe",
    image_url: "https://img.example/doe.png",
    thumbnail_url: "https://thumbs.example/doe.png",
    source_url: "https://deer.example/doe",
    width: 800,
    height: 800,
  },
];

interface ImageCase {
  name: string;
  browserCors: boolean;
  create(options: WebProviderOptions): ImageSearchProvider;
  answer(images: ImageSearchResult[]): Response;
  /** What the service gives back for IMAGES (Firecrawl has no thumbnails). */
  expected: ImageSearchResult[];
}

const CASES: ImageCase[] = [
  {
    name: "Firecrawl",
    browserCors: true,
    create: (options) => new FirecrawlImages(options),
    answer: (images) =>
      jsonResponse({
        success: true,
        data: {
          images: images.map((image, index) => ({
            title: image.title,
            imageUrl: image.image_url,
            imageWidth: image.width,
            imageHeight: image.height,
            url: image.source_url,
            position: index + 1,
          })),
        },
      }),
    expected: IMAGES.map((image) => ({ ...image, thumbnail_url: image.image_url })),
  },
  {
    name: "Brave Search",
    browserCors: false,
    create: (options) => new BraveImages(options),
    answer: (images) =>
      jsonResponse({
        type: "images",
        results: images.map((image) => ({
          type: "image_result",
          title: image.title,
          url: image.source_url,
          thumbnail: { src: image.thumbnail_url, width: 200, height: 150 },
          properties: { url: image.image_url, width: image.width, height: image.height },
        })),
      }),
    expected: IMAGES,
  },
  {
    name: "Serper",
    browserCors: false,
    create: (options) => new SerperImages(options),
    answer: (images) =>
      jsonResponse({
        images: images.map((image, index) => ({
          title: image.title,
          imageUrl: image.image_url,
          imageWidth: image.width,
          imageHeight: image.height,
          thumbnailUrl: image.thumbnail_url,
          link: image.source_url,
          position: index + 1,
        })),
      }),
    expected: IMAGES,
  },
];

describe.each(CASES)("$name image search (contract)", (entry) => {
  it("returns each image with its thumbnail and page, at most max results, none when nothing matched", async () => {
    const { provider } = faked(entry.create, () => entry.answer(IMAGES));
    expect(await provider.search("fawn", 5, {})).toEqual(entry.expected);
    expect(await provider.search("fawn", 1, {})).toEqual(entry.expected.slice(0, 1));
    expect(provider.label).toBe(entry.name);
    const empty = faked(entry.create, () => entry.answer([]));
    expect(await empty.provider.search("nothing", 5, {})).toEqual([]);
  });

  it("drops an image whose address is not a web address, and a thumbnail that is not falls back to the image", async () => {
    const hostile = [
      { ...IMAGES[0]!, image_url: "javascript:alert(1)" },
      { ...IMAGES[1]!, thumbnail_url: "data:image/svg+xml,<svg/>" },
    ];
    const { provider } = faked(entry.create, () => entry.answer(hostile));
    const found = await provider.search("fawn", 5, {});
    expect(found.map((image) => image.image_url)).toEqual([IMAGES[1]!.image_url]);
    expect(found[0]!.thumbnail_url).toBe(IMAGES[1]!.image_url);
  });

  it("explains a refused key (pointing at the image search key) and an unreachable service, without the key", async () => {
    const refusing = faked(entry.create, () => jsonResponse({ error: { message: `Bad key ${KEY}` } }, 401));
    const refused = await failure(refusing.provider.search("q", 5, {}));
    expect(refused).toMatch(new RegExp(`^${entry.name} refused the request \\(HTTP 401\\)`));
    expect(refused).toContain("[redacted key]");
    expect(refused).toMatch(/Check the image search API key in Settings → Web\.$/);
    const offline = faked(entry.create, networkFailure);
    expect(await failure(offline.provider.search("q", 5, {}))).toMatch(/^Could not reach /);
  });

  it(`${entry.browserCors ? "calls the service directly even when a proxy is set" : "goes through the proxy when one is set"}`, async () => {
    const { provider, requests } = faked(entry.create, () => entry.answer(IMAGES), { proxyUrl: PROXY });
    await provider.search("q", 3, {});
    expect(requests[0]!.url.startsWith(PROXY)).toBe(!entry.browserCors);
  });
});

describe("each image service's request", () => {
  it("Firecrawl: POST /v2/search with the images source and a Bearer key", async () => {
    const { provider, requests } = faked(CASES[0]!.create, () => CASES[0]!.answer(IMAGES));
    await provider.search("red panda", 7, { size: "Large" });
    expect(requests[0]).toMatchObject({
      url: "https://api.firecrawl.dev/v2/search",
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(JSON.parse(requests[0]!.body)).toEqual({ query: "red panda", limit: 7, sources: [{ type: "images" }] });
    expect(provider.filters).toEqual([]);
  });

  it("Brave: GET /res/v1/images/search with the key in X-Subscription-Token, titles as plain text", async () => {
    const { provider, requests } = faked(
      CASES[1]!.create,
      () =>
        jsonResponse({
          results: [
            {
              title: "Red &amp; <b>panda</b>",
              url: "https://p.example",
              properties: { url: "https://i.example/p.jpg" },
            },
          ],
        }),
      { proxyUrl: PROXY },
    );
    expect(await provider.search("red panda", 4, {})).toEqual([
      {
        title: "Red & panda",
        image_url: "https://i.example/p.jpg",
        thumbnail_url: "https://i.example/p.jpg",
        source_url: "https://p.example/",
      },
    ]);
    expect(requests[0]).toMatchObject({
      url: `${PROXY}https://api.search.brave.com/res/v1/images/search?q=red+panda&count=4`,
      method: "GET",
      headers: { "x-subscription-token": KEY },
    });
  });

  it("Serper: POST /images with X-API-KEY, DeerFlow's filters as Google's tbs", async () => {
    const { provider, requests } = faked(CASES[2]!.create, () => CASES[2]!.answer(IMAGES), { proxyUrl: PROXY });
    await provider.search("red panda", 3, { size: "Large", type_image: "photo", layout: "Wide" });
    expect(requests[0]).toMatchObject({
      url: `${PROXY}https://google.serper.dev/images`,
      method: "POST",
      headers: { "x-api-key": KEY, "content-type": "application/json" },
    });
    expect(JSON.parse(requests[0]!.body)).toEqual({ q: "red panda", num: 10, tbs: "isz:l,itp:photo,iar:w" });
    await provider.search("red panda", 3, {});
    expect(JSON.parse(requests[1]!.body)).toEqual({ q: "red panda", num: 10 });
    expect(serperTbs({ size: "Wallpaper", type_image: "transparent" })).toBe("isz:lt,islt:2mp,ic:trans");
  });
});
