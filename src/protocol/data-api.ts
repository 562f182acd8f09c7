// The data domain's contract (`gateway.data`): Settings → Data, a backup of everything, its import, and deleting it
// all (issue 7).
import type { DataExport, DataImportAnswer } from "./data-backup.ts";

export interface DataApi {
  /**
   * Every thread (with its checkpoints, uploads and outputs), the memory, installed skills and settings as one zip,
   * `fawn-backup-YYYY-MM-DD.zip`. API keys are never in it.
   */
  export(): Promise<DataExport>;
  /**
   * Imports a backup made by `export`. It is checked whole first (zip sizes before inflating, paths, manifest,
   * every record); a bad one is refused with one sentence and nothing changes. Threads and skills already here are
   * kept (the backup's are skipped), memory facts are merged without duplicates, settings are restored only where
   * this browser has none. All of it is written in one transaction.
   * MCP servers arrive switched off. When the import would add what can act or send data (a model endpoint's, web
   * service's or the proxy's address, an MCP server, a skill with scripts) and `acceptAdditions` is not set, nothing
   * is written and the answer lists them (a DataImportConfirmation): a backup cannot quietly point this browser's
   * endpoints at another host or give the agent new tools.
   */
  import(archive: Blob | Uint8Array, options?: { acceptAdditions?: boolean }): Promise<DataImportAnswer>;
  /** Deletes every thread, file, memory, skill, setting and API key; refused while a reply is running. */
  deleteAll(): Promise<void>;
}
