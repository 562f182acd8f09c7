// A server workspace's custom agents over a fake fetch: a DeerFlow deployment's /api/agents read into Fawn's records
// (its agents API off: none), a run that names an agent sends DeerFlow's context.agent_name and keeps it in the
// thread's metadata, and a name check's 422 as a problem.
import { describe, expect, it } from "vitest";
import type { ServerSummary } from "../../protocol/index.ts";
import { RemoteAgents } from "./remote-agents.ts";
import { RemoteContext } from "./remote-context.ts";
import { RemoteRuns } from "./remote-runs.ts";

const server: ServerSummary = {
  id: "agents-test",
  name: "Team DeerFlow",
  url: "https://deerflow.example",
  kind: "deerflow",
  features: { fawn: false, uploads: true, artifacts: true, memory: true, skills: true, models: true },
  added_at: 0,
};

interface Sent {
  method: string;
  url: string;
  body: unknown;
}

function fake(answer: (sent: Sent) => Response) {
  const sent: Sent[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const text = await request.text();
    const entry = { method: request.method, url: request.url, body: text ? (JSON.parse(text) as unknown) : undefined };
    sent.push(entry);
    return answer(entry);
  };
  return { sent, remote: new RemoteContext({ server, fetch }) };
}

describe("a server workspace's agents", () => {
  it("reads DeerFlow's agents (no times, no soul in the list) as Fawn's records", async () => {
    const { remote } = fake(() =>
      Response.json({
        agents: [
          { name: "Writer", description: "Writes", model: null, tool_groups: ["web"], skills: null },
          { name: "analyst", description: null, model_settings: { temperature: 0.2, max_tokens: null } },
        ],
      }),
    );
    expect(await new RemoteAgents(remote).list()).toEqual([
      {
        name: "analyst",
        description: "",
        soul: "",
        memory: "shared",
        model_settings: { temperature: 0.2 },
        created_at: 0,
        updated_at: 0,
      },
      {
        name: "writer",
        description: "Writes",
        soul: "",
        tool_groups: ["web"],
        memory: "shared",
        created_at: 0,
        updated_at: 0,
      },
    ]);
  });

  it("lists none when the deployment's agents API is off, and says a bad name's problem", async () => {
    const { remote } = fake((sent) =>
      sent.url.includes("/check")
        ? Response.json({ detail: "Invalid agent name" }, { status: 422 })
        : new Response(null, { status: 404 }),
    );
    const agents = new RemoteAgents(remote);
    expect(await agents.list()).toEqual([]);
    expect(await agents.checkName("no way")).toMatchObject({ available: false });
    await expect(agents.exportAll()).rejects.toThrow("Exporting an agents zip is not available on DeerFlow");
  });

  it("runs as an agent with DeerFlow's context.agent_name and keeps it in the thread's metadata", async () => {
    const { remote, sent } = fake(() => Response.json({ detail: "Thread t1 has inflight runs." }, { status: 409 }));
    await new RemoteRuns(remote).stream(
      {
        run_id: "r1",
        thread_id: "t1",
        input: { messages: [{ type: "human", content: "hi" }] },
        context: { agent: "writer" },
      },
      () => undefined,
    );
    const run = sent.find((entry) => entry.method === "POST" && entry.url.endsWith("/threads/t1/runs/stream"));
    expect((run?.body as { context?: unknown }).context).toMatchObject({ agent_name: "writer" });
    const patch = sent.find((entry) => entry.method === "PATCH" && entry.url.endsWith("/threads/t1"));
    expect(patch?.body).toEqual({ metadata: { agent_name: "writer" } });
  });
});
