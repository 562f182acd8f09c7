// Subagents' public surface: the types, the settings' validation, the runner, the `task` tool and its prompt section.
export {
  BASH_SUBAGENT,
  BUILT_IN_SUBAGENT_NAMES,
  GENERAL_PURPOSE_SUBAGENT,
  SUBAGENT_FORBIDDEN_TOOLS,
  parseSubagentSettings,
  resolveSubagentTypes,
  type SubagentSettingsParseResult,
  type SubagentType,
} from "./subagent-types.ts";
export { modelNameOf, parentText, runSubagent, type SubagentRun, type SubagentRunOptions } from "./subagent-runner.ts";
export { createTaskTool, type TaskArgs, type TaskToolOptions } from "./task-tool.ts";
export { subagentPromptSection, type SubagentPromptOptions } from "./subagent-prompt.ts";
