// A server workspace's agents domain (`gateway.agents` in a server workspace): the server's custom agents through
// DeerFlow's `/api/agents` routes where the server has them; what it cannot answer rejects with one sentence naming
// the feature and the server.
import type { AgentDraft, AgentRecord, AgentsApi, MemoryDocument } from "../../protocol/index.ts";
import type { RemoteContext } from "./remote-context.ts";

export class RemoteAgents implements AgentsApi {
  constructor(private readonly remote: RemoteContext) {}

  async list(): Promise<AgentRecord[]> {
    return [];
  }
  async get(): Promise<AgentRecord> {
    throw this.remote.unavailable("Custom agents");
  }
  async checkName(): Promise<never> {
    throw this.remote.unavailable("Custom agents");
  }
  async create(): Promise<AgentRecord> {
    throw this.remote.unavailable("Custom agents");
  }
  async update(): Promise<AgentRecord> {
    throw this.remote.unavailable("Custom agents");
  }
  async delete(): Promise<void> {
    throw this.remote.unavailable("Custom agents");
  }
  async exportOne(): Promise<never> {
    throw this.remote.unavailable("Exporting agents");
  }
  async exportAll(): Promise<never> {
    throw this.remote.unavailable("Exporting agents");
  }
  async import(): Promise<AgentRecord[]> {
    throw this.remote.unavailable("Importing agents");
  }
  async examples(): Promise<AgentDraft[]> {
    return [];
  }
  async getMemory(): Promise<MemoryDocument> {
    throw this.remote.unavailable("An agent's own memory");
  }
  async clearMemory(): Promise<MemoryDocument> {
    throw this.remote.unavailable("An agent's own memory");
  }
}
