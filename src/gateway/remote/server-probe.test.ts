// Checking a server: each kind recognized by what it answers, the token tried where the workspace will use it, the
// routes it offers found, and every failure said in one sentence — over scripted answers (test/server has the real
// Fawn server).
import { describe, expect, it } from "vitest";
import { createFakeFetch, jsonResponse } from "../../../test/support/fake-fetch.ts";
import { connectedSentence, probeServer } from "./server-probe.ts";

const TOKEN = "tok-0123456789abcdef";

type Routes = Record<string, (request: Request) => Response>;

/** A server answering `routes` (`"GET /info"`), 404 for the rest; with `token`, 401 without it on every route but open ones. */
function server(routes: Routes, options: { token?: string; open?: string[] } = {}) {
  return createFakeFetch((request) => {
    const url = new URL(request.url);
    const key = `${request.method} ${url.pathname}`;
    const open = options.open ?? [];
    if (options.token && !open.includes(key) && request.headers.get("authorization") !== `Bearer ${options.token}`) {
      return jsonResponse({ detail: "Bad token." }, 401);
    }
    const route = routes[key];
    return route ? route(request) : jsonResponse({ detail: "Not found" }, 404);
  });
}

const fawnRoutes: Routes = {
  "GET /api/info": () => jsonResponse({ version: "0.1.0", name: "fawn", flags: { assistants: true } }),
  "GET /info": () => jsonResponse({ version: "0.1.0", name: "fawn", flags: { assistants: true } }),
  "POST /api/threads/search": () => jsonResponse([]),
  "POST /api/fawn/threads/search": () => jsonResponse({ query: "", hits: [], total: 0, indexing: false }),
  "GET /api/memory": () => jsonResponse({ version: "1.0", facts: [] }),
  "GET /api/skills": () => jsonResponse({ skills: [] }),
  "GET /api/models": () => jsonResponse({ models: [] }),
};
const FAWN_OPEN = ["GET /api/info", "GET /info"];

