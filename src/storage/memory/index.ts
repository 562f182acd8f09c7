// Fawn's storage held in memory: every repository of contracts.ts over one set of tables, for Node (tests, a server
// without a database) and as the second implementation that keeps the contracts honest (storage-contract.ts).
import type { FawnStorage } from "../contracts.ts";
import { MemoryBackupStorage, MemoryThreadImportStorage } from "./memory-backup.ts";
import { MemoryCheckpointSaver } from "./memory-checkpoint-saver.ts";
import { MemorySearchIndexStorage, MemoryThreadFileStorage, MemoryThreadFileVersionStorage } from "./memory-files.ts";
import {
  MemoryDocumentStorage,
  MemoryMcpOAuthStorage,
  MemoryMcpServerStorage,
  MemorySettingsStorage,
  MemorySkillStorage,
} from "./memory-settings.ts";
import { MemoryTables } from "./memory-tables.ts";
import { MemoryThreadStorage } from "./memory-threads.ts";

export { MemoryCheckpointSaver } from "./memory-checkpoint-saver.ts";
export { MemoryTables } from "./memory-tables.ts";

/** A new, empty store held in memory; `tables` shares one (two Gateways over the same data, as two tabs). */
export function memoryStorage(tables: MemoryTables = new MemoryTables()): FawnStorage {
  const checkpointer = new MemoryCheckpointSaver(tables);
  return {
    threads: new MemoryThreadStorage(tables),
    checkpointer,
    files: new MemoryThreadFileStorage(tables),
    fileVersions: new MemoryThreadFileVersionStorage(tables),
    search: new MemorySearchIndexStorage(tables),
    settings: new MemorySettingsStorage(tables),
    memory: new MemoryDocumentStorage(tables),
    skills: new MemorySkillStorage(tables),
    mcpServers: new MemoryMcpServerStorage(tables),
    mcpOAuth: new MemoryMcpOAuthStorage(tables),
    threadImport: new MemoryThreadImportStorage(tables, checkpointer),
    backup: new MemoryBackupStorage(tables),
  };
}
