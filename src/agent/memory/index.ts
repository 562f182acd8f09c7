// Long-term memory (DeerFlow's memory core): the document's rules, the update pipeline and the prompt injection.
export {
  MemoryError,
  parseMemoryDocument,
  addFact,
  updateFact,
  deleteFact,
  capFacts,
  factContentKey,
  newFactId,
  isValidConfidence,
  MAX_DOCUMENT_FACTS,
  DEFAULT_FACT_CATEGORY,
  DEFAULT_FACT_CONFIDENCE,
  MANUAL_FACT_SOURCE,
  type AddFactOptions,
} from "./memory-document.ts";
export {
  parseMemoryUpdateResponse,
  applyMemoryUpdate,
  mentionsUpload,
  withoutUploadSentences,
  USER_SECTIONS,
  HISTORY_SECTIONS,
  type MemoryUpdate,
  type MemorySectionUpdate,
  type MemoryFactProposal,
  type UserSectionName,
  type HistorySectionName,
  type ApplyMemoryUpdateOptions,
} from "./memory-update.ts";
export {
  conversationForMemory,
  memorySignals,
  isClarificationAnswer,
  truncateForMemory,
  type MemorySignals,
} from "./memory-messages.ts";
export { memoryUpdateMessages, escapeForPrompt, MEMORY_UPDATE_MARKER } from "./memory-prompt.ts";
export {
  formatMemoryForInjection,
  estimateTokens,
  GUARANTEED_FACT_CATEGORIES,
  GUARANTEED_FACT_TOKENS,
} from "./memory-injection.ts";
export {
  MemoryUpdateQueue,
  InMemoryMemoryStore,
  MEMORY_QUEUE_MAX_DEPTH,
  type MemoryStore,
  type MemoryUpdateQueueDeps,
} from "./memory-updater.ts";
