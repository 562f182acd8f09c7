// The agents domain's service (`gateway.agents`): custom agents kept in one settings record, checked whole before
// each write. (The first commit is the contract's skeleton; the engine lands behind it.)
import {
  emptyMemoryDocument,
  type AgentDraft,
  type AgentNameCheck,
  type AgentRecord,
  type AgentsApi,
  type AgentsArchive,
  type AgentUpdate,
  type MemoryDocument,
} from "../protocol/index.ts";
import { UserError } from "../shared/user-error.ts";
import type { SettingsStorage } from "../storage/index.ts";

export class AgentsService implements AgentsApi {
  constructor(private readonly settings: SettingsStorage) {}

  async list(): Promise<AgentRecord[]> {
    void this.settings;
    return [];
  }
  async get(name: string): Promise<AgentRecord> {
    throw new UserError(`There is no agent named ${name}.`);
  }
  async checkName(name: string): Promise<AgentNameCheck> {
    return { available: true, name: name.toLowerCase() };
  }
  async create(draft: AgentDraft): Promise<AgentRecord> {
    void draft;
    throw new UserError("Custom agents are not ready yet.");
  }
  async update(name: string, changes: AgentUpdate): Promise<AgentRecord> {
    void changes;
    return this.get(name);
  }
  async delete(name: string): Promise<void> {
    await this.get(name);
  }
  async exportOne(name: string): Promise<AgentsArchive> {
    await this.get(name);
    throw new UserError("Custom agents are not ready yet.");
  }
  async exportAll(): Promise<AgentsArchive> {
    throw new UserError("Custom agents are not ready yet.");
  }
  async import(archive: AgentsArchive): Promise<AgentRecord[]> {
    void archive;
    throw new UserError("Custom agents are not ready yet.");
  }
  async examples(): Promise<AgentDraft[]> {
    return [];
  }
  async getMemory(name: string): Promise<MemoryDocument> {
    void name;
    return emptyMemoryDocument();
  }
  async clearMemory(name: string): Promise<MemoryDocument> {
    void name;
    return emptyMemoryDocument();
  }
}
