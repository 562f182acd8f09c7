// Fawn's storage over any `Tables` (tables.ts): every repository of contracts.ts written once, for the hosts with no
// IndexedDB — memory (src/storage/memory/) and the server's Postgres (server/db/postgres-tables.ts).
import type { FawnStorage } from "../contracts.ts";
import { TableBackupStorage, TableThreadImportStorage } from "./table-backup.ts";
import { TableCheckpointSaver } from "./table-checkpoint-saver.ts";
import { TableSearchIndexStorage, TableThreadFileStorage, TableThreadFileVersionStorage } from "./table-files.ts";
import {
  TableDocumentStorage,
  TableMcpOAuthStorage,
  TableMcpServerStorage,
  TableSettingsStorage,
  TableSkillStorage,
} from "./table-settings.ts";
import { TableThreadStorage } from "./table-threads.ts";
import type { Tables } from "./tables.ts";

export { TableCheckpointSaver } from "./table-checkpoint-saver.ts";
export {
  assertKey,
  compareKeys,
  keyMatches,
  keyOf,
  type Key,
  type KeyMatch,
  type ReadOptions,
  type StoreName,
  type StoreValue,
  type TableReader,
  type Tables,
  type TableTransaction,
} from "./tables.ts";

/** Fawn's storage over `tables`: one user's stores, every repository reading and writing through them. */
export function tableStorage(tables: Tables): FawnStorage {
  const checkpointer = new TableCheckpointSaver(tables);
  return {
    threads: new TableThreadStorage(tables),
    checkpointer,
    files: new TableThreadFileStorage(tables),
    fileVersions: new TableThreadFileVersionStorage(tables),
    search: new TableSearchIndexStorage(tables),
    settings: new TableSettingsStorage(tables),
    memory: new TableDocumentStorage(tables),
    skills: new TableSkillStorage(tables),
    mcpServers: new TableMcpServerStorage(tables),
    mcpOAuth: new TableMcpOAuthStorage(tables),
    threadImport: new TableThreadImportStorage(tables, checkpointer),
    backup: new TableBackupStorage(tables),
  };
}
