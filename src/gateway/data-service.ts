// Settings → Data as a service: "Export all data" into one backup archive (never an API key), "Import data" from
// one (checked whole, written in one transaction, nothing already here overwritten), and "Delete all data".
import { version as packageVersion } from "../../package.json";
import { parseMemoryDocument } from "../agent/index.ts";
import { parseSkillMarkdown, skillNameProblem } from "../agent/index.ts";
import { BackupArchiveWriter, checkPlannedBackup, readBackupArchive } from "../bundles/index.ts";
import { parseModelSettings } from "../models/index.ts";
import {
  backupFileName,
  BACKUP_LIMITS,
  describeAdditions,
  describeImport,
  needsConfirmation,
  emptyMemoryDocument,
  SKILL_ARCHIVE_LIMITS,
  type BackupLimits,
  type ImportAddition,
  type ChangeNotice,
  type DataImportAnswer,
  type DataExport,
  type DataImportConfirmation,
  type DataImportResult,
  type MemoryDocument,
  type DataApi,
} from "../protocol/index.ts";
import type { BackupAdditions, BackupWrite } from "../storage/index.ts";
import type { BackupStorage, SecretStorage } from "../storage/index.ts";
import type { SettingRecord } from "../storage/index.ts";
import { MODEL_SETTINGS_KEY, upgradedRecords } from "../storage/index.ts";
import { secretRedactor } from "../shared/redact.ts";
import { UserError } from "../shared/user-error.ts";
import { readArchive, restorableThread } from "./archive-restore.ts";
import { withoutSecrets } from "./credential-fields.ts";
import { withErrorsRedacted } from "./error-redaction.ts";
import { importAdditions } from "./import-additions.ts";
import { parseMcpServers, withoutMcpSecrets } from "./mcp-config.ts";
import { mergeMemoryDocuments } from "./memory-merge.ts";
import { SERVERS_SETTINGS_KEY } from "./servers-service.ts";
import { anyThreadRunning } from "./thread-locks.ts";
import { writing } from "./writes.ts";
import { MEMORY_DOCUMENT_KEY } from "../storage/index.ts";

/** Thrown inside the import's transaction to stop it before anything is written: the additions wait for the user. */
class AdditionsPending extends Error {
  override name = "AdditionsPending";

  constructor(readonly additions: ImportAddition[]) {
    super("The backup adds what can act or send data, and the user has not accepted it.");
  }
}

export interface DataServiceOptions {
  /** The Fawn version written into a backup's manifest. */
  appVersion?: string;
  now?: () => Date;
  /** Limits an imported archive is checked against (tests lower them). */
  limits?: BackupLimits;
  /** Tells every tab what an import or a deletion changed. */
  notify?: (notice: ChangeNotice) => void;
  /** Closes the open sandboxes not running (they mount the skills and follow the settings as they were). */
  closeIdleSandboxes?: () => Promise<void>;
  /** Closes every open sandbox. */
  closeSandboxes?: () => Promise<void>;
  /** Forgets what server workspaces kept for offline reads (their servers went with the settings). */
  forgetServers?: () => Promise<void>;
  /** Whether this worker is running a reply. */
  running?: () => boolean;
  /** Drops memory updates not yet applied, which would write facts back after a deletion. */
  dropMemoryUpdates?: () => void;
}

/** What an import did, with the ids the caller tells the UI about. */
export interface DataImportDone {
  result: DataImportResult;
  threadIds: string[];
  memoryChanged: boolean;
  settingsChanged: boolean;
  skillsChanged: boolean;
}

/** What an import did, or what it waits for the user to accept (then nothing was written). */
export type DataImportOutcome = DataImportDone | DataImportConfirmation;

/** Why all data cannot be deleted while another tab runs a thread. */
export const DATA_IN_USE_ELSEWHERE = "A thread is running in another tab; stop it there before deleting all data.";

export class DataService implements DataApi {
  private readonly store: BackupStorage;
  /** Read only for the stored keys, to redact them from error text a thread stored before it was redacted. */
  private readonly settings: SecretStorage;
  private readonly appVersion: string;
  private readonly now: () => Date;
  private readonly limits: BackupLimits;

  constructor(
    storage: { backup: BackupStorage; settings: SecretStorage },
    private readonly options: DataServiceOptions = {},
  ) {
    this.store = storage.backup;
    this.settings = storage.settings;
    this.appVersion = options.appVersion ?? packageVersion;
    this.now = options.now ?? (() => new Date());
    this.limits = options.limits ?? BACKUP_LIMITS;
  }

  /**
   * Writes every thread (records, checkpoints, files), the memory, installed skills and settings into one zip. Threads
   * are read one at a time and their bytes handed to the zip stream, so at most one thread's files are in memory
   * beside the archive. API keys are never read; credential fields of settings are dropped. Export holds the data
   * to what import accepts (the same limits and names): more than a backup can hold is refused with the reason, as
   * soon as it is known, and nothing is handed out.
   */
  async export(): Promise<DataExport> {
    return await this.writeExport();
  }

