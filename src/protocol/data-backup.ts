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
  /** The MCP servers added, by name: every one arrives switched off, whatever the backup said. */
  mcp_servers_added: string[];
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

/** An MCP server a backup import would add (switched off): its tools could act and send data once it is on. */
export interface McpServerAddition {
  kind: "mcp-server";
  name: string;
  /** Its MCP endpoint. */
  address: string;
  /** Reached through the proxy. */
  via_proxy?: boolean;
}

/** A skill a backup import would install with files other than Markdown, which the agent can run in the sandbox. */
export interface SkillScriptsAddition {
  kind: "skill-scripts";
  name: string;
  /** Those files' paths in the skill, sorted. */
  scripts: string[];
}

/**
 * A scheduled run a backup import would add (this browser has no schedules yet): switched on, it sends its prompt to
 * the model by itself, with the thread's tools, while Fawn is open.
 */
export interface ScheduleAddition {
  kind: "schedule";
  name: string;
  /** Its prompt, cut to 200 characters. */
  prompt: string;
  enabled: boolean;
}

/** Something a backup import would add that can act or send data: the user accepts them before anything is written. */
export type ImportAddition = AddressChange | McpServerAddition | SkillScriptsAddition | ScheduleAddition;

/**
 * What "Import data" answers instead of importing when the backup would add something that can act or send data
 * (model endpoints, web services, the proxy address, MCP servers, skills with scripts, scheduled runs) and the caller has not accepted
 * it: nothing was written. Importing again with `acceptAdditions` applies the backup, these included.
 */
export interface DataImportConfirmation {
  confirm: "additions";
  additions: ImportAddition[];
  /** One sentence for clients without their own words, listing them. */
  message: string;
}

/** "Import data"'s answer: what it imported, or what it waits for the user to accept. */
export type DataImportAnswer = DataImportResult | DataImportConfirmation;

/** True when the import waits for the user to accept what it would add. */
export function needsConfirmation<Done extends object>(
  answer: Done | DataImportConfirmation,
): answer is DataImportConfirmation {
  return "confirm" in answer && answer.confirm === "additions";
}

/** At most this many of a skill's script names are named in a sentence; the rest are counted. */
const NAMED_SCRIPTS = 5;

/** A skill's script names for a sentence: the first few, then how many more. */
export function scriptNames(scripts: readonly string[]): string {
  const named = scripts.slice(0, NAMED_SCRIPTS).join(", ");
  const more = scripts.length - NAMED_SCRIPTS;
  return more > 0 ? `${named} and ${more} more` : named;
}

/** The sentence a confirmation carries: everything the backup would add that can act or send data. */
export function describeAdditions(additions: readonly ImportAddition[]): string {
  const named = additions.map((addition) => {
    switch (addition.kind) {
      case "proxy":
        return `the proxy URL ${addition.address}`;
      case "endpoint":
        return `the endpoint ${addition.name} at ${addition.address}`;
      case "mcp-server":
        return `the MCP server ${addition.name} at ${addition.address} (switched off)`;
      case "skill-scripts":
        return `the skill ${addition.name} with scripts (${scriptNames(addition.scripts)})`;
      case "schedule":
        return `the scheduled run ${addition.name}${addition.enabled ? "" : " (switched off)"}, which sends "${addition.prompt}" by itself`;
      default:
        return `${addition.name} at ${addition.address}`;
    }
  });
  return (
    `This backup adds what can act or send data: ${named.join("; ")}. Nothing was imported; import it again ` +
    "accepting them to apply it."
  );
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
  const servers = result.mcp_servers_added;
  if (servers.length > 0) {
    sentence += ` ${plural(servers.length, "MCP server")} added, switched off: ${servers.join(", ")}.`;
  }
  return sentence;
}
