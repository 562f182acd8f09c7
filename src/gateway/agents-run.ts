// A run's custom agent (docs/architecture.md#d3-agent): which agent the run talks to (the request's choice, else the
// thread's), the request as that agent runs it (its model), its model settings laid over the model's entry, and the
// lead agent's options it adds (its instructions, tools, skills, setup_agent/update_agent with the user's approval).
import {
  agentSkills,
  createSetupAgentTool,
  createUpdateAgentTool,
  type AgentToolsDeps,
  type LeadAgentOptions,
} from "../agent/index.ts";
import type { AgentRecord, ModelTarget, RunEvent, RunRequest, SkillInfo, ThreadSummary } from "../protocol/index.ts";
import type { AgentsService } from "./agents-service.ts";
import type { ApprovalService } from "./approval-service.ts";

/** What a run reads of the agents (the agents service). */
export type RunAgentSource = Pick<AgentsService, "forRun" | "memoryPromptSection" | "learnFrom" | "create" | "update">;

/** The run's agent, read once before the run. */
export interface RunAgentChoice {
  /** The custom agent (undefined: the lead agent). */
  record?: AgentRecord;
  /** The request's context as the run uses it: the agent's model instead of the composer's when it names one. */
  context: RunRequest["context"];
  /** What the thread keeps as its agent after this run starts: a name, null to forget it, undefined: unchanged. */
  threadAgent?: string | null;
}

/** Why a run naming an unknown agent is refused. */
export function unknownAgentSentence(name: string): string {
  return `There is no agent named '${name}': choose another in the Agent list.`;
}

/**
 * The run's agent: the request's `context.agent` (null: the lead agent), else the thread's. A thread whose agent was
 * deleted since runs as the lead agent (and forgets it); a request naming an unknown agent is refused.
 */
export async function readRunAgent(
  agents: RunAgentSource | undefined,
  request: RunRequest,
  thread: ThreadSummary | undefined,
): Promise<RunAgentChoice | { refused: string }> {
  const asked = request.context?.agent;
  const base = request.context;
  if (!agents || asked === null)
    return { context: base, ...(asked === null && thread?.agent && { threadAgent: null }) };
  const name = asked ?? thread?.agent;
  if (!name) return { context: base };
  const record = await agents.forRun(name);
  if (!record) {
    if (asked !== undefined) return { refused: unknownAgentSentence(asked) };
    return { context: base, threadAgent: null };
  }
  // The agent's model is a composer key (it names its endpoint): the composer's endpoint no longer applies.
  const { endpoint: _endpoint, ...rest } = base ?? {};
  void _endpoint;
  const context = record.model ? { ...rest, model: record.model } : base;
  return { record, context, ...(thread?.agent !== record.name && { threadAgent: record.name }) };
}

/** `target` with the agent's temperature and max tokens laid over the entry of the model it runs. */
export function withAgentModelSettings(
  target: ModelTarget | undefined,
  record: AgentRecord | undefined,
): ModelTarget | undefined {
  const settings = record?.model_settings;
  if (!target || !settings) return target;
  return {
    ...target,
    models: target.models.map((entry) =>
      entry.id === target.model
        ? {
            ...entry,
            ...(settings.temperature !== undefined && { temperature: settings.temperature }),
            ...(settings.max_tokens !== undefined && { maxTokens: settings.max_tokens }),
          }
        : entry,
    ),
  };
}

/** The lead agent's options a custom agent (or the lead agent's setup_agent) adds to a run. */
export function agentRunOptions(
  agents: RunAgentSource | undefined,
  record: AgentRecord | undefined,
  ask: AgentToolsDeps["ask"],
): Pick<LeadAgentOptions, "customAgent" | "agentTools"> {
  if (!agents) return {};
  const deps: AgentToolsDeps = {
    ask,
    create: (draft) => agents.create(draft),
    update: (name, changes) => agents.update(name, changes),
  };
  if (!record) return { agentTools: [createSetupAgentTool(deps)] };
  return { customAgent: record, agentTools: [createUpdateAgentTool(record.name, deps)] };
}

/** The skills the run's agent sees. */
export function runAgentSkills(record: AgentRecord | undefined, skills: SkillInfo[]): SkillInfo[] {
  return record ? agentSkills(record, skills) : skills;
}

/** The approval a setup_agent/update_agent call waits for, in the thread's approval card. */
export function agentChangeApproval(
  approvals: Pick<ApprovalService, "forRun">,
  threadId: string,
  emit: (event: RunEvent) => void,
): AgentToolsDeps["ask"] {
  const approval = approvals.forRun(threadId, () => undefined, emit, "agent");
  return (call, signal) => approval.ask(call, signal);
}
