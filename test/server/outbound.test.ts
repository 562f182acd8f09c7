// The server's outbound guard end to end (server/outbound.ts): a user's run whose model asks web_fetch for a
// loopback address, and an MCP server a user sets at one, are refused with the admin's remedy sentence and the local
// service is never reached, while the configured mock model (itself on 127.0.0.1) keeps answering.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./server-harness.ts";

const REMEDY = "the server's admin can allow it in fawn-server.json's outbound.allow.";

let server: TestServer;
let local: Server;
let localPort: number;
const hits: string[] = [];

beforeAll(async () => {
  local = createServer((request, response) => {
    hits.push(`${request.method ?? ""} ${request.url ?? ""}`);
    response.end("the deployment's secret");
  });
  await new Promise<void>((resolve) => local.listen(0, "127.0.0.1", resolve));
  localPort = (local.address() as AddressInfo).port;
  // web_fetch reads pages itself ("direct"), without asking first: the request is the server's own.
  server = await startTestServer({ file: { webTools: { fetch: { provider: "direct" }, askBeforeSending: false } } });
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => local?.close(resolve));
});

type StateMessage = { type: string; content: unknown; name?: string };

describe("outbound requests of a user's Gateway", () => {
  it("refuses web_fetch of a loopback address and an MCP server at one, while the mock model answers", async () => {
    const token = await server.addUser("mallory");
    const secret = `http://127.0.0.1:${localPort}/secret`;
    const put = await server.request("/api/mcp/config", {
      method: "PUT",
      token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ mcp_servers: { inside: { enabled: true, type: "http", url: `${secret}/mcp` } } }),
    });
    expect(put.status).toBe(200);

    const client = new Client({ apiUrl: server.apiUrl, apiKey: token });
    const thread = await client.threads.create();
    server.mock.reset();
    await client.runs.wait(thread.thread_id, "lead_agent", {
      input: { messages: [{ type: "human", content: `call tool web_fetch {"url":"${secret}"}` }] },
    });

    const refusal = `127.0.0.1:${localPort} is a loopback address; ${REMEDY}`;
    const state = await client.threads.getState<{ messages: StateMessage[] }>(thread.thread_id);
    const messages = state.values.messages;
    const tool = messages.find((message) => message.type === "tool");
    expect(JSON.stringify(tool?.content)).toContain(refusal);
    // The model answered after the tool's refusal: the run went on.
    expect(messages.at(-1)?.type).toBe("ai");
    // The MCP server was refused too; the run's prompt tells the model so, in the same sentence.
    const prompts = JSON.stringify(server.mock.requests.map((request) => request.body));
    expect(prompts).toContain(`The MCP server \\"inside\\" cannot be used: ${refusal}`);
    expect(hits).toEqual([]);
  });
});
