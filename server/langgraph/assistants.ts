// LangGraph's assistants, as Fawn serves them: one, the graph `lead_agent`, under the id LangGraph's own server derives
// for a graph (a UUID v5 of its name), so clients that ask for the id or for `lead_agent` both find it.
import { Hono } from "hono";
import { z } from "zod";
import type { Gateway } from "../../src/gateway/index.ts";
import { agentAssistants, agentOfAssistant, agentAssistant, type AgentAssistant } from "./agent-assistants.ts";
import { HttpProblem, json, ownerOf, readBody, type LangGraphContext, type LangGraphEnv } from "./http.ts";
import { matchesMetadata } from "./thread-metadata.ts";

/** The one graph Fawn serves. */
export const GRAPH_ID = "lead_agent";

/** `uuid.v5("lead_agent", NAMESPACE_GRAPH)`, as `@langchain/langgraph-api` names a graph's assistant. */
export const LEAD_AGENT_ASSISTANT_ID = "bee7d354-5df5-5f26-a978-10ea053f620d";

/** When the assistant came to be: fixed, so every replica answers the same. */
const CREATED_AT = "2026-01-01T00:00:00.000Z";

/** The assistant as LangGraph's server answers it. */
export const leadAgentAssistant = {
  assistant_id: LEAD_AGENT_ASSISTANT_ID,
  graph_id: GRAPH_ID,
  config: {},
  context: {},
  metadata: { created_by: "system" },
  name: GRAPH_ID,
  description: null,
  version: 1,
  created_at: CREATED_AT,
  updated_at: CREATED_AT,
};

/** True when `id` names Fawn's assistant, by its UUID or by its graph's name. */
export function isLeadAgent(id: string | undefined): boolean {
  return id === undefined || id === GRAPH_ID || id === LEAD_AGENT_ASSISTANT_ID;
}

/** The user's Gateway, for their custom agents (each an assistant); without it, only the lead agent is served. */
export type AssistantsGateway = ((owner: string) => Promise<Gateway>) | undefined;

const searchBody = z.object({
  graph_id: z.string().optional(),
  name: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  limit: z.number().int().min(1).max(1000).default(10),
  offset: z.number().int().min(0).default(0),
});

/** Search, count and get the assistant, with its graph's minimal drawing and schemas. */
export function assistantRoutes(gateway?: AssistantsGateway): Hono<LangGraphEnv> {
  const app = new Hono<LangGraphEnv>();
  /** The lead agent and the user's custom agents. */
  const all = async (c: LangGraphContext): Promise<(typeof leadAgentAssistant | AgentAssistant)[]> => [
    leadAgentAssistant,
    ...(gateway ? await agentAssistants(await gateway(ownerOf(c))) : []),
  ];
  /** The assistant `id` names (its id, or the graph's or an agent's name), or a 404 in LangGraph's words. */
  const assistantOr404 = async (c: LangGraphContext, id: string) => {
    if (isLeadAgent(id)) return leadAgentAssistant;
    const agent = gateway ? await agentOfAssistant(await gateway(ownerOf(c)), id) : undefined;
    if (!agent) throw new HttpProblem(404, `Assistant "${id}" not found.`);
    return agentAssistant(agent);
  };
  const searched = async (c: LangGraphContext, body: z.infer<typeof searchBody>) =>
    (await all(c)).filter(
      (assistant) =>
        (body.graph_id === undefined || body.graph_id === GRAPH_ID) &&
        (body.name === undefined || assistant.name.includes(body.name)) &&
        matchesMetadata(assistant.metadata, body.metadata),
    );
  app.post("/assistants/search", async (c) => {
    const body = await readBody(c, searchBody);
    const found = (await searched(c, body)).slice(body.offset, body.offset + body.limit);
    return json(found, 200, { "x-pagination-total": String(body.offset + found.length) });
  });
  app.post("/assistants/count", async (c) => json((await searched(c, await readBody(c, searchBody))).length));
  app.get("/assistants/:assistant_id", async (c) => json(await assistantOr404(c, c.req.param("assistant_id"))));
  app.get("/assistants/:assistant_id/graph", async (c) => {
    await assistantOr404(c, c.req.param("assistant_id"));
    // The agent's loop as createAgent draws it: model, tools, back to the model until it answers.
    return json({
      nodes: [
        { id: "__start__", type: "schema", data: "__start__" },
        { id: "model_request", type: "runnable", data: { id: ["langchain", "agents", "model_request"] } },
        { id: "tools", type: "runnable", data: { id: ["langchain", "agents", "tools"] } },
        { id: "__end__", type: "schema", data: "__end__" },
      ],
      edges: [
        { source: "__start__", target: "model_request" },
        { source: "model_request", target: "tools", conditional: true },
        { source: "model_request", target: "__end__", conditional: true },
        { source: "tools", target: "model_request" },
      ],
    });
  });
  app.get("/assistants/:assistant_id/schemas", async (c) => {
    await assistantOr404(c, c.req.param("assistant_id"));
    const messages = { type: "array", items: { type: "object" } };
    const state = { type: "object", properties: { messages, title: { type: "string" } } };
    const context = {
      type: "object",
      properties: { model_name: { type: "string" }, mode: { type: "string" }, agent_name: { type: "string" } },
    };
    return json({
      graph_id: GRAPH_ID,
      input_schema: { type: "object", properties: { messages } },
      output_schema: state,
      state_schema: state,
      config_schema: context,
      context_schema: context,
    });
  });
  app.get("/assistants/:assistant_id/subgraphs", async (c) => {
    await assistantOr404(c, c.req.param("assistant_id"));
    return json({});
  });
  return app;
}