  private async writeExport(): Promise<DataExport> {
    const [threadIds, fileSizes, globals] = await Promise.all([
      this.store.threadIds(),
      this.store.fileSizes(),
      this.store.readGlobals(),
    ]);
    // Judged from the stored sizes before a file is read: over the limits is refused with the reason and the size.
    checkPlannedBackup(
      {
        files: [
          ...fileSizes.map((file) => ({ name: file.path, size: file.size })),
          ...globals.skills.flatMap((skill) =>
            Object.entries(skill.files).map(([path, bytes]) => ({ name: path, size: bytes.byteLength })),
          ),
        ],
        records: threadIds.length + globals.skills.length + 3,
      },
      this.limits,
    );
    const writer = new BackupArchiveWriter(this.limits);
    const redact = secretRedactor(await this.settings.secretValues());
    for (const threadId of threadIds) {
      const thread = await this.store.readThread(threadId);
      // A thread deleted meanwhile is simply not in the backup.
      if (thread) writer.addThread(await withErrorsRedacted(thread.records, redact), thread.files);
    }
    const memory = globals.settings.find((record) => record.key === MEMORY_DOCUMENT_KEY)?.value;
    // This browser's servers stay out, as their tokens do: a connection is made again where the backup goes.
    const settings: SettingRecord[] = globals.settings
      .filter((record) => record.key !== MEMORY_DOCUMENT_KEY && record.key !== SERVERS_SETTINGS_KEY)
      .map((record) => ({ key: record.key, value: withoutSecrets(record.value) }));
    writer.addSettings(
      settings,
      globals.mcp_servers.map((server) => withoutSecrets(server) as typeof server),
    );
    writer.addMemory(memory ?? null, globals.store_items);
    for (const skill of globals.skills) writer.addSkill(skill);
    const parsedMemory = memory === undefined ? undefined : parseMemoryDocument(memory);
    const createdAt = this.now();
    const { blob, manifest } = writer.finish({
      app_version: this.appVersion,
      created_at: createdAt,
      memory_facts: parsedMemory?.ok ? parsedMemory.value.facts.length : 0,
    });
    return { file_name: backupFileName(createdAt), blob, manifest };
  }

