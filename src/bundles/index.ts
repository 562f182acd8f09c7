// The bundles layer's public surface: importing threads from elsewhere (DeerFlow's thread.json for now), exporting
// them (Markdown, DeerFlow's thread.json) and backups.
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
export { BackupArchiveError } from "./backup-archive-schema.ts";
export { sandboxLogEntrySchema } from "./sandbox-log-schema.ts";
export { BackupArchiveWriter, checkPlannedBackup } from "./backup-archive-writer.ts";
export { readBackupArchive, type BackupContents } from "./backup-archive-reader.ts";
export { threadToMarkdown } from "./thread-markdown.ts";
export { threadToDeerFlowJson } from "./thread-deerflow-json.ts";
export {
  readThreadBundle,
  THREAD_BUNDLE_EXTENSION,
  THREAD_BUNDLE_FORMAT,
  withThreadId,
  writeThreadBundle,
  type BundledThread,
} from "./thread-bundle.ts";
export {
  decodeShareLink,
  encodeShareLink,
  readShareLink,
  SHARE_LINK_LIMITS,
  SHARE_LINK_MAX_CHARS,
  type ShareLinkEncoding,
} from "./share-link.ts";
export { previewThreadBundle } from "./thread-bundle-preview.ts";
export { threadFileName } from "./thread-file-name.ts";
