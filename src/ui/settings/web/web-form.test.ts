import { describe, expect, it } from "vitest";
import { webFormProblems, type WebForm } from "./web-form.ts";

const blank: WebForm = {
  searchProvider: "off",
  searchApiKey: "",
  searchBaseUrl: "",
  fetchProvider: "jina",
  fetchApiKey: "",
  fetchBaseUrl: "",
  imageProvider: "off",
  imageApiKey: "",
  imageBaseUrl: "",
  proxyUrl: "",
  proxyToken: "",
  askBeforeSending: false,
};

describe("Settings → Web's form problems", () => {
  it("finds nothing wrong with the defaults or a complete set-up", () => {
    expect(webFormProblems(blank)).toEqual([]);
    expect(
      webFormProblems({ ...blank, searchProvider: "brave", searchApiKey: "k", proxyUrl: "http://127.0.0.1:8787/" }),
    ).toEqual([]);
  });

  it("ties each problem to its field, in the order the tab shows them", () => {
    const problems = webFormProblems({
      ...blank,
      searchProvider: "tavily",
      searchBaseUrl: "tavily.com",
      fetchBaseUrl: "ftp://r.jina.ai",
      proxyUrl: "localhost:8787",
      proxyToken: "short",
    });
    expect(problems.map((problem) => problem.field)).toEqual([
      "searchApiKey",
      "searchBaseUrl",
      "fetchBaseUrl",
      "proxyUrl",
      "proxyToken",
    ]);
    expect(problems[0]?.message).toBe("Tavily needs an API key.");
    expect(problems[3]?.message).toMatch(/^The proxy URL must be an http:\/\/ or https:\/\/ address/);
  });

  it("asks for SearXNG's address, and for the proxy a service that refuses browsers needs", () => {
    expect(webFormProblems({ ...blank, searchProvider: "searxng" })).toEqual([
      { field: "searchBaseUrl", message: expect.stringMatching(/^SearXNG needs the address/) as string },
    ]);
    expect(webFormProblems({ ...blank, searchProvider: "brave", searchApiKey: "k" })).toEqual([
      { field: "proxyUrl", message: expect.stringMatching(/^Brave Search refuses requests from web pages/) as string },
    ]);
  });

  it("asks for Firecrawl's key where it reads pages or searches images, and the proxy Serper needs", () => {
    expect(webFormProblems({ ...blank, fetchProvider: "firecrawl", imageProvider: "firecrawl" })).toEqual([
      { field: "fetchApiKey", message: "Firecrawl needs an API key." },
      { field: "imageApiKey", message: "Firecrawl needs an API key." },
    ]);
    expect(
      webFormProblems({ ...blank, imageProvider: "serper", imageApiKey: "k", imageBaseUrl: "google.serper.dev" }),
    ).toEqual([{ field: "imageBaseUrl", message: expect.stringMatching(/^The base URL must be an http/) as string }]);
    expect(webFormProblems({ ...blank, imageProvider: "serper", imageApiKey: "k" })).toEqual([
      { field: "proxyUrl", message: expect.stringMatching(/^Serper refuses requests from web pages/) as string },
    ]);
    expect(
      webFormProblems({ ...blank, imageProvider: "brave", imageApiKey: "k", proxyUrl: "http://127.0.0.1:8787/" }),
    ).toEqual([]);
  });
});
