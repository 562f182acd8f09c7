// The storage layer's public surface.
export {
  openFawnDb,
  DB_VERSION,
  CHECKPOINT_STORES,
  THREAD_STORES,
  type FawnDb,
  type FawnDbSchema,
  type ThreadFileMeta,
  type HistoryNote,
  type StoredEntry,
  type RunRecord,
} from "./fawn-db.ts";
export { ThreadRepository, type ThreadPatch } from "./thread-repository.ts";
export { ThreadFileVersions } from "./thread-file-versions.ts";
export { ThreadSearchIndex, searchRecord, type SearchText } from "./thread-search-index.ts";
export { findSnippet, queryTerms, titleHighlights, titleMatches, type QueryTerm, type Snippet } from "./search-text.ts";
export { SettingsRepository } from "./settings-repository.ts";
export { McpServersRepository } from "./mcp-servers-repository.ts";
export { McpOAuthRepository, type McpOAuthPart } from "./mcp-oauth-repository.ts";
export {
  apiKeySecret,
  endpointKeySecret,
  LEGACY_MODEL_ENDPOINT_KEY,
  MODEL_SETTINGS_KEY,
  PROXY_SETTINGS_KEY,
  upgradedRecords,
  WEB_FETCH_KEY,
  WEB_SEARCH_KEY,
} from "./settings-upgrade.ts";
export {
  IndexedDbCheckpointSaver,
  type IndexedDbCheckpointSaverOptions,
  type CheckpointWriteStat,
  type CheckpointStoreName,
} from "./indexeddb-checkpoint-saver.ts";
export {
  ThreadFiles,
  guessMimeType,
  threadFilePathProblem,
  assertThreadFilePath,
  sha256Hex,
  THREAD_FILES_ROOT,
  THREAD_FILE_AREAS,
  type ThreadFile,
  type ThreadFileInput,
} from "./thread-files.ts";
export {
  MemoryRepository,
  MEMORY_DOCUMENT_KEY,
  isMemoryDocumentShape,
  type MemoryRepositoryOptions,
} from "./memory-repository.ts";
export { SkillsRepository, SkillExistsError, PUBLIC_SKILL_STATES_KEY } from "./skills-repository.ts";
export type { SkillRecord, SkillRecordMetadata } from "./fawn-db.ts";
export type {
  BackupStorage,
  CheckpointStorage,
  FawnStorage,
  McpOAuthStorage,
  McpServerStorage,
  MemoryStorage,
  RunRecordStorage,
  SearchIndexStorage,
  SecretStorage,
  SettingsStorage,
  SkillStorage,
  ThreadFileStorage,
  ThreadFileVersionStorage,
  ThreadImportStorage,
  ThreadStorage,
} from "./contracts.ts";
export { indexedDbStorage } from "./indexeddb-storage.ts";
export { memoryStorage, MemoryCheckpointSaver, MemoryTables } from "./memory/index.ts";
export {
  assertKey,
  compareKeys,
  keyMatches,
  keyOf,
  tableStorage,
  TableCheckpointSaver,
  type Key,
  type KeyMatch,
  type ReadOptions,
  type StoreName,
  type StoreValue,
  type TableReader,
  type Tables,
  type TableTransaction,
} from "./tables/index.ts";
// The contract every implementation passes (run by each host's tests; the server's over Postgres).
export { STORAGE_CONTRACT, type StorageCheck } from "./storage-contract.ts";
// What the Gateway and bundles use beside the repositories: backups' records, stored record shapes, a full storage
// and an imported thread's checkpoints.
export type { BackupAdditions, BackupWrite, GlobalBackup, ThreadBackup } from "./backup-store.ts";
export type {
  ChannelVersionKey,
  McpServerRecord,
  MessageListBlob,
  SettingRecord,
  StoreItemRecord,
  ThreadFileMetaRecord,
  ThreadFileRecord,
} from "./fawn-db.ts";
export { refsOfChain } from "./message-delta.ts";
export { checkpointValuesOf, closeImportedThread } from "./imported-thread.ts";
export {
  DATABASE_GONE_MESSAGE,
  isClosedConnectionError,
  isDatabaseGoneError,
  isQuotaError,
  STORAGE_CLOSED_MESSAGE,
  STORAGE_FULL_MESSAGE,
} from "./storage-errors.ts";
export { ThreadIdTakenError } from "./thread-import-writer.ts";
// A type only: the class is a chunk of its own (workers/agent.worker.ts loads it on first use).
export type { DeviceModelFiles, DeviceModelSource } from "./device-model-files.ts";
