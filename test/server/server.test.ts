// The server's shell over real HTTP: open health routes, tokens, the in-browser routes under both prefixes, and a
// streamed reply from the mock model through LangGraph's SDK.
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./server-harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    file: {
      webTools: { search: { provider: "tavily", apiKey: "$TEST_TAVILY_KEY" } },
      mcpServers: [{ name: "docs", url: "https://mcp.example.com/mcp", bearerToken: "$TEST_DOCS_TOKEN" }],
    },
    env: { TEST_TAVILY_KEY: "tvly-test", TEST_DOCS_TOKEN: "docs-secret" },
  });
});
afterAll(async () => {
  await server?.close();
});

describe("the server's shell", () => {
  it("answers /ok and /info without a token", async () => {
    const ok = await server.request("/ok", { token: null });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true });
    const info = await server.request("/info", { token: null });
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ name: "fawn", flags: { assistants: true } });
  });

  it("refuses /api without a token, or with one nobody holds, in one sentence", async () => {
    const missing = await server.request("/api/models", { token: null });
    expect(missing.status).toBe(401);
    expect((await missing.json()) as { detail: string }).toEqual({ detail: expect.stringMatching(/needs a token/) });
    const wrong = await server.request("/api/models", { token: "fawn_not-a-token" });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ detail: "This token is not valid on this server." });
  });

  it("takes the token as x-api-key too, and a new user's token once added", async () => {
    const token = await server.addUser("Ada");
    const response = await fetch(`${server.apiUrl}/models`, { headers: { "x-api-key": token } });
    expect(response.status).toBe(200);
    const { models } = (await response.json()) as { models: { model: string }[] };
    expect(models.map((model) => model.model)).toEqual(["mock-model"]);
  });

  it("lets the admin, and only the admin, add users over HTTP", async () => {
    const post = (token: string | null, body: string) =>
      server.request("/admin/users", { method: "POST", token, headers: { "content-type": "application/json" }, body });
    const added = await post(server.adminToken, JSON.stringify({ name: "Grace" }));
    expect(added.status).toBe(201);
    const grace = (await added.json()) as { user_id: string; name: string; token: string };
    expect(grace).toMatchObject({ name: "Grace", token: expect.stringMatching(/^fawn_/) });
    expect((await server.request("/api/models", { token: grace.token })).status).toBe(200);

    const again = await post(server.adminToken, JSON.stringify({ name: "Grace" }));
    expect([again.status, await again.json()]).toEqual([409, { detail: 'A user named "Grace" already exists.' }]);
    const byUser = await post(grace.token, JSON.stringify({ name: "Mallory" }));
    expect([byUser.status, await byUser.json()]).toEqual([
      403,
      { detail: "Only the server's admin can manage users." },
    ]);
    const listed = await server.request("/admin/users");
    expect(((await listed.json()) as { name: string }[]).map((user) => user.name)).toContain("Grace");
    expect((await server.request("/admin/users", { token: grace.token })).status).toBe(403);
  });

  it("answers CORS for the configured origins only, exposing Content-Location", async () => {
    const withOrigins = await startTestServer({ origins: ["https://app.example.com"], mock: server.mock });
    try {
      const preflight = await withOrigins.request("/api/threads", {
        method: "OPTIONS",
        token: null,
        headers: {
          origin: "https://app.example.com",
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type",
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
      expect(preflight.headers.get("access-control-allow-headers")).toMatch(/authorization/i);
      const answered = await withOrigins.request("/api/models", { headers: { origin: "https://app.example.com" } });
      expect(answered.headers.get("access-control-expose-headers")).toMatch(/Content-Location/);
      const other = await withOrigins.request("/api/models", { headers: { origin: "https://evil.example.com" } });
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      await withOrigins.close();
    }
  });

  it("writes the configuration's web tools and MCP servers into each user's settings, secrets kept back", async () => {
    const token = await server.addUser("Configured");
    const gateway = await server.server.gateways.forUser((await server.server.users.byToken(token))!.userId);
    expect((await gateway.settings.getWebTools()).search).toMatchObject({ provider: "tavily", apiKey: "tvly-test" });
    const mcp = await server.request("/api/mcp/config", { token });
    const text = await mcp.text();
    expect(JSON.parse(text)).toMatchObject({ mcp_servers: { docs: { url: "https://mcp.example.com/mcp" } } });
    expect(text).not.toContain("docs-secret");
  });

  it("refuses to start with settings Fawn's own services refuse, in their sentence", async () => {
    await expect(
      startTestServer({ mock: server.mock, file: { webTools: { search: { provider: "altavista" } } } }),
    ).rejects.toThrow(/^The configuration's settings were refused: /);
  });

  it("serves the same routes under /api/langgraph", async () => {
    const response = await server.request("/api/langgraph/models");
    expect(response.status).toBe(200);
  });

  it("streams a reply through LangGraph's SDK", async () => {
    const client = new Client({ apiUrl: server.apiUrl, apiKey: server.adminToken });
    const thread = await client.threads.create();
    const events: string[] = [];
    for await (const part of client.runs.stream(thread.thread_id, "lead_agent", {
      input: { messages: [{ type: "human", content: "Say hello" }] },
      streamMode: ["values"],
    })) {
      events.push(part.event);
    }
    expect(events).toContain("values");
    const state = await client.threads.getState<{ messages: { type: string }[] }>(thread.thread_id);
    expect(state.values.messages.map((message) => message.type)).toEqual(["human", "ai"]);
  });
});
