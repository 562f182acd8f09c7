// A server workspace's agents domain (`gateway.agents` in a server workspace): the server's custom agents through
// DeerFlow's `/api/agents` routes (a Fawn server and a DeerFlow deployment with its agents API on), and on a Fawn
// server its own `/api/fawn/agents` routes for the examples, the agents zip and an agent's own memory. What a server
// cannot answer rejects with one sentence naming the feature and the server; a server without agents lists none.
import { z } from "zod";
import { parseMemoryDocument } from "../../agent/index.ts";
import {
  AGENT_LIST_MAX,
  type AgentDraft,
  type AgentNameCheck,
  type AgentRecord,
  type AgentsApi,
  type AgentsArchive,
  type AgentUpdate,
  type MemoryDocument,
} from "../../protocol/index.ts";
import type { RemoteContext } from "./remote-context.ts";
import { seg, type ServerFetch } from "./server-urls.ts";

const toolNames = z.array(z.string().max(128)).max(200);

/** An agent as DeerFlow's routes answer it (Fawn's adds memory and guardrail); absent fields take their defaults. */
const agentSchema = z.object({
  name: z.string().min(1).max(64),
  description: z.string().max(2000).nullish(),
  soul: z.string().max(200_000).nullish(),
  model: z.string().max(300).nullish(),
  tool_groups: z.array(z.string().max(40)).max(20).nullish(),
  skills: z.array(z.string().max(200)).max(500).nullish(),
  memory: z.enum(["shared", "own"]).nullish().catch(undefined),
  guardrail: z.object({ allow: toolNames.nullish(), deny: toolNames.nullish() }).nullish().catch(undefined),
  model_settings: z
    .object({ temperature: z.number().nullish(), max_tokens: z.number().nullish() })
    .nullish()
    .catch(undefined),
  created_at: z.number().optional().catch(undefined),
  updated_at: z.number().optional().catch(undefined),
});

const listSchema = z.object({ agents: z.array(agentSchema).max(AGENT_LIST_MAX * 5) });
const checkSchema = z.object({ available: z.boolean(), name: z.string().max(200) });
const draftsSchema = z.object({ agents: z.array(agentSchema).max(AGENT_LIST_MAX * 5) });

type AgentAnswer = z.infer<typeof agentSchema>;

/** The server's agent as Fawn keeps one (DeerFlow's has no times: 0; its soul absent in lists: ""). */
function recordOf(agent: AgentAnswer): AgentRecord {
  const allow = agent.guardrail?.allow ?? undefined;
  const deny = agent.guardrail?.deny ?? undefined;
  const temperature = agent.model_settings?.temperature ?? undefined;
  const maxTokens = agent.model_settings?.max_tokens ?? undefined;
  return {
    name: agent.name.toLowerCase(),
    description: agent.description ?? "",
    soul: agent.soul ?? "",
    ...(agent.model && { model: agent.model }),
    ...(agent.tool_groups && { tool_groups: agent.tool_groups as AgentRecord["tool_groups"] }),
    ...(agent.skills && { skills: agent.skills }),
    memory: agent.memory ?? "shared",
    ...((allow || deny) && { guardrail: { ...(allow && { allow }), ...(deny && { deny }) } }),
    ...((temperature !== undefined || maxTokens !== undefined) && {
      model_settings: {
        ...(temperature !== undefined && { temperature }),
        ...(maxTokens !== undefined && { max_tokens: maxTokens }),
      },
    }),
    created_at: agent.created_at ?? 0,
    updated_at: agent.updated_at ?? 0,
  };
}

