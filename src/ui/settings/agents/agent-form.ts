// Settings → Agents' editor as a form of plain fields, and back to an agent: tool groups and skills as ticks, the
// guardrail's tools as comma-separated text, the model's numbers as typed. The problems a Save would be refused for
// are the contract's own (agentDraftProblems), placed at the field each is about.
import {
  AGENT_TOOL_GROUPS,
  agentDraftProblems,
  type AgentDraft,
  type AgentMemoryMode,
  type AgentProblem,
  type AgentToolGroup,
} from "../../../protocol/index.ts";
// Its texts: Settings' English, which the first screen's dictionary does not hold (i18n/en.ts).
import "../../i18n/en-settings.ts";
import { t } from "../../i18n/index.ts";

/** The editor's fields, numbers as text, so a half-typed number is never rewritten under the cursor. */
export interface AgentForm {
  name: string;
  description: string;
  soul: string;
  /** A model key (`modelChoiceKey`); "" for the thread's model. */
  model: string;
  /** The groups ticked: all of them is "every group" (no limit kept). */
  toolGroups: AgentToolGroup[];
  skillsMode: "all" | "chosen";
  /** The skills ticked, when `skillsMode` is "chosen". */
  skills: string[];
  memory: AgentMemoryMode;
  /** Comma-separated tool names. */
  allow: string;
  deny: string;
  temperature: string;
  maxTokens: string;
}

/** The element each field's problem is shown under and the cursor goes to. */
export const AGENT_FIELD_IDS: Record<AgentProblem["field"], string> = {
  name: "agent-name",
  description: "agent-description",
  soul: "agent-soul",
  model: "agent-model",
  tool_groups: "agent-group-bash",
  skills: "agent-skills-all",
  memory: "agent-memory-shared",
  guardrail: "agent-allow",
  temperature: "agent-temperature",
  max_tokens: "agent-max-tokens",
};

export function blankAgentForm(): AgentForm {
  return toAgentForm({ name: "", description: "", soul: "", memory: "shared" });
}

/** Tool names as the guardrail's fields show them. */
const toolList = (tools: readonly string[] | undefined) => tools?.join(", ") ?? "";

/** A guardrail field as names: split at commas, trimmed, blanks and repeats dropped. */
export function parseTools(text: string): string[] {
  return [...new Set(text.split(",").map((name) => name.trim()))].filter(Boolean);
}

export function toAgentForm(draft: AgentDraft): AgentForm {
  return {
    name: draft.name,
    description: draft.description,
    soul: draft.soul,
    model: draft.model ?? "",
    toolGroups: draft.tool_groups ? [...draft.tool_groups] : [...AGENT_TOOL_GROUPS],
    skillsMode: draft.skills ? "chosen" : "all",
    skills: draft.skills ? [...draft.skills] : [],
    memory: draft.memory,
    allow: toolList(draft.guardrail?.allow),
    deny: toolList(draft.guardrail?.deny),
    temperature: draft.model_settings?.temperature === undefined ? "" : String(draft.model_settings.temperature),
    maxTokens: draft.model_settings?.max_tokens === undefined ? "" : String(draft.model_settings.max_tokens),
  };
}

/** A number as typed; undefined when empty, NaN when it is not a number (the contract's check then names it). */
const typedNumber = (text: string) => (text.trim() === "" ? undefined : Number(text.trim()));

/**
 * The form as an agent. Every optional field is present, undefined or null when unset, so an update with it
 * replaces the kept agent's settings whole (AgentUpdate: an explicit undefined/null clears).
 */
export function fromAgentForm(form: AgentForm): AgentDraft {
  const allow = parseTools(form.allow);
  const deny = parseTools(form.deny);
  const temperature = typedNumber(form.temperature);
  const maxTokens = typedNumber(form.maxTokens);
  const everyGroup = AGENT_TOOL_GROUPS.every((group) => form.toolGroups.includes(group));
  return {
    name: form.name.trim().toLowerCase(),
    description: form.description.trim(),
    soul: form.soul.trim(),
    model: form.model || undefined,
    tool_groups: everyGroup ? null : AGENT_TOOL_GROUPS.filter((group) => form.toolGroups.includes(group)),
    skills: form.skillsMode === "all" ? null : [...form.skills],
    memory: form.memory,
    guardrail:
      allow.length > 0 || deny.length > 0
        ? { ...(allow.length > 0 && { allow }), ...(deny.length > 0 && { deny }) }
        : undefined,
    model_settings:
      temperature !== undefined || maxTokens !== undefined
        ? {
            ...(temperature !== undefined && { temperature }),
            ...(maxTokens !== undefined && { max_tokens: maxTokens }),
          }
        : undefined,
  };
}

/** A problem with one field, named by the id of its element (AGENT_FIELD_IDS). */
export interface AgentFormProblem {
  id: string;
  message: string;
}

/**
 * What a Save would be refused for, in the order the editor shows the fields: the contract's problems of the agent,
 * and a new agent's name already taken (`taken`: the other agents' names).
 */
export function agentFormProblems(form: AgentForm, taken: readonly string[]): AgentFormProblem[] {
  const draft = fromAgentForm(form);
  const problems = agentDraftProblems(draft).map((problem) => ({
    id: AGENT_FIELD_IDS[problem.field],
    message: problem.message,
  }));
  if (!problems.some((problem) => problem.id === AGENT_FIELD_IDS.name) && taken.includes(draft.name)) {
    problems.unshift({ id: AGENT_FIELD_IDS.name, message: t("agents.nameTaken", { name: draft.name }) });
  }
  const order = Object.values(AGENT_FIELD_IDS);
  return problems.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
}
