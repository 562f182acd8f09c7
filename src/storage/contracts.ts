// What the Gateway needs from storage, one interface per repository, and `FawnStorage`, the set of them the composition
// root hands to the services (docs/architecture.md#d2-storage). IndexedDB implements them in the browser
// (indexeddb-storage.ts), the in-memory store in Node (memory/); a server would implement them over its database.
// Every implementation passes storage-contract.ts. The records are the same everywhere: a backup, a `.fawn` and a
// checkpoint carry them between hosts. Each method's comment is in the IndexedDB class that implements it.
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { McpServerEntry, MemoryDocument, ThreadSummary } from "../protocol/index.ts";
import type { BackupWrite, BackupWriteResult, GlobalBackup, ThreadBackup } from "./backup-store.ts";
import type { RunRecord, SkillRecord, StoredEntry, ThreadFileMeta, ThreadFileRecord } from "./fawn-db.ts";
import type { McpOAuthPart } from "./mcp-oauth-repository.ts";
import type { ThreadImport } from "./thread-import-writer.ts";
import type { ThreadFile, ThreadFileInput } from "./thread-files.ts";
import type { SearchText } from "./thread-search-index.ts";

export type ThreadPatch = Partial<
  Pick<ThreadSummary, "title" | "status" | "pinned" | "updated_at" | "head" | "foreign" | "approved_tools" | "agent">
>;

/** Threads and their history entries (thread-repository.ts). Rejects `create` of a taken id. */
export interface ThreadStorage {
  list(): Promise<ThreadSummary[]>;
  create(options?: { threadId?: string; title?: string }): Promise<ThreadSummary>;
  settleInterrupted(): Promise<void>;
  get(threadId: string): Promise<ThreadSummary | undefined>;
  entries(threadId: string): Promise<StoredEntry[]>;
  detail(threadId: string): Promise<(ThreadSummary & { entries: StoredEntry[] }) | undefined>;
  append(
    threadId: string,
    entries: readonly StoredEntry[],
    patch?: ThreadPatch | ((thread: ThreadSummary) => ThreadPatch),
  ): Promise<ThreadSummary>;
  update(
    threadId: string,
    patch: ThreadPatch | ((thread: ThreadSummary) => ThreadPatch),
  ): Promise<ThreadSummary | undefined>;
  histories(
    threadIds: readonly string[],
  ): Promise<Map<string, { entries: StoredEntry[]; checkpointed: boolean; head?: string }>>;
  /** The thread and every record of it in every store (checkpoints, files, runs, search), in one write. */
  delete(threadId: string): Promise<void>;
}

/** The record of each run of the agent on a thread. */
export interface RunRecordStorage {
  recordRun(record: RunRecord): Promise<void>;
  run(threadId: string, runId: string): Promise<RunRecord | undefined>;
  /** Oldest first. */
  runs(threadId: string): Promise<RunRecord[]>;
}

/**
 * LangGraph's checkpointer (the thread's messages and state, `BaseCheckpointSaver`), with what Fawn reads besides:
 * which checkpoint is newest or first, and whether one came in an imported thread. Channel versions are strings
 * unique across forks (`getNextVersion`), so branches never overwrite each other's values.
 */
export interface CheckpointStorage extends BaseCheckpointSaver {
  isImported(threadId: string, checkpointId: string): Promise<boolean>;
  latestCheckpointId(threadId: string): Promise<string | undefined>;
  rootCheckpointId(threadId: string): Promise<string | undefined>;
}

/** A thread's files under /mnt/user-data (thread-files.ts); every write is all or nothing. */
export interface ThreadFileStorage {
  read(threadId: string, path: string): Promise<ThreadFile | undefined>;
  write(threadId: string, files: readonly ThreadFileInput[]): Promise<ThreadFileMeta[]>;
  apply(
    threadId: string,
    changes: { write?: readonly ThreadFileInput[]; delete?: readonly string[] },
  ): Promise<ThreadFileMeta[]>;
  readAll(threadId: string): Promise<ThreadFile[]>;
  list(threadId: string, dirPrefix?: string): Promise<ThreadFileMeta[]>;
  stat(threadId: string, path: string): Promise<ThreadFileMeta | undefined>;
  delete(threadId: string, paths: readonly string[]): Promise<void>;
  deleteThread(threadId: string): Promise<void>;
}

/** The workspace and outputs kept at a checkpoint, for branches (thread-file-versions.ts). */
export interface ThreadFileVersionStorage {
  save(threadId: string, checkpointId: string): Promise<void>;
  restore(threadId: string, checkpointId: string | undefined): Promise<boolean>;
}