function jsonInit(method: string, body: unknown): RequestInit {
  return { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
}

export class RemoteAgents implements AgentsApi {
  constructor(private readonly remote: RemoteContext) {}

  /** DeerFlow's routes, on a server that has the REST routes (not langgraphjs dev). */
  private rest(feature = "Custom agents"): ServerFetch {
    if (!this.remote.rest || this.remote.server.kind === "langgraph") throw this.remote.unavailable(feature);
    return this.remote.rest;
  }

  /** Fawn's own agents routes, on a Fawn server. */
  private fawnRest(feature: string): ServerFetch {
    if (!this.remote.rest || this.remote.server.kind !== "fawn") throw this.remote.unavailable(feature);
    return this.remote.rest;
  }

  private changed(): void {
    this.remote.notify({ type: "settings-changed" });
  }

  async list(): Promise<AgentRecord[]> {
    const rest = this.remote.rest;
    if (!rest || this.remote.server.kind === "langgraph") return [];
    return this.remote.connection.read("agents", async () => {
      const response = await rest("/agents");
      // A DeerFlow deployment with its agents API off answers 403 or 404: it has none to offer.
      if (response.status === 403 || response.status === 404) return [];
      await this.remote.refusal(response);
      const parsed = this.remote.parse(listSchema, await response.json().catch(() => undefined), "a list of agents");
      return parsed.agents.map(recordOf).sort((a, b) => a.name.localeCompare(b.name));
    });
  }

  async get(name: string): Promise<AgentRecord> {
    const answer = await this.remote.restJson(this.rest(), `/agents/${seg(name)}`, agentSchema, "an agent");
    return recordOf(answer);
  }

  async checkName(name: string): Promise<AgentNameCheck> {
    const rest = this.rest();
    const response = await rest(`/agents/check?name=${encodeURIComponent(name)}`);
    if (response.status === 422) {
      return {
        available: false,
        name: name.toLowerCase(),
        problem: "An agent's name uses only letters, digits and dashes.",
      };
    }
    await this.remote.refusal(response);
    const check = this.remote.parse(checkSchema, await response.json().catch(() => undefined), "a name check");
    return {
      available: check.available,
      name: check.name,
      ...(!check.available && { problem: `An agent named '${check.name}' already exists.` }),
    };
  }

  async create(draft: AgentDraft): Promise<AgentRecord> {
    const answer = await this.remote.restJson(this.rest(), "/agents", agentSchema, "an agent", jsonInit("POST", draft));
    this.changed();
    return recordOf(answer);
  }

  async update(name: string, changes: AgentUpdate): Promise<AgentRecord> {
    // JSON drops undefined: a cleared field is sent as null, as DeerFlow's body takes it.
    const body = Object.fromEntries(Object.entries(changes).map(([key, value]) => [key, value ?? null]));
    const answer = await this.remote.restJson(
      this.rest(),
      `/agents/${seg(name)}`,
      agentSchema,
      "an agent",
      jsonInit("PUT", body),
    );
    this.changed();
    return recordOf(answer);
  }

  async delete(name: string): Promise<void> {
    await this.remote.refusal(await this.rest()(`/agents/${seg(name)}`, { method: "DELETE" }));
    this.changed();
  }

  private async zip(path: string, fileName: string): Promise<AgentsArchive> {
    const response = await this.fawnRest("Exporting an agents zip")(path);
    await this.remote.refusal(response);
    return { name: fileName, bytes: new Uint8Array(await response.arrayBuffer()) };
  }

  exportOne(name: string): Promise<AgentsArchive> {
    return this.zip(`/fawn/agents/${seg(name)}/export`, `${name.toLowerCase()}.zip`);
  }

  exportAll(): Promise<AgentsArchive> {
    return this.zip("/fawn/agents/export", "agents.zip");
  }

  async import(archive: AgentsArchive): Promise<AgentRecord[]> {
    const rest = this.fawnRest("Importing an agents zip");
    const answer = await this.remote.restJson(
      rest,
      `/fawn/agents/import?file_name=${encodeURIComponent(archive.name)}`,
      draftsSchema,
      "the imported agents",
      {
        method: "POST",
        headers: { "content-type": "application/zip" },
        body: archive.bytes as Uint8Array<ArrayBuffer>,
      },
    );
    this.changed();
    return answer.agents.map(recordOf);
  }

  async examples(): Promise<AgentDraft[]> {
    if (!this.remote.rest || this.remote.server.kind !== "fawn") return [];
    const answer = await this.remote.restJson(this.remote.rest, "/fawn/agents/examples", draftsSchema, "examples");
    return answer.agents.map((agent) => {
      const { created_at: _c, updated_at: _u, ...draft } = recordOf(agent);
      void _c;
      void _u;
      return draft;
    });
  }

  private async memory(name: string, init?: RequestInit): Promise<MemoryDocument> {
    const rest = this.fawnRest("An agent's own memory");
    const value = await this.remote.restJson(rest, `/fawn/agents/${seg(name)}/memory`, z.unknown(), "a memory", init);
    const parsed = parseMemoryDocument(value);
    if (!parsed.ok) throw this.remote.connection.malformed("a memory document");
    return parsed.value;
  }

  getMemory(name: string): Promise<MemoryDocument> {
    return this.memory(name);
  }

  clearMemory(name: string): Promise<MemoryDocument> {
    return this.memory(name, { method: "DELETE" });
  }
}
