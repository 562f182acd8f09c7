// Settings → Data: the backup archive of everything Fawn keeps in this browser (threads, memory, skills, settings;
// never API keys), what an import reports, and the limits an archive is checked against before anything is written.

/** `manifest.json`'s `format`: an archive without it is not a Fawn backup. */
export const BACKUP_FORMAT = "fawn-backup";
/** The newest backup format this Fawn writes and reads. */
export const BACKUP_VERSION = 1;

/** What a backup holds, as counted when it was written; an import checks the archive against it. */
export interface BackupCounts {
  threads: number;
  /** Files of all threads (uploads, workspace, outputs). */
  thread_files: number;
  /** Installed (custom) skills; shipped skills are part of the app. */
  skills: number;
  memory_facts: number;
  /** Settings records (API keys are never among them). */
  settings: number;
}

/** `manifest.json` at the archive's root. */
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  /** The Fawn that wrote it. */
  app_version: string;
  /** ISO time. */
  created_at: string;
  counts: BackupCounts;
}

/** A backup made by "Export all data". */
export interface DataExport {
  /** `fawn-backup-YYYY-MM-DD.zip`. */
  file_name: string;
  /** The zip archive (application/zip). */
  blob: Blob;
  manifest: BackupManifest;
}

/** What "Import data" did: nothing already here is overwritten. */
export interface DataImportResult {
  threads_imported: number;
  /** Threads whose id is already here: the ones here are kept. */
  threads_skipped: number;
  skills_imported: number;
  /** Skills whose name is already installed: the installed ones are kept. */
  skills_skipped: number;
  /** Facts added to the memory (ones it already holds are not added twice). */
  memory_facts_added: number;
  /** Settings restored because this browser had none of that kind. */
  settings_restored: number;
  /** One sentence for the user, e.g. "Imported 3 threads, skipped 1 already here." */
  message: string;
}

/** An address a backup import would set in this browser: a model endpoint's Base URL, a web service's, the proxy's. */
export interface AddressChange {
  kind: "endpoint" | "web-search" | "web-fetch" | "proxy";
  /** The endpoint's name as Settings → Models lists it, or the web service's label; "" for the proxy. */
  name: string;
  /** The address requests (and, once entered, keys) would go to. */
  address: string;
}

/**
 * What "Import data" answers instead of importing when the backup would set addresses and the caller has not accepted
 * them: nothing was written. Importing again with `acceptAddressChanges` applies the backup, these addresses included.
 */
export interface DataImportConfirmation {
  confirm: "address_changes";
  address_changes: AddressChange[];
  /** One sentence for clients without their own words, listing the addresses. */
  message: string;
}

/** "Import data"'s answer: what it imported, or the addresses it waits for the user to accept. */
export type DataImportAnswer = DataImportResult | DataImportConfirmation;

/** True when the import waits for the user to accept the addresses it would set. */
export function needsConfirmation<Done extends object>(
  answer: Done | DataImportConfirmation,
): answer is DataImportConfirmation {
  return "confirm" in answer && answer.confirm === "address_changes";
}

/** The sentence a confirmation carries: the addresses the backup would set. */
export function describeAddressChanges(changes: readonly AddressChange[]): string {
  const named = changes.map((change) => {
    if (change.kind === "proxy") return `the proxy URL ${change.address}`;
    if (change.kind === "endpoint") return `the endpoint ${change.name} at ${change.address}`;
    return `${change.name} at ${change.address}`;
  });
  return `This backup changes these addresses: ${named.join("; ")}. Nothing was imported; import it again accepting them to apply it.`;
}

/** Limits on a backup archive, judged from the zip's directory before anything is inflated. */
export const BACKUP_LIMITS = {
  /** The archive file itself. */
  maxArchiveBytes: 1024 * 1024 * 1024,
  /** All members, uncompressed. */
  maxTotalBytes: 1024 * 1024 * 1024,
  /** One member, uncompressed. */
  maxEntryBytes: 256 * 1024 * 1024,
  /** Members in the archive. */
  maxEntries: 100_000,
} as const;

export type BackupLimits = { [K in keyof typeof BACKUP_LIMITS]: number };

/** `fawn-backup-YYYY-MM-DD.zip` for the (local) day of `date`. */
export function backupFileName(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `fawn-backup-${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}.zip`;
}

/** The sentence an import reports, naming only what happened. */
export function describeImport(result: Omit<DataImportResult, "message">): string {
  const plural = (count: number, word: string) => `${count.toLocaleString("en")} ${word}${count === 1 ? "" : "s"}`;
  const parts = [`Imported ${plural(result.threads_imported, "thread")}`];
  if (result.threads_skipped > 0) parts.push(`skipped ${plural(result.threads_skipped, "thread")} already here`);
  let sentence = `${parts.join(", ")}.`;
  const extras: string[] = [];
  if (result.memory_facts_added > 0) extras.push(`${plural(result.memory_facts_added, "memory fact")} added`);
  if (result.skills_imported > 0) extras.push(`${plural(result.skills_imported, "skill")} installed`);
  if (result.skills_skipped > 0) extras.push(`${plural(result.skills_skipped, "skill")} already installed kept`);
  if (result.settings_restored > 0) extras.push(`${plural(result.settings_restored, "setting")} restored`);
  if (extras.length > 0) sentence += ` ${extras.join(", ").replace(/^./, (first) => first.toUpperCase())}.`;
  return sentence;
}
