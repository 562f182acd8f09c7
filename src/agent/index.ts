// The agent layer's public surface.
export {
  createLeadAgent,
  leadAgentSystemPrompt,
  mcpPromptSection,
  type LeadAgent,
  type LeadAgentOptions,
  type McpRunTools,
} from "./lead-agent.ts";
export { fromWireMessage, toWireChunk, toWireMessage } from "./wire-messages.ts";
export { resolveRunOptions, type RunOptions } from "./modes.ts";
export { fallbackTitle } from "./middlewares/title.ts";
export type { ModelErrorOptions } from "./middlewares/model-retry.ts";
export type { SummarizationOptions } from "./middlewares/summarization.ts";
export { auditedSandbox } from "./middlewares/sandbox-audit.ts";
export {
  deniedToolText,
  outboundTargets,
  withNetworkedShell,
  type OutboundApproval,
  type OutboundCall,
} from "./middlewares/outbound-approval.ts";
export { createWebTools, parseWebToolSettings, readWebToolSettings } from "./tools/web/index.ts";
export { parseSubagentSettings } from "./subagents/index.ts";
export {
  parseSummariesAndTitles,
  readSummariesAndTitles,
  summarizationOptionsFor,
} from "./middlewares/summaries-titles-settings.ts";
export {
  addFact,
  deleteFact,
  formatMemoryForInjection,
  MemoryError,
  MemoryUpdateQueue,
  parseMemoryDocument,
  updateFact,
} from "./memory/index.ts";
export {
  mountedSkillFiles,
  parseSlashSkill,
  publicSkills,
  readSkillArchive,
  SkillArchiveError,
  skillPath,
  slashSkillActivation,
} from "./skills/index.ts";
export {
  compactThread,
  contextStateOf,
  contextTokens,
  threadContextState,
  COMPACT_KEEP_MESSAGES,
} from "./compaction.ts";
export { generateSuggestions, SUGGESTIONS_MARKER } from "./suggestions.ts";
export { capFacts, factContentKey, MAX_DOCUMENT_FACTS, newFactId } from "./memory/memory-document.ts";
export { parseSkillMarkdown, skillNameProblem } from "./skills/skill-frontmatter.ts";
export { stripThinking } from "./visible-text.ts";
export * from "./agents/index.ts";