describe("probeServer", () => {
  it("recognizes a Fawn server, takes its token and lists what it offers", async () => {
    const fake = server(fawnRoutes, { token: TOKEN, open: FAWN_OPEN });
    const result = await probeServer({ url: "https://fawn.example/", token: TOKEN }, fake.fetch);
    expect(result).toMatchObject({
      reachable: true,
      authorized: true,
      kind: "fawn",
      url: "https://fawn.example",
      features: { fawn: true, uploads: true, artifacts: true, memory: true, skills: true, models: true },
    });
    expect(result.sentence).toBe(
      "Found Fawn server 0.1.0 at fawn.example: threads, runs, uploads, artifacts, memory and skills.",
    );
    expect(connectedSentence(result)).toBe(
      "Connected to fawn.example (Fawn server 0.1.0): threads, runs, uploads, artifacts, memory and skills.",
    );
    // The token went with the thread search only to the server's own URL.
    const withToken = fake.requests.filter((request) => request.headers.authorization);
    expect(withToken.every((request) => request.url.startsWith("https://fawn.example/api/"))).toBe(true);
  });

  it("takes the SDK's base (<url>/api), as the start banner prints it, for the server's URL", async () => {
    const fake = server(fawnRoutes, { token: TOKEN, open: FAWN_OPEN });
    const result = await probeServer({ url: "https://fawn.example/api", token: TOKEN }, fake.fetch);
    expect(result).toMatchObject({ authorized: true, kind: "fawn", url: "https://fawn.example" });
  });

  it("says a refused token, and a missing one, in one sentence each", async () => {
    const fake = server(fawnRoutes, { token: TOKEN, open: FAWN_OPEN });
    const wrong = await probeServer({ url: "https://fawn.example", token: "not-the-token" }, fake.fetch);
    expect(wrong).toMatchObject({ reachable: true, authorized: false, kind: "fawn" });
    expect(wrong.sentence).toBe("fawn.example refused the access token.");
    expect(wrong.features).toBeUndefined();
    const none = await probeServer({ url: "https://fawn.example" }, fake.fetch);
    expect(none.sentence).toBe("fawn.example needs an access token.");
  });

  it("recognizes langgraphjs dev by its /info and says the REST routes are missing there", async () => {
    const fake = server({
      "GET /info": () =>
        jsonResponse({ version: "1.2.3", langgraph_js_version: "1.0.0", context: "js", flags: { assistants: true } }),
      "POST /threads/search": () => jsonResponse([]),
    });
    const result = await probeServer({ url: "http://localhost:2024" }, fake.fetch);
    expect(result).toMatchObject({
      authorized: true,
      kind: "langgraph",
      features: { fawn: false, uploads: false, artifacts: false, memory: false, skills: false, models: false },
    });
    expect(connectedSentence(result)).toBe(
      "Connected to localhost:2024 (LangGraph server 1.2.3): threads and runs; uploads, artifacts, memory and skills are not available there.",
    );
  });

  it("recognizes a DeerFlow deployment by its gateway's /health and sends the token as its session cookie", async () => {
    const fake = createFakeFetch((request) => {
      const url = new URL(request.url);
      const key = `${request.method} ${url.pathname}`;
      if (key === "GET /health") return jsonResponse({ status: "healthy", service: "deer-flow-gateway" });
      if (!(request.headers.get("cookie") ?? "").includes(`access_token=${TOKEN}`)) {
        return jsonResponse({ detail: { code: "not_authenticated" } }, 401);
      }
      if (key === "POST /api/langgraph/threads/search") return jsonResponse([]);
      if (key === "GET /api/memory") return jsonResponse({ facts: [] });
      if (key === "GET /api/skills") return jsonResponse({ skills: [] });
      if (key === "GET /api/models") return jsonResponse({ models: [] });
      return jsonResponse({ detail: "Not Found" }, 404);
    });
    const result = await probeServer({ url: "https://deer.example", token: TOKEN }, fake.fetch);
    expect(result).toMatchObject({ authorized: true, kind: "deerflow", kindLabel: "DeerFlow" });
    expect(result.features).toEqual({
      fawn: false,
      uploads: true,
      artifacts: true,
      memory: true,
      skills: true,
      models: true,
    });
  });

  it("says nothing answers when no request gets through, or none in time", async () => {
    const refused = createFakeFetch(() => {
      throw new TypeError("Failed to fetch");
    });
    const result = await probeServer({ url: "http://127.0.0.1:9" }, refused.fetch);
    expect(result).toMatchObject({ reachable: false, authorized: false });
    expect(result.sentence).toBe("Nothing answers at 127.0.0.1:9, or it does not take calls from this page.");

    const silent = createFakeFetch(
      (_request, signal) =>
        new Promise<Response>((_done, fail) => signal?.addEventListener("abort", () => fail(signal.reason))),
    );
    const late = await probeServer({ url: "https://slow.example" }, silent.fetch, { timeoutMs: 50 });
    expect(late).toMatchObject({ reachable: false });
  });

  it("says a server that answers garbage is not a LangGraph server", async () => {
    const garbage = createFakeFetch(() => new Response("<html>It works!</html>", { status: 200 }));
    const result = await probeServer({ url: "https://www.example" }, garbage.fetch);
    expect(result).toMatchObject({ reachable: true, authorized: false });
    expect(result.sentence).toBe("www.example answered, but not as a LangGraph server.");

    // A LangGraph-looking /info whose thread search answers something else.
    const odd = server({
      "GET /info": () => jsonResponse({ flags: {} }),
      "POST /threads/search": () => jsonResponse({ threads: "many" }),
    });
    expect((await probeServer({ url: "https://odd.example" }, odd.fetch)).sentence).toBe(
      "odd.example answered, but not as a LangGraph server.",
    );
  });

  it("refuses an address that is not http(s) without calling anything", async () => {
    const fake = server(fawnRoutes);
    for (const url of ["ftp://fawn.example", "fawn.example", "https://user:pass@fawn.example"]) {
      const result = await probeServer({ url }, fake.fetch);
      expect(result.sentence).toBe("That is not a server address: enter its URL, starting with https:// or http://.");
    }
    expect(fake.requests).toHaveLength(0);
  });

  it("says an https page cannot call an http server, but on this machine", async () => {
    const fake = server(fawnRoutes, { token: TOKEN, open: FAWN_OPEN });
    const remote = await probeServer({ url: "http://192.168.1.20:2024", token: TOKEN }, fake.fetch, {
      pageProtocol: "https:",
    });
    expect(remote).toMatchObject({ reachable: false, authorized: false });
    expect(remote.sentence).toBe(
      "This page is served over https, so the browser does not let it call 192.168.1.20:2024 over http: give the server an https:// address.",
    );
    expect(fake.requests).toHaveLength(0);
    const local = await probeServer({ url: "http://localhost:2024", token: TOKEN }, fake.fetch, {
      pageProtocol: "https:",
    });
    expect(local.reachable).toBe(true);
  });

  it("leaves a version that is not a version out of the sentence", async () => {
    const fake = server({
      ...fawnRoutes,
      "GET /api/info": () => jsonResponse({ name: "fawn", version: "<img src=x onerror=alert(1)>" }),
    });
    const result = await probeServer({ url: "https://fawn.example" }, fake.fetch);
    expect(result.kindLabel).toBe("Fawn server");
    expect(result.sentence).not.toContain("<img");
  });

  it("never quotes the token, whatever the server answers", async () => {
    const echo = createFakeFetch((request) =>
      jsonResponse({ detail: `bad ${request.headers.get("authorization") ?? ""}` }, 401),
    );
    const result = await probeServer({ url: "https://echo.example", token: TOKEN }, echo.fetch);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });
});
