// The server's shell over real HTTP: open health routes, tokens, the in-browser routes under both prefixes, and a
// streamed reply from the mock model through LangGraph's SDK.
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./server-harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
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
