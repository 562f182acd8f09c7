// The agents domain's contract (`gateway.agents`): custom agents (DeerFlow's Agent) — a name, instructions (its
// SOUL), a model, the tool groups and skills it may use, its memory and guardrail — kept by the Gateway, chosen per
// thread (`ThreadSummary.agent`, sent as `RunRequest.context.agent`), exported and imported as DeerFlow's agents zip.
import type { MemoryDocument } from "./memory.ts";

/** DeerFlow's tool groups, plus `mcp` (the MCP servers' tools). Absent/null `tool_groups`: every group. */
export const AGENT_TOOL_GROUPS = ["bash", "file:read", "file:write", "web", "mcp"] as const;
export type AgentToolGroup = (typeof AGENT_TOOL_GROUPS)[number];

/** `shared`: the user's memory (Settings → Memory); `own`: a memory document of the agent's, read and updated apart. */
export type AgentMemoryMode = "shared" | "own";

/** Tool names the agent is allowed (only these, when given) and denied (never offered; a call is refused). */
export interface AgentGuardrail {
  allow?: string[];
  deny?: string[];
}

/** Laid over the model entry's own options for this agent's runs. */
export interface AgentModelSettings {
  /** 0–2. */
  temperature?: number;
  /** A whole number ≥ 1. */
  max_tokens?: number;
}

/** What the user writes for an agent: everything but its times. */
export interface AgentDraft {
  /** DeerFlow's `^[A-Za-z0-9-]+$`, kept lowercase; at most AGENT_NAME_MAX characters. The agent's key; never renamed. */
  name: string;
  /** One line for lists; may be empty. */
  description: string;
  /** The instructions (DeerFlow's SOUL.md): reach the model in the system prompt, as the agent's own text. */
  soul: string;
  /** A model key as the composer uses (`modelChoiceKey`); absent: the thread's model (else the default). */
  model?: string;
  /** Absent or null: every group; [] : none. */
  tool_groups?: AgentToolGroup[] | null;
  /** Skill names it may use; absent or null: every enabled skill; []: none. */
  skills?: string[] | null;
  memory: AgentMemoryMode;
  guardrail?: AgentGuardrail;
  model_settings?: AgentModelSettings;
}

/** A kept agent. */
export interface AgentRecord extends AgentDraft {
  created_at: number;
  updated_at: number;
}

/** Changes to an agent: the fields given replace the kept ones (an explicit `undefined`/null clears an optional). */
export type AgentUpdate = Partial<Omit<AgentDraft, "name">>;

/** `GET /api/agents/check?name=`: whether a name can be taken, and the lowercase name it would be kept as. */
export interface AgentNameCheck {
  available: boolean;
  name: string;
  /** Why not, as one sentence (a bad name, or taken). */
  problem?: string;
}

/** A file the Gateway made or takes (an agents zip). */
export interface AgentsArchive {
  name: string;
  bytes: Uint8Array;
}

export interface AgentsApi {
  /** The user's agents, sorted by name. */
  list(): Promise<AgentRecord[]>;
  /** One agent; rejects with a sentence for an unknown name. */
  get(name: string): Promise<AgentRecord>;
  checkName(name: string): Promise<AgentNameCheck>;
  /** Validated whole (agentDraftProblems); rejects a taken name. Returns the kept record (name lowercased). */
  create(draft: AgentDraft): Promise<AgentRecord>;
  update(name: string, changes: AgentUpdate): Promise<AgentRecord>;
  /** Deletes the agent and its own memory; threads that named it run as the lead agent (Fawn). */
  delete(name: string): Promise<void>;
  /** `<name>.zip` holding `agents/<name>/config.yaml` and `agents/<name>/SOUL.md` (DeerFlow's layout). */
  exportOne(name: string): Promise<AgentsArchive>;
  /** `agents.zip`: every agent in that layout. */
  exportAll(): Promise<AgentsArchive>;
  /**
   * Adds the agents of a DeerFlow-layout zip, checked whole first (paths, sizes, config schema, names not taken):
   * a bad archive is refused with one sentence and nothing is written. Returns the agents added.
   */
  import(archive: AgentsArchive): Promise<AgentRecord[]>;
  /** Example agents Fawn ships, ready to add with `create` (their names may already be taken). */
  examples(): Promise<AgentDraft[]>;
  /** The agent's own memory (an empty document for a `shared` agent or one that learned nothing yet). */
  getMemory(name: string): Promise<MemoryDocument>;
  /** Forgets the agent's own memory. */
  clearMemory(name: string): Promise<MemoryDocument>;
}

