// The agents domain's service (`gateway.agents`, DeerFlow's /api/agents): custom agents kept as one settings record
// (`agents`, read back checked), each agent's own memory as its own record (`agents.memory.<name>`) with its own
// debounced updates, export and import as DeerFlow's agents zip (loaded on use), and the example agents.
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import {
  AgentConfigError,
  applyAgentUpdate,
  draftOfRecord,
  formatMemoryForInjection,
  loadAgentExamples,
  loadAgentsZip,
  MemoryUpdateQueue,
  parseMemoryDocument,
  readAgentDraft,
  readAgentUpdate,
  readStoredAgents,
} from "../agent/index.ts";
import {
  AGENT_LIST_MAX,
  agentNameProblem,
  emptyMemoryDocument,
  type AgentDraft,
  type AgentNameCheck,
  type AgentRecord,
  type AgentsApi,
  type AgentsArchive,
  type AgentUpdate,
  type ChangeNotice,
  type MemoryDocument,
  type MemorySettings,
} from "../protocol/index.ts";
import { UserError } from "../shared/user-error.ts";
import type { MemoryStorage, SettingsStorage } from "../storage/index.ts";
import { writing } from "./writes.ts";

/** The settings record holding every agent. */
export const AGENTS_KEY = "agents";
/** The settings record of an agent's own memory. */
export const agentMemoryKey = (name: string) => `agents.memory.${name}`;

export interface AgentsServiceOptions {
  /** Tells every tab that the agents changed. */
  notify: (notice: ChangeNotice) => void;
  /** Settings → Memory (on/off, injection, budget, delay): an agent's own memory follows them too. */
  memorySettings: () => Promise<MemorySettings>;
  /** The model memory updates are asked of (the user's default model), or undefined when none is set up. */
  createModel: () => Promise<BaseChatModel | undefined>;
  now?: () => number;
}

/** Why an agent is not there. */
function unknownAgent(name: string): UserError {
  return new UserError(`There is no agent named '${name}'.`);
}

/** AgentConfigError (a bad field, a bad archive) as the user-facing error the Gateway answers with. */
function asUserError(error: unknown): unknown {
  return error instanceof AgentConfigError ? new UserError(error.message) : error;
}

export class AgentsService implements AgentsApi {
  private readonly queues = new Map<string, MemoryUpdateQueue>();