/** The words of each thread, for search (thread-search-index.ts). Derived: rebuilt when missing. */
export interface SearchIndexStorage {
  put(texts: readonly SearchText[]): Promise<void>;
  remove(threadIds: readonly string[]): Promise<void>;
  threadsWithPrefixes(terms: readonly string[]): Promise<Set<string>[]>;
  texts(threadIds: readonly string[]): Promise<Map<string, string>>;
  isComplete(): Promise<boolean>;
  differences(): Promise<{ missing: string[]; orphans: string[] }>;
}

/** Every secret stored (API keys, tokens), read only to redact them from error text. */
export interface SecretStorage {
  secretValues(): Promise<string[]>;
}

/** Key-value settings with their API keys kept apart, as secrets (settings-repository.ts). */
export interface SettingsStorage extends SecretStorage {
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown): Promise<void>;
  getWithApiKey(key: string): Promise<{ value: unknown; apiKey: string | undefined }>;
  putWithApiKey(key: string, value: unknown, apiKey: string): Promise<void>;
  getWithApiKeys(key: string): Promise<{ value: unknown; apiKeys: Map<string, string> }>;
  putWithApiKeys(key: string, value: unknown, apiKeys: ReadonlyMap<string, string>): Promise<void>;
  putAllWithApiKeys(entries: readonly { key: string; value: unknown; apiKey: string }[]): Promise<void>;
}

/** The memory document (memory-repository.ts); `update` reads, changes and writes in one transaction. */
export interface MemoryStorage {
  read(): Promise<MemoryDocument>;
  update(change: (doc: MemoryDocument) => MemoryDocument): Promise<MemoryDocument>;
  replace(doc: MemoryDocument): Promise<void>;
}

/** Installed skills and the public skills' on/off states; `installCustom` rejects a taken name (SkillExistsError). */
export interface SkillStorage {
  listCustom(): Promise<SkillRecord[]>;
  getCustom(name: string): Promise<SkillRecord | undefined>;
  installCustom(record: SkillRecord): Promise<void>;
  deleteCustom(name: string): Promise<boolean>;
  setCustomEnabled(name: string, enabled: boolean): Promise<SkillRecord | undefined>;
  publicEnabledStates(): Promise<Record<string, boolean>>;
  setPublicEnabled(name: string, enabled: boolean): Promise<void>;
}

/** MCP servers, their secrets kept as secrets (mcp-servers-repository.ts). */
export interface McpServerStorage {
  list(): Promise<McpServerEntry[]>;
  replaceAll(servers: readonly McpServerEntry[]): Promise<void>;
}

/** MCP sign-ins (OAuth client, tokens, verifier…), each part kept as a secret for one server URL. */
export interface McpOAuthStorage {
  get(server: string, url: string, part: McpOAuthPart): Promise<unknown>;
  set(server: string, url: string, part: McpOAuthPart, value: unknown): Promise<void>;
  delete(server: string, parts: readonly McpOAuthPart[]): Promise<void>;
  forget(server: string): Promise<void>;
  signedIn(servers: readonly { name: string; url: string }[]): Promise<string[]>;
}

/**
 * A whole thread written at once (a `.fawn`, a DeerFlow import): summary, one checkpoint, files and search entry,
 * all or nothing; rejects with ThreadIdTakenError when the id is taken. Resolves with the checkpoint's id.
 */
export interface ThreadImportStorage {
  write(imported: ThreadImport): Promise<string>;
}

/** Everything kept, read for a backup and written back from one (backup-store.ts); never a secret. */
export interface BackupStorage {
  threadIds(): Promise<string[]>;
  fileSizes(): Promise<{ thread_id: string; path: string; size: number }[]>;
  readThread(threadId: string): Promise<{ records: ThreadBackup; files: ThreadFileRecord[] } | undefined>;
  readGlobals(): Promise<GlobalBackup>;
  /** One transaction: all of it or nothing (a throw from `checkAdditions` or `mergeMemory` included). */
  write(plan: BackupWrite): Promise<BackupWriteResult>;
  /** Deletes everything, secrets included, in one transaction; the ids of the threads there were. */
  deleteAll(): Promise<string[]>;
}

/** The repositories of one store, as the composition root passes them to the services. */
export interface FawnStorage {
  threads: ThreadStorage & RunRecordStorage;
  checkpointer: CheckpointStorage;
  files: ThreadFileStorage;
  fileVersions: ThreadFileVersionStorage;
  search: SearchIndexStorage;
  settings: SettingsStorage;
  memory: MemoryStorage;
  skills: SkillStorage;
  mcpServers: McpServerStorage;
  mcpOAuth: McpOAuthStorage;
  threadImport: ThreadImportStorage;
  backup: BackupStorage;
}
