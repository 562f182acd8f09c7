// setup_agent and update_agent (DeerFlow's agent-creator tools): the lead agent sets up a new custom agent from the
// conversation, and a custom agent changes itself — each only once the user allowed it in the thread's approval
// card (the call waits there, as a call that sends data out does). The change is checked whole by the agents
// service; a refusal or a denial is the tool's result, which the model reads.
import { tool } from "langchain";
import { z } from "zod";
import { AGENT_TOOL_GROUPS, type AgentDraft, type AgentRecord, type AgentUpdate } from "../../protocol/index.ts";
import type { OutboundCall } from "../middlewares/outbound-approval.ts";

export const SETUP_AGENT_TOOL = "setup_agent";
export const UPDATE_AGENT_TOOL = "update_agent";

/** What the tools write through and ask with (the agents service, the approvals of the run). */
export interface AgentToolsDeps {
  /** The user's answer to the change; rejects (AbortError) when the run is stopped first. */
  ask(call: OutboundCall, signal?: AbortSignal): Promise<"allow" | "deny">;
  create(draft: AgentDraft): Promise<AgentRecord>;
  update(name: string, changes: AgentUpdate): Promise<AgentRecord>;
}

const groups = z
  .array(z.enum(AGENT_TOOL_GROUPS))
  .nullish()
  .describe(`Tool groups it may use (${AGENT_TOOL_GROUPS.join(", ")}); omit for all.`);
const skills = z.array(z.string()).nullish().describe("Skill names it may use; omit for all, [] for none.");

function failure(error: unknown): string {
  return `Error: ${error instanceof Error ? error.message : String(error)}`;
}

function denied(what: string): string {
  return `The user did not allow ${what}: nothing was changed. Do not try again unless they ask.`;
}

/** setup_agent: a new custom agent, named and written by the model, kept once the user allows it. */
export function createSetupAgentTool(deps: AgentToolsDeps) {
  return tool(
    async ({ name, description, soul, skills: chosen, tool_groups }, config) => {
      if (!soul.trim()) return "Error: the agent's instructions (soul) are empty; write them and call again.";
      const draft: AgentDraft = {
        name: name.trim().toLowerCase(),
        description: description.trim(),
        soul,
        memory: "shared",
        ...(chosen && { skills: chosen }),
        ...(tool_groups && { tool_groups }),
      };
      try {
        const answer = await deps.ask(
          {
            tool_call_id: config.toolCall?.id ?? "",
            tool: SETUP_AGENT_TOOL,
            target: `a new agent '${draft.name}': ${draft.description || "(no description)"}`,
          },
          config.signal,
        );
        if (answer === "deny") return denied(`the agent '${draft.name}'`);
        const saved = await deps.create(draft);
        return `The agent '${saved.name}' was created. The user can choose it in the composer's Agent list.`;
      } catch (error) {
        if (error instanceof Error && error.name === "AbortError") throw error;
        return failure(error);
      }
    },
    {
      name: SETUP_AGENT_TOOL,
      description:
        "Set up a new custom agent the user asked for: its name, a one-line description and its instructions " +
        "(SOUL: who it is, how it works, what it avoids). The user approves it before it is kept.",
      schema: z.object({
        name: z.string().describe("Letters, digits and dashes, e.g. travel-planner."),
        description: z.string().describe("One line: what the agent does."),
        soul: z.string().describe("The agent's full instructions, in Markdown."),
        skills,
        tool_groups: groups,
      }),
    },
  );
}

/** update_agent: the thread's custom agent changes itself (only the fields given), once the user allows it. */
export function createUpdateAgentTool(agentName: string, deps: AgentToolsDeps) {
  return tool(
    async (args, config) => {
      const changes: AgentUpdate = {
        ...(args.description !== undefined && args.description !== null && { description: args.description }),
        ...(args.soul !== undefined && args.soul !== null && { soul: args.soul }),
        ...(args.skills !== undefined && { skills: args.skills }),
        ...(args.tool_groups !== undefined && { tool_groups: args.tool_groups }),
      };
      const fields = Object.keys(changes);
      if (fields.length === 0) return "Error: name at least one field to change.";
      if (changes.soul !== undefined && !changes.soul.trim()) return "Error: the new instructions are empty.";
      try {
        const answer = await deps.ask(
          {
            tool_call_id: config.toolCall?.id ?? "",
            tool: UPDATE_AGENT_TOOL,
            target: `the agent '${agentName}': its ${fields.join(", ")}`,
          },
          config.signal,
        );
        if (answer === "deny") return denied(`this change to '${agentName}'`);
        await deps.update(agentName, changes);
        return `The agent '${agentName}' was updated (${fields.join(", ")}); the change applies from the next message.`;
      } catch (error) {
        if (error instanceof Error && error.name === "AbortError") throw error;
        return failure(error);
      }
    },
    {
      name: UPDATE_AGENT_TOOL,
      description:
        "Change this custom agent when the user asks: give only what changes (the full new instructions when " +
        "they change). The user approves it before it is kept.",
      schema: z.object({
        description: z.string().nullish().describe("A new one-line description."),
        soul: z.string().nullish().describe("The full new instructions (replaces the old ones)."),
        skills,
        tool_groups: groups,
      }),
    },
  );
}
