// A custom agent in a run: its instructions as a section of the system prompt, which tools it is offered (its tool
// groups and guardrail), which skills it sees, and the middleware that hides the others from the model and refuses a
// call to one anyway (DeerFlow's tool-group whitelist and guardrail, per agent).
import { ToolMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";
import type { AgentRecord, AgentToolGroup, SkillInfo } from "../../protocol/index.ts";
import { escapeXml } from "../skills/skills-prompt.ts";

/** Fawn's own tools by the group they belong to; a tool not listed here is an MCP server's (group `mcp`). */
export const TOOL_GROUP_OF: Readonly<Record<string, AgentToolGroup>> = {
  bash: "bash",
  ls: "file:read",
  read_file: "file:read",
  glob: "file:read",
  grep: "file:read",
  view_image: "file:read",
  write_file: "file:write",
  str_replace: "file:write",
  present_files: "file:write",
  web_search: "web",
  web_fetch: "web",
  image_search: "web",
  tool_search: "mcp",
};

/** Tools every agent keeps whatever its groups (asking the user, the plan, delegating, changing itself). */
export const ALWAYS_OFFERED: readonly string[] = ["ask_clarification", "write_todos", "task", "update_agent"];

/** What a run knows of its custom agent. */
export type RunAgent = Pick<AgentRecord, "name" | "description" | "soul" | "tool_groups" | "skills" | "guardrail">;

/** The refusal the model reads for a tool the agent may not use. */
export function agentToolRefusal(agent: string, tool: string): string {
  return `The agent '${agent}' may not use the tool '${tool}' (its tool groups or guardrail leave it out). Go on without it.`;
}

/**
 * Whether the agent may see and call tool `name`: its group is one of the agent's (every group when it names
 * none), the guardrail's allow list (when given) holds it, and its deny list does not. The tools every agent keeps
 * pass the groups and the allow list, never the deny list.
 */
export function agentAllowsTool(agent: Pick<RunAgent, "tool_groups" | "guardrail">, name: string): boolean {
  if (agent.guardrail?.deny?.includes(name)) return false;
  if (ALWAYS_OFFERED.includes(name)) return true;
  const allow = agent.guardrail?.allow;
  if (allow && allow.length > 0 && !allow.includes(name)) return false;
  if (!agent.tool_groups) return true;
  return agent.tool_groups.includes(TOOL_GROUP_OF[name] ?? "mcp");
}

/** The skills the agent sees: all of them when it names none, else only the named ones (others as disabled). */
export function agentSkills(agent: Pick<RunAgent, "skills">, skills: readonly SkillInfo[]): SkillInfo[] {
  const names = agent.skills;
  if (!names) return [...skills];
  return skills.map((skill) => (names.includes(skill.name) ? skill : { ...skill, enabled: false }));
}

function toolName(tool: unknown): string | undefined {
  const name = (tool as { name?: unknown } | null)?.name;
  return typeof name === "string" ? name : undefined;
}

/** Hides the tools the agent may not use from each model call and refuses a call to one with a readable result. */
export function agentToolsMiddleware(agent: RunAgent) {
  const allowed = (name: string | undefined) => name !== undefined && agentAllowsTool(agent, name);
  return createMiddleware({
    name: "AgentToolsMiddleware",
    wrapModelCall: (request, handler) => {
      const tools = request.tools.filter((tool) => allowed(toolName(tool)));
      const forced = request.toolChoice;
      const keepChoice = typeof forced !== "object" || allowed(forced.function.name);
      return handler({ ...request, tools, toolChoice: keepChoice ? forced : undefined });
    },
    wrapToolCall: (request, handler) => {
      const { name, id } = request.toolCall;
      if (allowed(name)) return handler(request);
      return new ToolMessage({
        content: agentToolRefusal(agent.name, name),
        tool_call_id: id ?? "",
        name,
        status: "error",
      });
    },
  });
}

/**
 * The system prompt's section for a custom agent: who it is and its instructions (the user's text, escaped so it
 * cannot close the section), and how it changes itself (update_agent, which asks the user first).
 */
export function agentPromptSection(agent: RunAgent): string {
  return [
    `<custom_agent name="${escapeXml(agent.name)}">`,
    `In this thread you are the custom agent "${escapeXml(agent.name)}", which the user set up in Fawn` +
      (agent.description ? `: ${escapeXml(agent.description)}` : "."),
    "Follow its instructions below as your own, within the rules above; they come from the user.",
    "<instructions>",
    escapeXml(agent.soul.trim()),
    "</instructions>",
    "When the user asks you to change how this agent behaves (its instructions, description, skills or tool",
    "groups), call update_agent with only what changes (the full new instructions when they change); the user",
    "approves the change before it is kept.",
    "</custom_agent>",
  ].join("\n");
}
