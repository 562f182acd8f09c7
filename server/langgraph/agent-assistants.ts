// A user's custom agents as LangGraph assistants on Fawn's server: each agent is an assistant of the graph
// `lead_agent` (its id a UUID v5 of the agent's name, so it stays the same on every replica), found by that id or
// by the agent's name, and a run that names it runs as that agent (DeerFlow's `context.agent_name`).
import { createHash } from "node:crypto";
import type { AgentRecord } from "../../src/protocol/index.ts";
import type { Gateway } from "../../src/gateway/index.ts";

/** The namespace of agents' assistant ids (the lead agent's own assistant id). */
const NAMESPACE = "bee7d354-5df5-5f26-a978-10ea053f620d";

/** A UUID v5 (RFC 4122, SHA-1) of `name` in `namespace`. */
function uuidV5(name: string, namespace: string): string {
  const space = Buffer.from(namespace.replace(/-/g, ""), "hex");
  const hash = createHash("sha1").update(space).update(name, "utf8").digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The assistant id of the agent named `name`. */
export function agentAssistantId(name: string): string {
  return uuidV5(`agent:${name}`, NAMESPACE);
}

/** The agent as LangGraph's server answers an assistant. */
export function agentAssistant(agent: AgentRecord) {
  return {
    assistant_id: agentAssistantId(agent.name),
    graph_id: "lead_agent",
    config: {},
    context: { agent_name: agent.name },
    metadata: { created_by: "user", agent_name: agent.name },
    name: agent.name,
    description: agent.description || null,
    version: 1,
    created_at: new Date(agent.created_at).toISOString(),
    updated_at: new Date(agent.updated_at).toISOString(),
  };
}

export type AgentAssistant = ReturnType<typeof agentAssistant>;

/** The user's agents as assistants. */
export async function agentAssistants(gateway: Gateway): Promise<AgentAssistant[]> {
  return (await gateway.agents.list()).map(agentAssistant);
}

/** The agent an assistant id (or an agent's name) names, or undefined. */
export async function agentOfAssistant(gateway: Gateway, id: string): Promise<AgentRecord | undefined> {
  const agents = await gateway.agents.list();
  return agents.find((agent) => agentAssistantId(agent.name) === id || agent.name === id.toLowerCase());
}
