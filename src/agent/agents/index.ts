// Custom agents in the agent layer: their data, the example agents, what a run does with one, and the tools that
// create and change them. (The agents zip reader and writer, agents-zip.ts, is loaded on use by the service.)
export {
  AgentConfigError,
  applyAgentUpdate,
  draftOfRecord,
  readAgentDraft,
  readAgentUpdate,
  readStoredAgents,
} from "./agent-config.ts";
export {
  agentAllowsTool,
  agentPromptSection,
  agentSkills,
  agentToolRefusal,
  agentToolsMiddleware,
  ALWAYS_OFFERED,
  TOOL_GROUP_OF,
  type RunAgent,
} from "./agent-run.ts";
export {
  createSetupAgentTool,
  createUpdateAgentTool,
  SETUP_AGENT_TOOL,
  UPDATE_AGENT_TOOL,
  type AgentToolsDeps,
} from "./agent-tools.ts";

/** The example agents, loaded on use (Settings → Agents only, off a run's path). */
export const loadAgentExamples = () => import("./agent-examples.ts");

/** The agents zip's reader and writer, loaded on use (export and import only, off a run's path). */
export const loadAgentsZip = () => import("./agents-zip.ts");
