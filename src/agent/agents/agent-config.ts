// Custom agents as data: reading an agent from untrusted input (a stored record, a REST body, an imported
// config.yaml) into a checked AgentDraft, with one sentence per problem; and the stored list's own reading.
import { z } from "zod";
import {
  AGENT_LIST_MAX,
  agentDraftProblems,
  type AgentDraft,
  type AgentRecord,
  type AgentUpdate,
} from "../../protocol/index.ts";

/** Why agent data is refused: `message` is one sentence for the user. */
export class AgentConfigError extends Error {
  override readonly name = "AgentConfigError";
  readonly userFacing = "invalid";
}

const toolNames = z.array(z.string().max(128)).max(200);

/** The fields an agent carries, as any source gives them (DeerFlow's config.yaml keys, and Fawn's own). */
const agentFields = z.object({
  name: z.string().max(200),
  description: z.string().max(10_000).nullish(),
  soul: z.string().max(200_000).nullish(),
  model: z.string().max(300).nullish(),
  tool_groups: z.array(z.string().max(40)).max(20).nullish(),
  skills: z.array(z.string().max(200)).max(500).nullish(),
  memory: z.enum(["shared", "own"]).nullish(),
  guardrail: z.object({ allow: toolNames.nullish(), deny: toolNames.nullish() }).nullish(),
  model_settings: z.object({ temperature: z.number().nullish(), max_tokens: z.number().nullish() }).nullish(),
});

type AgentFields = z.infer<typeof agentFields>;

/** The draft those fields make (lowercase name, absent optionals left out). */
function draftOf(fields: AgentFields): AgentDraft {
  const guardrail = {
    ...(fields.guardrail?.allow && { allow: [...new Set(fields.guardrail.allow)] }),
    ...(fields.guardrail?.deny && { deny: [...new Set(fields.guardrail.deny)] }),
  };
  const settings = {
    ...(typeof fields.model_settings?.temperature === "number" && { temperature: fields.model_settings.temperature }),
    ...(typeof fields.model_settings?.max_tokens === "number" && { max_tokens: fields.model_settings.max_tokens }),
  };
  return {
    name: fields.name.trim().toLowerCase(),
    description: fields.description?.trim() ?? "",
    soul: fields.soul ?? "",
    ...(fields.model && { model: fields.model }),
    ...(fields.tool_groups && { tool_groups: [...new Set(fields.tool_groups)] as AgentDraft["tool_groups"] }),
    ...(fields.skills && { skills: [...new Set(fields.skills)] }),
    memory: fields.memory ?? "shared",
    ...(Object.keys(guardrail).length > 0 && { guardrail }),
    ...(Object.keys(settings).length > 0 && { model_settings: settings }),
  };
}

/** The first problem of a zod read, as one sentence naming the field. */
function zodSentence(error: z.ZodError, what: string): string {
  const issue = error.issues[0];
  const field = issue?.path.join(".") || "it";
  return `${what}: ${field} is not what an agent's ${field} is.`;
}

/** Reads an agent draft from untrusted `value`, checked whole: the draft, or the sentences of what is wrong. */
export function readAgentDraft(value: unknown, what = "That agent"): AgentDraft {
  const parsed = agentFields.safeParse(value);
  if (!parsed.success) throw new AgentConfigError(zodSentence(parsed.error, what));
  const draft = draftOf(parsed.data);
  const problems = agentDraftProblems(draft);
  if (problems.length > 0) throw new AgentConfigError(problems.map((problem) => problem.message).join(" "));
  return draft;
}

/** Reads changes to an agent from untrusted `value` (every field optional; the name is never changed). */
export function readAgentUpdate(value: unknown): AgentUpdate {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new AgentConfigError("Changes to an agent are an object of its fields.");
  const parsed = agentFields.partial().safeParse(value);
  if (!parsed.success) throw new AgentConfigError(zodSentence(parsed.error, "Those changes"));
  const given = value as Record<string, unknown>;
  const fields = parsed.data;
  const update: AgentUpdate = {};
  if ("description" in given) update.description = fields.description?.trim() ?? "";
  if ("soul" in given && typeof fields.soul === "string") update.soul = fields.soul;
  if ("model" in given) update.model = fields.model ?? undefined;
  if ("tool_groups" in given)
    update.tool_groups = fields.tool_groups ? ([...new Set(fields.tool_groups)] as AgentDraft["tool_groups"]) : null;
  if ("skills" in given) update.skills = fields.skills ? [...new Set(fields.skills)] : null;
  if ("memory" in given && fields.memory) update.memory = fields.memory;
  if ("guardrail" in given) update.guardrail = draftOf({ name: "x", guardrail: fields.guardrail }).guardrail;
  if ("model_settings" in given)
    update.model_settings = draftOf({ name: "x", model_settings: fields.model_settings }).model_settings;
  return update;
}

/** `record` with `changes` laid over it: an explicit undefined or null clears an optional field. */
export function applyAgentUpdate(record: AgentRecord, changes: AgentUpdate, now: number): AgentRecord {
  const next: Record<string, unknown> = { ...record };
  for (const [key, value] of Object.entries(changes)) {
    if (key === "name" || key === "created_at" || key === "updated_at") continue;
    // null means "every group" / "every skill", as absent does.
    if (value === undefined || value === null) delete next[key];
    else next[key] = value;
  }
  return { ...(next as unknown as AgentRecord), updated_at: now };
}

/** The draft of a record: what export and edit start from. */
export function draftOfRecord(record: AgentRecord): AgentDraft {
  const { created_at: _created, updated_at: _updated, ...draft } = record;
  void _created;
  void _updated;
  return draft;
}

const storedRecord = agentFields.extend({ created_at: z.number(), updated_at: z.number() });

/**
 * The stored list of agents: each record read as a draft (a damaged one is left out, not the whole list), sorted by
 * name, at most AGENT_LIST_MAX.
 */
export function readStoredAgents(value: unknown): AgentRecord[] {
  const list = Array.isArray(value) ? value : [];
  const agents: AgentRecord[] = [];
  const seen = new Set<string>();
  for (const item of list.slice(0, AGENT_LIST_MAX)) {
    const parsed = storedRecord.safeParse(item);
    if (!parsed.success) continue;
    const draft = draftOf(parsed.data);
    if (agentDraftProblems(draft).length > 0 || seen.has(draft.name)) continue;
    seen.add(draft.name);
    agents.push({ ...draft, created_at: parsed.data.created_at, updated_at: parsed.data.updated_at });
  }
  return agents.sort((a, b) => a.name.localeCompare(b.name));
}
