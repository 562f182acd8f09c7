// Custom agents on Fawn's server over real HTTP: a server workspace creates an agent through DeerFlow's /api/agents
// routes and runs a thread as it (the model gets its instructions; the thread remembers it), the agent is a LangGraph
// assistant a run can name, and Fawn's own routes export its zip; langgraphjs-only servers list none.
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRemoteWorkspace } from "../../src/gateway/remote/remote-workspace.ts";
import type { GatewayApi, ServerFeatures, ServerSummary } from "../../src/protocol/index.ts";
import { startTestServer, type TestServer } from "./server-harness.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const ALL: ServerFeatures = { fawn: true, uploads: true, artifacts: true, memory: true, skills: true, models: true };

function workspaceOf(kind: ServerSummary["kind"] = "fawn") {
  const summary: ServerSummary = {
    id: `s-${crypto.randomUUID()}`,
    name: "Test server",
    url: server.url,
    kind,
    features: ALL,
    added_at: Date.now(),
  };
  return createRemoteWorkspace({
    server: summary,
    local: {} as GatewayApi,
    token: server.adminToken,
    watchIntervalMs: 0,
  });
}

/** The system prompt of the latest model request whose messages carry `text`. */
function systemPromptFor(text: string): string {
  const request = server.mock.requests.findLast((recorded) => JSON.stringify(recorded.body).includes(text));
  const messages = (request?.body as { messages?: { role: string; content: unknown }[] })?.messages ?? [];
  return JSON.stringify(messages.filter((message) => message.role === "system"));
}

describe("custom agents on a Fawn server", () => {
  it("a workspace creates an agent and runs a thread as it; the thread remembers it", async () => {
    const workspace = workspaceOf();
    const created = await workspace.agents.create({
      name: "Pirate",
      description: "Talks like a pirate.",
      soul: "Answer like a pirate, arr.",
      memory: "shared",
      tool_groups: ["web"],
    });
    expect(created).toMatchObject({ name: "pirate", tool_groups: ["web"] });
    expect((await workspace.agents.list()).map((agent) => agent.name)).toContain("pirate");
    expect(await workspace.agents.checkName("pirate")).toMatchObject({ available: false });

    const thread = await workspace.threads.create();
    await workspace.runs.stream(
      {
        run_id: crypto.randomUUID(),
        thread_id: thread.thread_id,
        input: { messages: [{ type: "human", content: "ahoy from the workspace" }] },
        context: { agent: "pirate" },
      },
      () => undefined,
    );
    expect(systemPromptFor("ahoy from the workspace")).toContain("Answer like a pirate, arr.");
    expect((await workspace.threads.get(thread.thread_id))?.agent).toBe("pirate");

    const exported = await workspace.agents.exportOne("pirate");
    expect(exported.name).toBe("pirate.zip");
    await workspace.agents.delete("pirate");
    expect((await workspace.agents.list()).map((agent) => agent.name)).not.toContain("pirate");
  });

  it("serves each agent as a LangGraph assistant a run can name", async () => {
    const workspace = workspaceOf();
    await workspace.agents.create({ name: "owl", description: "Wise.", soul: "Hoot before answering.", memory: "own" });
    const client = new Client({ apiUrl: server.apiUrl, apiKey: server.adminToken, callerOptions: { maxRetries: 0 } });
    const assistants = await client.assistants.search({ graphId: "lead_agent" });
    const owl = assistants.find((assistant) => assistant.name === "owl");
    expect(owl).toMatchObject({ graph_id: "lead_agent", metadata: { agent_name: "owl" } });
    expect(assistants.map((assistant) => assistant.name)).toContain("lead_agent");
    expect((await client.assistants.get(owl!.assistant_id)).name).toBe("owl");

    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, owl!.assistant_id, {
      input: { messages: [{ type: "human", content: "who goes there, owl?" }] },
    });
    expect(systemPromptFor("who goes there, owl?")).toContain("Hoot before answering.");
    await expect(client.assistants.get("no-such-agent")).rejects.toThrow();
    await workspace.agents.delete("owl");
  });

  it("a langgraphjs-only server lists no agents and says creating one is unavailable", async () => {
    const workspace = workspaceOf("langgraph");
    expect(await workspace.agents.list()).toEqual([]);
    await expect(workspace.agents.create({ name: "x", description: "", soul: "y", memory: "shared" })).rejects.toThrow(
      "Custom agents are not available on langgraphjs dev",
    );
  });
});