export const AGENT_NAME_MAX = 64;
export const AGENT_DESCRIPTION_MAX = 500;
export const AGENT_SOUL_MAX = 20_000;
export const AGENT_LIST_MAX = 200;
/** The name the lead agent goes by where agents are chosen (the composer's first option). */
export const LEAD_AGENT_LABEL = "Fawn";

const NAME_PATTERN = /^[A-Za-z0-9-]+$/;

/** One problem of a draft, by the field it is about (for the field's error). */
export interface AgentProblem {
  field:
    | "name"
    | "description"
    | "soul"
    | "model"
    | "tool_groups"
    | "skills"
    | "memory"
    | "guardrail"
    | "temperature"
    | "max_tokens";
  message: string;
}

/** The name's problem as a sentence, or undefined for a good one (case is ignored: names are kept lowercase). */
export function agentNameProblem(name: string): string | undefined {
  if (name.trim() === "") return "Give the agent a name.";
  if (name.length > AGENT_NAME_MAX) return `An agent's name is at most ${AGENT_NAME_MAX} characters.`;
  if (!NAME_PATTERN.test(name)) return "An agent's name uses only letters, digits and dashes.";
  return undefined;
}

/** Every problem of a draft, one sentence each; [] for a good one. Shared by the form and the Gateway. */
export function agentDraftProblems(draft: AgentDraft): AgentProblem[] {
  const problems: AgentProblem[] = [];
  const nameProblem = agentNameProblem(draft.name);
  if (nameProblem) problems.push({ field: "name", message: nameProblem });
  if (draft.description.length > AGENT_DESCRIPTION_MAX)
    problems.push({ field: "description", message: `A description is at most ${AGENT_DESCRIPTION_MAX} characters.` });
  if (draft.soul.trim() === "") problems.push({ field: "soul", message: "Write the agent's instructions." });
  else if (draft.soul.length > AGENT_SOUL_MAX)
    problems.push({ field: "soul", message: `Instructions are at most ${AGENT_SOUL_MAX} characters.` });
  if (draft.model !== undefined && draft.model.trim() === "")
    problems.push({ field: "model", message: "Choose a model, or the thread's model." });
  const groups = draft.tool_groups;
  if (groups && groups.some((group) => !(AGENT_TOOL_GROUPS as readonly string[]).includes(group)))
    problems.push({ field: "tool_groups", message: `Tool groups are ${AGENT_TOOL_GROUPS.join(", ")}.` });
  if (draft.skills && draft.skills.some((skill) => typeof skill !== "string" || skill.trim() === ""))
    problems.push({ field: "skills", message: "A skill is named by its name." });
  if (draft.memory !== "shared" && draft.memory !== "own")
    problems.push({ field: "memory", message: "Memory is shared or the agent's own." });
  const allow = draft.guardrail?.allow ?? [];
  const deny = draft.guardrail?.deny ?? [];
  if ([...allow, ...deny].some((tool) => typeof tool !== "string" || !/^[A-Za-z0-9_.:-]{1,128}$/.test(tool)))
    problems.push({
      field: "guardrail",
      message: "A guardrail names tools by their names (letters, digits, _ . : -).",
    });
  else if (allow.some((tool) => deny.includes(tool)))
    problems.push({ field: "guardrail", message: "A tool cannot be both allowed and denied." });
  const temperature = draft.model_settings?.temperature;
  if (temperature !== undefined && !(Number.isFinite(temperature) && temperature >= 0 && temperature <= 2))
    problems.push({ field: "temperature", message: "Temperature is a number from 0 to 2." });
  const maxTokens = draft.model_settings?.max_tokens;
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens >= 1 && maxTokens <= 1_000_000))
    problems.push({ field: "max_tokens", message: "Max tokens is a whole number from 1 to 1,000,000." });
  return problems;
}
