import { describe, expect, it } from "vitest";
import { DirectFetch } from "./direct-fetch.ts";
import {
  createFakeFetch,
  jsonResponse,
  networkFailure,
  never,
  type FakeFetchHandler,
} from "../../../../test/support/fake-fetch.ts";
import { htmlToMarkdown } from "./html-to-markdown.ts";
import { JinaReader, parseReaderText } from "./jina-reader.ts";
import { WebToolError, type WebProviderOptions } from "./web-provider.ts";

const KEY = "jina_secret_0123456789";
const PROXY = "http://127.0.0.1:8787/forward/";

const ARTICLE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>How fawns hide | Deer Weekly</title>
  <style>body { color: red }</style>
  <script>window.analytics = "tracking";</script>
</head>
<body>
  <nav class="menu"><a href="/">Home</a> <a href="/subscribe">Subscribe now</a></nav>
  <main>
    <article>
      <h1>How fawns hide</h1>
      <p>For their first weeks, fawns lie still in tall grass while their mother feeds nearby, returning to nurse
      them a few times a day. Their spotted coat breaks up their outline, and they give off very little scent.</p>
      <h2>Why they stay still</h2>
      <p>A fawn that freezes is harder to find than one that runs, which is why people who find one alone should
      leave it where it is, as the <a href="/guides/fawn-found.html">wildlife guide</a> explains in detail.</p>
      <img src="/img/fawn.jpg" alt="A fawn in the grass">
      <img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==" alt="pixel">
      <pre><code>fawn.hide();</code></pre>
      <script>document.write("injected")</script>
    </article>
  </main>
  <aside>Related: buy deer feed</aside>
  <footer>© Deer Weekly</footer>
