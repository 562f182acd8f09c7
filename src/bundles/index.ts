// The bundles layer's public surface: importing threads from elsewhere (DeerFlow's thread.json for now).
export {
  planDeerFlowImport,
  virtualPathOf,
  type DeerFlowImportInput,
  type DeerFlowImportPlan,
} from "./deerflow-import.ts";
export {
  DeerFlowImportError,
  MAX_DEERFLOW_MESSAGES,
  parseDeerFlowThread,
  type DeerFlowThread,
} from "./deerflow-thread.ts";
export { BackupArchiveError, BackupArchiveWriter, readBackupArchive, type BackupContents } from "./backup-archive.ts";