  /**
   * Imports a backup. The archive is read and checked whole first (see readBackupArchive), then the memory document,
   * skills, settings and MCP servers are checked for their meaning; any problem rejects with a UserError and nothing
   * is written. Then everything is written in one transaction: threads and skills already here are kept (the
   * backup's are skipped), memory facts are merged without duplicates, settings are restored only where none is
   * stored, MCP servers are added switched off. An import that would add what can act or send data (see
   * importAdditions) writes only with `acceptAdditions`; without it, it writes nothing and answers with the list
   * (decided inside the transaction, on what is stored then).
   */
  async importArchive(
    archive: Blob | Uint8Array,
    options: { acceptAdditions?: boolean } = {},
  ): Promise<DataImportOutcome> {
    const contents = await readArchive(archive, this.limits, {
      choose: "Choose a backup file (.zip) to import.",
      noun: "backup",
      read: (bytes) => readBackupArchive(bytes, this.limits),
    });

    let importedMemory: MemoryDocument | undefined;
    if (contents.memory_document !== null && contents.memory_document !== undefined) {
      const parsed = parseMemoryDocument(contents.memory_document);
      if (!parsed.ok) throw new UserError(`The backup's memory is not valid: ${parsed.message}.`);
      importedMemory = parsed.value;
    }
    // The model endpoints as Settings → Models would save them (their keys were never in the backup).
    // A backup from an earlier version holds its settings as that version stored them.
    const settings = upgradedRecords(
      contents.settings
        .filter((record) => record.key !== MEMORY_DOCUMENT_KEY && record.key !== SERVERS_SETTINGS_KEY)
        .map((record) => ({ key: record.key, value: withoutSecrets(record.value) })),
    );
    const models = settings.find((record) => record.key === MODEL_SETTINGS_KEY)?.value;
    if (models !== undefined) {
      const value = (typeof models === "object" && models !== null ? models : {}) as { endpoints?: unknown };
      const endpoints = Array.isArray(value.endpoints)
        ? value.endpoints.map((endpoint: unknown) => ({ ...(endpoint as object), apiKey: "" }))
        : value.endpoints;
      const parsed = parseModelSettings({ ...value, endpoints });
      if (!parsed.ok) {
        throw new UserError(`The backup's model settings are not valid: ${parsed.message.replace(/(?<!\.)$/, ".")}`);
      }
    }
    for (const skill of contents.skills) {
      const nameProblem = skillNameProblem(skill.name);
      if (nameProblem) throw new UserError(`The backup's skill cannot be installed: ${nameProblem}`);
      const skillFile = skill.files["SKILL.md"] as Uint8Array;
      const parsed = parseSkillMarkdown(new TextDecoder().decode(skillFile));
      if (!parsed.ok) throw new UserError(`The backup's skill '${skill.name}' is not valid: ${parsed.message}`);
      if (parsed.metadata.name !== skill.name) {
        throw new UserError(`The backup's skill '${skill.name}' names itself '${parsed.metadata.name}'.`);
      }
      const sizes = Object.values(skill.files).map((file) => file.byteLength);
      if (
        sizes.some((size) => size > SKILL_ARCHIVE_LIMITS.maxFileBytes) ||
        sizes.reduce((sum, size) => sum + size, 0) > SKILL_ARCHIVE_LIMITS.maxTotalBytes
      ) {
        throw new UserError(`The backup's skill '${skill.name}' is larger than an installed skill may be.`);
      }
    }

    // MCP servers are held to Settings → Tools' rules; a secret a backup should not hold is not restored. Each arrives
    // switched off, whatever the backup says: its tools reach out only once the user turns it on.
    const mcpServers = parseMcpServers(
      contents.mcp_servers.map(({ transport: _transport, ...server }) => ({ ...server, enabled: false })),
    );
    if (!mcpServers.ok) throw new UserError(`The backup's MCP servers are not valid: ${mcpServers.message}`);

    // Hashed before the transaction opens (it would commit while we awaited crypto.subtle).
    const threads = await Promise.all(contents.threads.map((thread) => restorableThread(thread, "backup")));
    const now = this.now();
    const plan: BackupWrite = {
      threads,
      skills: contents.skills,
      settings,
      store_items: contents.store_items,
      mcp_servers: mcpServers.value.map(withoutMcpSecrets),
      ...(importedMemory && {
        mergeMemory: (stored: unknown) => {
          const current = stored === undefined ? undefined : parseMemoryDocument(stored);
          return mergeMemoryDocuments(current?.ok ? current.value : emptyMemoryDocument(), importedMemory, now);
        },
      }),
      ...(options.acceptAdditions !== true && {
        checkAdditions: (adding: BackupAdditions) => {
          const additions = importAdditions(adding);
          if (additions.length > 0) throw new AdditionsPending(additions);
        },
      }),
    };
    let written;
    try {
      written = await this.store.write(plan);
    } catch (error) {
      if (!(error instanceof AdditionsPending)) throw error;
      return { confirm: "additions", additions: error.additions, message: describeAdditions(error.additions) };
    }
    const counts = {
      threads_imported: written.threadsImported.length,
      threads_skipped: written.threadsSkipped.length,
      skills_imported: written.skillsImported.length,
      skills_skipped: written.skillsSkipped.length,
      memory_facts_added: written.memoryFactsAdded,
      settings_restored: written.settingsRestored,
      mcp_servers_added: written.mcpServersAdded,
    };
    return {
      result: { ...counts, message: describeImport(counts) },
      threadIds: written.threadsImported,
      memoryChanged: written.memoryFactsAdded > 0 || importedMemory !== undefined,
      settingsChanged: written.settingsRestored > 0 || written.mcpServersAdded.length > 0,
      skillsChanged: written.skillsImported.length > 0,
    };
  }

  /**
   * Imports a backup (see `importArchive`), then tells every tab what changed: one notice for all threads, since each makes
   * every tab read the whole list again.
   */
  async import(archive: Blob | Uint8Array, options: { acceptAdditions?: boolean } = {}): Promise<DataImportAnswer> {
    const accept = options?.acceptAdditions === true;
    const outcome = await writing(() => this.importArchive(archive, { acceptAdditions: accept }));
    // Nothing was written: the UI asks the user about the additions, then imports again.
    if (needsConfirmation(outcome)) return outcome;
    const notify = this.options.notify ?? (() => undefined);
    if (outcome.threadIds.length > 0) notify({ type: "threads-replaced" });
    if (outcome.memoryChanged) notify({ type: "memory-changed" });
    if (outcome.settingsChanged || outcome.skillsChanged) {
      await this.options.closeIdleSandboxes?.();
      notify({ type: "settings-changed" });
    }
    return outcome.result;
  }

  /** Deletes everything in one transaction and tells every tab; refused while any tab runs a reply. */
  async deleteAll(): Promise<void> {
    if (this.options.running?.()) {
      throw new UserError("Stop the running reply before deleting all data.", "conflict");
    }
    if (await anyThreadRunning()) throw new UserError(DATA_IN_USE_ELSEWHERE, "conflict");
    this.options.dropMemoryUpdates?.();
    const threadIds = await writing(() => this.store.deleteAll());
    await this.options.closeSandboxes?.();
    await this.options.forgetServers?.().catch(() => undefined);
    const notify = this.options.notify ?? (() => undefined);
    if (threadIds.length > 0) notify({ type: "threads-replaced" });
    notify({ type: "memory-changed" });
    notify({ type: "settings-changed" });
  }
}