</body>
</html>`;

function reader(handler: FakeFetchHandler, options: WebProviderOptions = {}) {
  const fake = createFakeFetch(handler);
  return { reader: new JinaReader({ fetchImpl: fake.fetch, ...options }), requests: fake.requests };
}

function direct(handler: FakeFetchHandler, options: WebProviderOptions = {}) {
  const fake = createFakeFetch(handler);
  return { direct: new DirectFetch({ fetchImpl: fake.fetch, ...options }), requests: fake.requests };
}

function html(body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { headers: { "Content-Type": "text/html; charset=utf-8", ...headers } });
}

describe("htmlToMarkdown", () => {
  it("keeps the article as Markdown and drops navigation, scripts, styles, asides and the footer", async () => {
    const page = await htmlToMarkdown(ARTICLE, "https://deer.example/news/fawns.html");
    expect(page.title).toBe("How fawns hide | Deer Weekly");
    expect(page.markdown).toContain("fawns lie still in tall grass");
    expect(page.markdown).toContain("## Why they stay still");
    expect(page.markdown).toContain("```\nfawn.hide();\n```");
    for (const furniture of ["Subscribe now", "analytics", "color: red", "injected", "deer feed", "© Deer Weekly"]) {
      expect(page.markdown).not.toContain(furniture);
    }
  });

  it("makes links and images absolute and leaves out inline data images", async () => {
    const page = await htmlToMarkdown(ARTICLE, "https://deer.example/news/fawns.html");
    expect(page.markdown).toContain("[wildlife guide](https://deer.example/guides/fawn-found.html)");
    expect(page.markdown).toContain("![A fawn in the grass](https://deer.example/img/fawn.jpg)");
    expect(page.markdown).not.toContain("data:image");
  });

  it("converts the body without its furniture when there is no article to find", async () => {
    const page = await htmlToMarkdown(
      "<html><head><title> Tiny </title></head><body><header>Logo</header><nav>Menu</nav><p>Just one line.</p></body></html>",
      "https://tiny.example/",
    );
    expect(page).toEqual({ title: "Tiny", markdown: "Just one line." });
  });

  it("has no title when the page names none", async () => {
    expect(await htmlToMarkdown("<p>Untitled text.</p>", "https://x.example/")).toEqual({ markdown: "Untitled text." });
  });
});

describe("Jina Reader", () => {
  it("GETs r.jina.ai/<url> as JSON, without a key when there is none, and returns the title and Markdown", async () => {
    const { reader: jina, requests } = reader(() =>
      jsonResponse({ code: 200, status: 20000, data: { title: "Fawns", url: "u", content: "# Fawns\n\nText." } }),
    );
    expect(await jina.fetch("https://deer.example/a?b=1")).toEqual({ title: "Fawns", markdown: "# Fawns\n\nText." });
    expect(requests[0]).toMatchObject({ url: "https://r.jina.ai/https://deer.example/a?b=1", method: "GET" });
    expect(requests[0]!.headers.accept).toBe("application/json");
    expect(requests[0]!.headers.authorization).toBeUndefined();
  });

  it("sends the key as a Bearer token, calls a base URL override, and never uses the proxy (Jina allows CORS)", async () => {
    const { reader: jina, requests } = reader(() => jsonResponse({ data: { title: "", content: "x" } }), {
      apiKey: KEY,
      baseUrl: "http://127.0.0.1:11435/jina",
      proxyUrl: PROXY,
    });
    expect(await jina.fetch("https://deer.example/")).toEqual({ markdown: "x" });
    expect(requests[0]!.url).toBe("http://127.0.0.1:11435/jina/https://deer.example/");
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("reads the reader's text format and shows its warning about the target", async () => {
    expect(parseReaderText("Title: Fawns\n\nURL Source: https://d.example\n\nMarkdown Content:\nHello\n")).toEqual({
      title: "Fawns",
      markdown: "Hello",
    });
    expect(parseReaderText("just text")).toEqual({ markdown: "just text" });
    const { reader: jina } = reader(() =>
      jsonResponse({ data: { title: "404", warning: "Target URL returned error 404: Not Found", content: "Gone" } }),
    );
    expect((await jina.fetch("https://d.example/x")).markdown).toBe(
      "> Target URL returned error 404: Not Found\n\nGone",
    );
  });

  it("suggests a key when the keyless rate limit is hit, and never shows a key it was given", async () => {
    const { reader: keyless } = reader(() => jsonResponse({ code: 429, message: "Rate limit" }, 429));
    await expect(keyless.fetch("https://d.example/")).rejects.toThrow(
      "Jina Reader is limiting requests (HTTP 429): Rate limit. Without a key Jina's reader allows only a few " +
        "requests a minute: add a fetch API key in Settings → Web.",
    );
    const { reader: keyed } = reader(() => jsonResponse({ message: `Bad token ${KEY}` }, 401), { apiKey: KEY });
    const error = (await keyed.fetch("https://d.example/").catch((reason: unknown) => reason)) as Error;
    expect(error).toBeInstanceOf(WebToolError);
    expect(error.message).toBe(
      "Jina Reader refused the request (HTTP 401): Bad token [redacted key]. Check the fetch API key in Settings → Web, " +
        "or leave it empty.",
    );
  });

  it("gives up after 10 s by default, or the time it is given", async () => {
    const { reader: slow } = reader(never, { timeoutMs: 20 });
    await expect(slow.fetch("https://d.example/")).rejects.toThrow("Jina Reader did not answer within 0.02 s.");
  });
});

describe("Direct fetch", () => {
  it("GETs the page through the proxy when one is set and extracts the article", async () => {
    const { direct: page, requests } = direct(() => html(ARTICLE), { proxyUrl: PROXY });
    const result = await page.fetch("https://deer.example/news/fawns.html");
    expect(requests[0]!.url).toBe(`${PROXY}https://deer.example/news/fawns.html`);
    expect(requests[0]!.headers.accept).toMatch(/^text\/html/);
    expect(result.title).toBe("How fawns hide | Deer Weekly");
    // Relative links resolve against the page, not against the proxy.
    expect(result.markdown).toContain("(https://deer.example/guides/fawn-found.html)");
    expect(result.markdown).not.toContain("Subscribe now");
  });

  it("sends the proxy's token with requests through the proxy only, and says when the proxy wants it", async () => {
    const token = "proxy-token-0123456789abcdefghij";
    const { direct: page, requests } = direct(() => html(ARTICLE), { proxyUrl: PROXY, proxyToken: token });
    await page.fetch("https://deer.example/news/fawns.html");
    expect(requests[0]!.headers["x-fawn-proxy-token"]).toBe(token);
    // A page the model names that is the proxy itself, fetched directly, does not get the token.
    const { direct: bare, requests: bareRequests } = direct(() => html(ARTICLE), { proxyToken: token });
    await bare.fetch("http://127.0.0.1:8787/mcp/git");
    expect(bareRequests[0]!.headers["x-fawn-proxy-token"]).toBeUndefined();

    const message =
      "Fawn's proxy needs its token: the request carried no token or a wrong one. Paste the token from the " +
      "proxy's token file (/home/me/.config/fawn-proxy/token) into Settings → Web → Proxy token.";
    const refused = direct(
      () => new Response(JSON.stringify({ error: { message, type: "proxy_token" } }), { status: 401 }),
      { proxyUrl: PROXY },
    );
    await expect(refused.direct.fetch("https://deer.example/")).rejects.toThrow(message);
  });

  it("keeps text as it is, shows JSON in a code block and refuses files that are not pages", async () => {
    const text = direct(() => new Response("plain words\n", { headers: { "Content-Type": "text/plain" } }));
    expect(await text.direct.fetch("https://d.example/a.txt")).toEqual({ markdown: "plain words" });
    const json = direct(() => jsonResponse({ a: 1 }));
    expect(await json.direct.fetch("https://d.example/a.json")).toEqual({ markdown: '```json\n{\n  "a": 1\n}\n```' });
    const pdf = direct(() => new Response("%PDF-1.7", { headers: { "Content-Type": "application/pdf" } }));
    await expect(pdf.direct.fetch("https://d.example/a.pdf")).rejects.toThrow(
      "https://d.example/a.pdf is a application/pdf file, not a web page: web_fetch reads HTML and text only.",
    );
  });

  it("refuses an answer past 5 MB, whether or not its Content-Length says so", async () => {
    const message = "d.example sent more than the 5.0 MB web tools read.";
    const undeclared = direct(() => new Response("x".repeat(5 * 1024 * 1024 + 1)));
    await expect(undeclared.direct.fetch("https://d.example/big.txt")).rejects.toThrow(message);
    const declared = direct(() => new Response("x", { headers: { "Content-Length": String(6 * 1024 * 1024) } }));
    await expect(declared.direct.fetch("https://d.example/big.txt")).rejects.toThrow(message);
  });

  it("says which site answered an HTTP error", async () => {
    const missing = direct(() => new Response("<h1>Not here</h1>", { status: 404, statusText: "Not Found" }));
    await expect(missing.direct.fetch("https://d.example/gone")).rejects.toThrow(
      "d.example answered HTTP 404 Not Found: Not here.",
    );
  });

  it("without a proxy, explains that the site may refuse browsers and offers the proxy or Jina", async () => {
    const blocked = direct(networkFailure);
    await expect(blocked.direct.fetch("https://d.example/")).rejects.toThrow(
      "Could not reach d.example: the network failed, or it refuses requests from web pages (CORS). It works " +
        "through Fawn's proxy, a helper that runs on your computer: set its Proxy URL in Settings → Web, or " +
        "choose Jina Reader as the fetch provider.",
    );
  });
});
