// Settings → Servers' check against a real Fawn server (the one `npm run server` runs, over PGlite, the mock model):
// recognized as Fawn with every route the workspace uses, a user's token taken, a wrong or missing one refused in
// one sentence; a port where nothing listens and a web server that is not LangGraph's each said as such.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectedSentence, probeServer } from "../../src/gateway/remote/server-probe.ts";
import { startTestServer, type TestServer } from "./server-harness.ts";

let server: TestServer;
let garbage: Server;
let garbageUrl = "";
let closedUrl = "";

beforeAll(async () => {
  server = await startTestServer({ origins: ["*"] });
  garbage = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end("<html><body>It works!</body></html>");
  });
  await new Promise<void>((done) => garbage.listen(0, "127.0.0.1", done));
  garbageUrl = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`;
  // A port that was free a moment ago: nothing listens there.
  const closed = createServer();
  await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((done) => closed.close(() => done()));
});

afterAll(async () => {
  await server?.close();
  await new Promise<void>((done) => (garbage ? garbage.close(() => done()) : done()));
});

describe("probeServer against a real Fawn server", () => {
  it("recognizes it, takes a user's token and finds every route the workspace uses", async () => {
    const token = await server.addUser("ada");
    const result = await probeServer({ url: server.url, token });
    expect(result).toMatchObject({
      reachable: true,
      authorized: true,
      kind: "fawn",
      url: server.url,
      features: { fawn: true, uploads: true, artifacts: true, memory: true, skills: true, models: true },
    });
    const host = server.url.replace("http://", "");
    expect(connectedSentence(result)).toBe(
      `Connected to ${host} (Fawn server 0.1.0): threads, runs, uploads, artifacts, memory and skills.`,
    );
    // The SDK's base, as the start banner prints it, is the same server.
    expect(await probeServer({ url: server.apiUrl, token })).toMatchObject({ authorized: true, url: server.url });
  });

  it("finds Fawn's routes for a user holding threads with one empty search, never the whole thread list", async () => {
    const token = await server.addUser("grace");
    const sdk = new Client({ apiUrl: server.apiUrl, apiKey: token, callerOptions: { maxRetries: 0 } });
    for (let count = 0; count < 3; count++) await sdk.threads.create({ metadata: { title: `Thread ${count}` } });
    const asked: string[] = [];
    const recording: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      asked.push(`${request.method} ${new URL(request.url).pathname}`);
      return fetch(request);
    };
    const result = await probeServer({ url: server.url, token }, recording);
    expect(result).toMatchObject({ authorized: true, features: { fawn: true } });
    expect(asked).toContain("POST /api/fawn/threads/search");
    expect(asked).not.toContain("GET /api/fawn/threads");
  });

  it("says a wrong token is refused and a missing one is needed", async () => {
    const host = server.url.replace("http://", "");
    const wrong = await probeServer({ url: server.url, token: "not-a-token-of-this-server" });
    expect(wrong).toMatchObject({ reachable: true, authorized: false, kind: "fawn" });
    expect(wrong.sentence).toBe(`${host} refused the access token.`);
    expect((await probeServer({ url: server.url })).sentence).toBe(`${host} needs an access token.`);
  });

  it("says nothing answers at a closed port, and that a web page is not a LangGraph server", async () => {
    const closed = await probeServer({ url: closedUrl, token: "x" });
    expect(closed).toMatchObject({ reachable: false, authorized: false });
    expect(closed.sentence).toBe(
      `Nothing answers at ${closedUrl.replace("http://", "")}, or it does not take calls from this page.`,
    );
    const page = await probeServer({ url: garbageUrl, token: "x" });
    expect(page).toMatchObject({ reachable: true, authorized: false });
    expect(page.sentence).toBe(`${garbageUrl.replace("http://", "")} answered, but not as a LangGraph server.`);
  });
});