  constructor(
    private readonly settings: SettingsStorage,
    private readonly options: AgentsServiceOptions,
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private async read(): Promise<AgentRecord[]> {
    return readStoredAgents(await this.settings.get(AGENTS_KEY));
  }

  /** Writes the list (a full storage refused readably) and tells every tab. */
  private async write(agents: readonly AgentRecord[]): Promise<void> {
    await writing(() =>
      this.settings.put(
        AGENTS_KEY,
        [...agents].sort((a, b) => a.name.localeCompare(b.name)),
      ),
    );
    this.options.notify({ type: "settings-changed" });
  }

  async list(): Promise<AgentRecord[]> {
    return this.read();
  }

  async get(name: string): Promise<AgentRecord> {
    const found = await this.forRun(name);
    if (!found) throw unknownAgent(String(name));
    return found;
  }

  /** The agent named `name` (any case), or undefined. */
  async forRun(name: string): Promise<AgentRecord | undefined> {
    if (typeof name !== "string") return undefined;
    const key = name.toLowerCase();
    return (await this.read()).find((agent) => agent.name === key);
  }

  async checkName(name: string): Promise<AgentNameCheck> {
    const normalized = String(name ?? "")
      .trim()
      .toLowerCase();
    const problem = agentNameProblem(normalized);
    if (problem) return { available: false, name: normalized, problem };
    if (await this.forRun(normalized))
      return { available: false, name: normalized, problem: `An agent named '${normalized}' already exists.` };
    return { available: true, name: normalized };
  }

  async create(draft: AgentDraft): Promise<AgentRecord> {
    let checked: AgentDraft;
    try {
      checked = readAgentDraft(draft);
    } catch (error) {
      throw asUserError(error);
    }
    const agents = await this.read();
    if (agents.some((agent) => agent.name === checked.name))
      throw new UserError(`An agent named '${checked.name}' already exists.`, "conflict");
    if (agents.length >= AGENT_LIST_MAX) throw new UserError(`Fawn keeps at most ${AGENT_LIST_MAX} agents.`);
    const now = this.now();
    const record: AgentRecord = { ...checked, created_at: now, updated_at: now };
    await this.write([...agents, record]);
    return record;
  }

  async update(name: string, changes: AgentUpdate): Promise<AgentRecord> {
    const agents = await this.read();
    const current = agents.find((agent) => agent.name === String(name).toLowerCase());
    if (!current) throw unknownAgent(String(name));
    let next: AgentRecord;
    try {
      const merged = applyAgentUpdate(current, readAgentUpdate(changes), this.now());
      next = { ...readAgentDraft(draftOfRecord(merged)), created_at: merged.created_at, updated_at: merged.updated_at };
    } catch (error) {
      throw asUserError(error);
    }
    await this.write(agents.map((agent) => (agent.name === current.name ? next : agent)));
    return next;
  }

  async delete(name: string): Promise<void> {
    const agents = await this.read();
    const current = agents.find((agent) => agent.name === String(name).toLowerCase());
    if (!current) throw unknownAgent(String(name));
    this.queues.get(current.name)?.clear();
    this.queues.delete(current.name);
    await writing(() => this.settings.put(agentMemoryKey(current.name), undefined));
    await this.write(agents.filter((agent) => agent !== current));
  }

  async exportOne(name: string): Promise<AgentsArchive> {
    const agent = await this.get(name);
    const { writeAgentsZip } = await loadAgentsZip();
    return { name: `${agent.name}.zip`, bytes: writeAgentsZip([draftOfRecord(agent)]) };
  }

  async exportAll(): Promise<AgentsArchive> {
    const agents = await this.read();
    const { writeAgentsZip } = await loadAgentsZip();
    return { name: "agents.zip", bytes: writeAgentsZip(agents.map(draftOfRecord)) };
  }

  async import(archive: AgentsArchive): Promise<AgentRecord[]> {
    const fileName = typeof archive?.name === "string" && archive.name ? archive.name : "agents.zip";
    if (!(archive?.bytes instanceof Uint8Array)) throw new UserError(`'${fileName}' is not a file.`);
    const { readAgentsZip } = await loadAgentsZip();
    let drafts: AgentDraft[];
    try {
      drafts = readAgentsZip(fileName, archive.bytes);
    } catch (error) {
      throw asUserError(error);
    }
    const agents = await this.read();
    const taken = drafts.filter((draft) => agents.some((agent) => agent.name === draft.name)).map((d) => d.name);
    if (taken.length > 0)
      throw new UserError(
        `'${fileName}' holds ${taken.length === 1 ? "an agent" : "agents"} you already have (${taken.join(", ")}): ` +
          "delete or rename yours first. Nothing was imported.",
        "conflict",
      );
    if (agents.length + drafts.length > AGENT_LIST_MAX)
      throw new UserError(`Fawn keeps at most ${AGENT_LIST_MAX} agents: '${fileName}' holds too many to add.`);
    const now = this.now();
    const added = drafts.map((draft): AgentRecord => ({ ...draft, created_at: now, updated_at: now }));
    await this.write([...agents, ...added]);
    return added;
  }

  async examples(): Promise<AgentDraft[]> {
    const { AGENT_EXAMPLES } = await loadAgentExamples();
    return AGENT_EXAMPLES.map((example) => structuredClone(example));
  }

  // --- An agent's own memory ---

  /** The agent's own memory as a store (its settings record; a damaged one reads as empty). */
  private memoryStore(name: string): MemoryStorage {
    const key = agentMemoryKey(name);
    const read = async (): Promise<MemoryDocument> => {
      const parsed = parseMemoryDocument((await this.settings.get(key)) ?? {});
      return parsed.ok ? parsed.value : emptyMemoryDocument();
    };
    return {
      read,
      update: async (change) => {
        const next = change(await read());
        await writing(() => this.settings.put(key, next));
        return next;
      },
      replace: async (doc) => writing(() => this.settings.put(key, doc)),
    };
  }

  async getMemory(name: string): Promise<MemoryDocument> {
    const agent = await this.get(name);
    return this.memoryStore(agent.name).read();
  }

  async clearMemory(name: string): Promise<MemoryDocument> {
    const agent = await this.get(name);
    this.queues.get(agent.name)?.clear();
    const empty = emptyMemoryDocument();
    await this.memoryStore(agent.name).replace(empty);
    this.options.notify({ type: "memory-changed" });
    return empty;
  }

  /** The agent's own memory as the prompt carries it: "" when memory or its injection is off, or it is empty. */
  async memoryPromptSection(name: string): Promise<string> {
    const settings = await this.options.memorySettings();
    if (!settings.enabled || !settings.injectionEnabled) return "";
    return formatMemoryForInjection(await this.memoryStore(name).read(), settings.maxInjectionTokens);
  }

  /** Queues a finished run of the agent's thread for an update of the agent's own memory (never the shared one). */
  learnFrom(name: string, threadId: string, messages: BaseMessage[], foreign?: ReadonlySet<string>): void {
    const own = foreign ? messages.filter((message) => message.id === undefined || !foreign.has(message.id)) : messages;
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new MemoryUpdateQueue({
        settings: () => this.options.memorySettings(),
        store: this.memoryStore(name),
        createModel: this.options.createModel,
        onChange: () => this.options.notify({ type: "memory-changed" }),
        onError: (error) =>
          console.warn("Fawn agent memory update failed:", error instanceof Error ? error.message : error),
      });
      this.queues.set(name, queue);
    }
    void queue.enqueue(threadId, own);
  }

  /** Drops every agent's memory updates not yet applied (everything is about to be deleted). */
  dropMemoryUpdates(): void {
    for (const queue of this.queues.values()) queue.clear();
    this.queues.clear();
  }

  /** Applies every agent's queued memory updates now (the page is being hidden or closed; tests). */
  async flushMemory(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.flush()));
  }
}
