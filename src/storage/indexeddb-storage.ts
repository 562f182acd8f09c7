// Fawn's storage in IndexedDB: every repository of contracts.ts over one open database (fawn-db.ts), as the agent
// worker's Gateway uses it. memory/ is the same set held in memory.
import { BackupStore } from "./backup-store.ts";
import type { FawnStorage } from "./contracts.ts";
import type { FawnDb } from "./fawn-db.ts";
import { IndexedDbCheckpointSaver } from "./indexeddb-checkpoint-saver.ts";
import { McpOAuthRepository } from "./mcp-oauth-repository.ts";
import { McpServersRepository } from "./mcp-servers-repository.ts";
import { MemoryRepository } from "./memory-repository.ts";
import { SettingsRepository } from "./settings-repository.ts";
import { SkillsRepository } from "./skills-repository.ts";
import { ThreadFileVersions } from "./thread-file-versions.ts";
import { ThreadFiles } from "./thread-files.ts";
import { ThreadImporter } from "./thread-import-writer.ts";
import { ThreadRepository } from "./thread-repository.ts";
import { ThreadSearchIndex } from "./thread-search-index.ts";

/** The repositories over `db` (which stays the caller's to close). */
export function indexedDbStorage(db: FawnDb): FawnStorage {
  const checkpointer = new IndexedDbCheckpointSaver({ db });
  return {
    threads: new ThreadRepository(db),
    checkpointer,
    files: new ThreadFiles(db),
    fileVersions: new ThreadFileVersions(db),
    search: new ThreadSearchIndex(db),
    settings: new SettingsRepository(db),
    memory: new MemoryRepository(db),
    skills: new SkillsRepository(db),
    mcpServers: new McpServersRepository(db),
    mcpOAuth: new McpOAuthRepository(db),
    threadImport: new ThreadImporter(db, checkpointer),
    backup: new BackupStore(db),
  };
}
