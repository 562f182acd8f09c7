// DeerFlow's custom-agents routes (`/api/agents`: list, check a name, get, create, update, delete; DeerFlow's Agent
// shape, with Fawn's `memory` and `guardrail` beside it), and Fawn's own beside them under `/api/fawn/agents`: the
// examples, the agents zip out and in, and an agent's own memory.
import type { AgentRecord } from "../../protocol/index.ts";
import { agentNameProblem } from "../../protocol/index.ts";
import type { Gateway } from "../create-gateway.ts";
import { contentDisposition } from "./artifact-content.ts";
import { json, problem, RouteProblem, type RouteGroup } from "./route-kit.ts";

/** An agent as DeerFlow's routes answer it (`soul` only where DeerFlow includes it: one agent, not the list). */
export function agentResponse(agent: AgentRecord, withSoul: boolean) {
  return {
    name: agent.name,
    description: agent.description,
    model: agent.model ?? null,
    tool_groups: agent.tool_groups ?? null,
    skills: agent.skills ?? null,
    model_settings: agent.model_settings ?? null,
    memory: agent.memory,
    guardrail: agent.guardrail ?? null,
    created_at: agent.created_at,
    updated_at: agent.updated_at,
    ...(withSoul && { soul: agent.soul }),
  };
}

/** A JSON body of any shape (the service checks it whole, one sentence per problem). */
async function body(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.length > 256 * 1024) throw new RouteProblem(413, "An agent's fields are at most 256 KB.");
  try {
    return text.trim() ? JSON.parse(text) : {};
  } catch {
    throw new RouteProblem(400, "The request body is not valid JSON.");
  }
}

/** The agent named in the path, or a 404 as DeerFlow answers. */
async function found(gateway: Gateway, name: string): Promise<AgentRecord> {
  const problemOfName = agentNameProblem(name);
  if (problemOfName) throw new RouteProblem(422, problemOfName);
  const agent = await gateway.agents.forRun(name);
  if (!agent) throw new RouteProblem(404, `Agent '${name}' not found`);
  return agent;
}

function zipResponse(archive: { name: string; bytes: Uint8Array }): Response {
  return new Response(new Blob([archive.bytes as Uint8Array<ArrayBuffer>]), {
    headers: {
      "content-type": "application/zip",
      "content-disposition": contentDisposition("attachment", archive.name),
      "cache-control": "private, no-cache",
    },
  });
}

export const agentsRoutes: RouteGroup = (app, gateway) => {
  app.get("/api/agents", async () =>
    json({ agents: (await gateway.agents.list()).map((agent) => agentResponse(agent, false)) }),
  );
  // Before `/api/agents/:name`, so "check" is not read as an agent's name.
  app.get("/api/agents/check", async (c) => {
    const name = c.req.query("name") ?? "";
    const check = await gateway.agents.checkName(name);
    if (!check.available && check.problem && agentNameProblem(check.name)) return problem(422, check.problem);
    return json({ available: check.available, name: check.name });
  });
  app.get("/api/agents/:name", async (c) => json(agentResponse(await found(gateway, c.req.param("name")), true)));
  app.post("/api/agents", async (c) => {
    const created = await gateway.agents.create((await body(c.req.raw)) as Parameters<Gateway["agents"]["create"]>[0]);
    return json(agentResponse(created, true), 201);
  });
  app.put("/api/agents/:name", async (c) => {
    const agent = await found(gateway, c.req.param("name"));
    const changes = (await body(c.req.raw)) as Record<string, unknown>;
    // DeerFlow's body may carry the name; it never renames.
    const { name: _name, ...rest } = typeof changes === "object" && changes !== null ? changes : {};
    void _name;
    return json(agentResponse(await gateway.agents.update(agent.name, rest), true));
  });
  app.delete("/api/agents/:name", async (c) => {
    const agent = await found(gateway, c.req.param("name"));
    await gateway.agents.delete(agent.name);
    return new Response(null, { status: 204 });
  });

  // Fawn's own.
  app.get("/api/fawn/agents/examples", async () => json({ agents: await gateway.agents.examples() }));
  app.get("/api/fawn/agents/export", async () => zipResponse(await gateway.agents.exportAll()));
  app.get("/api/fawn/agents/:name/export", async (c) => {
    const agent = await found(gateway, c.req.param("name"));
    return zipResponse(await gateway.agents.exportOne(agent.name));
  });
  // The zip's bytes as the body; `?file_name=` names it in refusals. Its size is held by the server's body limit,
  // then by the archive's own.
  app.post("/api/fawn/agents/import", async (c) => {
    const bytes = new Uint8Array(await c.req.raw.arrayBuffer());
    if (bytes.length === 0) throw new RouteProblem(400, "The request body is empty: send an agents zip's bytes.");
    const name = (c.req.query("file_name") ?? "agents.zip").slice(0, 200);
    const added = await gateway.agents.import({ name, bytes });
    return json({ agents: added.map((agent) => agentResponse(agent, true)) }, 201);
  });
  app.get("/api/fawn/agents/:name/memory", async (c) => {
    const agent = await found(gateway, c.req.param("name"));
    return json(await gateway.agents.getMemory(agent.name));
  });
  app.delete("/api/fawn/agents/:name/memory", async (c) => {
    const agent = await found(gateway, c.req.param("name"));
    return json(await gateway.agents.clearMemory(agent.name));
  });
};
