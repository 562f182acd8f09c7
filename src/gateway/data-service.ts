// Settings → Data as a service: "Export all data" into one backup archive (never an API key), "Import data" from
// one (checked whole, written in one transaction, nothing already here overwritten), and "Delete all data".
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { version as packageVersion } from "../../package.json";
import { parseMemoryDocument } from "../agent/index.ts";
import { capFacts, factContentKey, MAX_DOCUMENT_FACTS, newFactId } from "../agent/memory/memory-document.ts";
import { parseSkillMarkdown, skillNameProblem } from "../agent/skills/skill-frontmatter.ts";
import {
  BackupArchiveError,
  BackupArchiveWriter,
  checkPlannedBackup,
  readBackupArchive,
  type BundledThread,
} from "../bundles/index.ts";
import { parseModelSettings } from "../models/index.ts";
import {
  backupFileName,
  BACKUP_LIMITS,
  DEFAULT_PROXY_URL,
  describeAdditions,
  describeImport,
  needsConfirmation,
  emptyMemoryDocument,
  SKILL_ARCHIVE_LIMITS,
  WEB_FETCH_PROVIDERS,
  WEB_SEARCH_PROVIDERS,
  type AddressChange,
  type BackupLimits,
  type ImportAddition,
  type ChangeNotice,
  type DataImportAnswer,
  type DataExport,
  type DataImportConfirmation,
  type DataImportResult,
  type MemoryDocument,
  type MemorySection,
} from "../protocol/index.ts";
import { formatBytes } from "../shared/text.ts";
import { BackupStore, type BackupAdditions, type BackupWrite } from "../storage/backup-store.ts";
import { closeImportedThread } from "../storage/imported-thread.ts";
import type { FawnDb, SettingRecord, ThreadFileMetaRecord } from "../storage/fawn-db.ts";
import {
  MODEL_SETTINGS_KEY,
  PROXY_SETTINGS_KEY,
  upgradedRecords,
  WEB_FETCH_KEY,
  WEB_SEARCH_KEY,
} from "../storage/settings-upgrade.ts";
import { secretRedactor } from "../shared/redact.ts";
import { UserError } from "../shared/user-error.ts";
import { SettingsRepository } from "../storage/settings-repository.ts";
import { withErrorsRedacted } from "./error-redaction.ts";
import { parseMcpServers, withoutMcpSecrets } from "./mcp-config.ts";
import { anyThreadRunning } from "./thread-locks.ts";
import { writing } from "./writes.ts";
import { MEMORY_DOCUMENT_KEY } from "../storage/memory-repository.ts";
import { sha256Hex } from "../storage/thread-files.ts";

/** The last word of a credential field's name: `apiKey`, `X-API-Key`, `client_secret`, `accessToken`, `Authorization`. */
const SECRET_WORDS = new Set([
  "apikey",
  "secret",
  "password",
  "passwd",
  "token",
  "bearer",
  "authorization",
  "auth",
  "credential",
  "credentials",
  "cookie",
]);

/**
 * True when a field holds a credential, judged by its name's words. Keys live in the `secrets` store, which a backup
 * never reads; a settings value that still carries one (an older record, a future setting such as an MCP server's
 * headers) loses it here too. `key` alone names a record, not a credential; `maxTokens` counts tokens.
 */
export function isSecretField(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
  const last = words.at(-1);
  if (last === "key") return words.length > 1;
  return last !== undefined && SECRET_WORDS.has(last);
}

/** A JSON-like value with every credential field removed, at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (typeof value !== "object" || value === null || value instanceof Uint8Array) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([key]) => !isSecretField(key))
      .map(([key, item]) => [key, withoutSecrets(item)]),
  );
}

/** Thrown inside the import's transaction to stop it before anything is written: the additions wait for the user. */
class AdditionsPending extends Error {
  override name = "AdditionsPending";

  constructor(readonly additions: ImportAddition[]) {
    super("The backup adds what can act or send data, and the user has not accepted it.");
  }
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function textField(value: unknown, key: string): string {
  const found = field(value, key);
  return typeof found === "string" ? found.trim() : "";
}

/** A web service's label for a stored provider name (the name itself when it is unknown). */
function providerLabel(providers: Readonly<Record<string, { label: string }>>, name: unknown): string {
  const key = typeof name === "string" ? name : "";
  return Object.hasOwn(providers, key) ? providers[key]!.label : key;
}

const withoutTrailingSlashes = (url: string) => url.replace(/\/+$/, "");

/**
 * The addresses restoring these settings records would set, in the order Settings shows them: each model endpoint's
 * Base URL, the web services' own addresses, and the proxy URL (unless it is the default relay's). Requests go there,
 * and so do the keys the user enters next to them.
 */
export function addressChanges(records: readonly SettingRecord[]): AddressChange[] {
  const endpoints: AddressChange[] = [];
  const web: AddressChange[] = [];
  const proxy: AddressChange[] = [];
  for (const { key, value } of upgradedRecords(records)) {
    if (key === MODEL_SETTINGS_KEY) {
      const others = field(value, "endpoints");
      for (const endpoint of Array.isArray(others) ? others : []) {
        const address = textField(endpoint, "baseUrl");
        const name = textField(endpoint, "name") || textField(endpoint, "id");
        if (address) endpoints.push({ kind: "endpoint", name, address });
      }
    } else if (key === WEB_SEARCH_KEY) {
      const address = textField(value, "baseUrl");
      const name = providerLabel(WEB_SEARCH_PROVIDERS, field(value, "provider"));
      if (address) web.push({ kind: "web-search", name, address });
    } else if (key === PROXY_SETTINGS_KEY) {
      const proxyUrl = textField(value, "url");
      if (proxyUrl && withoutTrailingSlashes(proxyUrl) !== withoutTrailingSlashes(DEFAULT_PROXY_URL)) {
        proxy.push({ kind: "proxy", name: "", address: proxyUrl });
      }
    } else if (key === WEB_FETCH_KEY) {
      const address = textField(value, "baseUrl");
      const name = providerLabel(WEB_FETCH_PROVIDERS, field(value, "provider"));
      if (address) web.push({ kind: "web-fetch", name, address });
    }
  }
  return [...endpoints, ...web, ...proxy];
}

/** A skill file the agent can only read: Markdown (SKILL.md and its references). Any other file may be run. */
const READ_ONLY_SKILL_FILE = /\.(md|markdown)$/i;

/**
 * Everything an import would add that can act or send data, in the order the confirmation lists it: the addresses
 * restored settings would set (addressChanges: each model endpoint, the web services, the proxy), the MCP servers
 * (switched off, but one switch from calling out) and the skills that carry scripts.
 */
export function importAdditions(adding: BackupAdditions): ImportAddition[] {
  const servers = adding.mcp_servers.map((server): ImportAddition => ({
    kind: "mcp-server",
    name: server.name,
    address: server.url,
    ...(server.useProxy && { via_proxy: true }),
  }));
  const skills = adding.skills.flatMap((skill): ImportAddition[] => {
    const scripts = Object.keys(skill.files)
      .filter((path) => !READ_ONLY_SKILL_FILE.test(path))
      .sort();
    return scripts.length > 0 ? [{ kind: "skill-scripts", name: skill.name, scripts }] : [];
  });
  return [...addressChanges(adding.settings), ...servers, ...skills];
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

const SECTIONS = {
  user: ["workContext", "personalContext", "topOfMind"],
  history: ["recentMonths", "earlierContext", "longTermBackground"],
} as const;

/**
 * `imported` merged into `stored`: facts whose content the memory already holds (case and spacing aside) are not
 * added again, an id already taken gets a new one; an empty summary takes the imported one, a written one stays.
 * Undefined when nothing would change.
 */
export function mergeMemoryDocuments(
  stored: MemoryDocument,
  imported: MemoryDocument,
  now: Date,
): { value: MemoryDocument; added: number } | undefined {
  const contents = new Set(stored.facts.map((fact) => factContentKey(fact.content)));
  const ids = new Set(stored.facts.map((fact) => fact.id));
  const added = [];
  for (const fact of imported.facts) {
    const key = factContentKey(fact.content);
    if (contents.has(key)) continue;
    contents.add(key);
    let id = fact.id;
    while (ids.has(id)) id = newFactId();
    ids.add(id);
    added.push({ ...fact, id });
  }
  let sectionsChanged = false;
  const section = (mine: MemorySection, theirs: MemorySection): MemorySection => {
    if (mine.summary.trim() !== "" || theirs.summary.trim() === "") return mine;
    sectionsChanged = true;
    return theirs;
  };
  const user = { ...stored.user };
  for (const name of SECTIONS.user) user[name] = section(stored.user[name], imported.user[name]);
  const history = { ...stored.history };
  for (const name of SECTIONS.history) history[name] = section(stored.history[name], imported.history[name]);
  if (added.length === 0 && !sectionsChanged) return undefined;
  const facts = capFacts([...stored.facts, ...added], MAX_DOCUMENT_FACTS);
  const kept = facts.length - stored.facts.filter((fact) => facts.includes(fact)).length;
  return {
    value: { version: "1.0", lastUpdated: now.toISOString(), user, history, facts },
    added: kept,
  };
}

const serde = new JsonPlusSerializer();

/** True when every serialized value of the thread's history loads, as opening the thread will load it. */
async function historyLoads(records: BundledThread["records"]): Promise<boolean> {
  const values: [type: string, bytes: Uint8Array][] = [
    ...records.checkpoints.flatMap((record): [string, Uint8Array][] => [
      [record.type, record.checkpoint],
      [record.metadata_type, record.metadata],
    ]),
    ...records.checkpoint_blobs.flatMap((blob): [string, Uint8Array][] =>
      blob.kind === "value" ? [[blob.type, blob.bytes]] : [],
    ),
    ...records.checkpoint_writes.map((write): [string, Uint8Array] => [write.type, write.bytes]),
    ...records.checkpoint_messages.map((message): [string, Uint8Array] => [message.type, message.bytes]),
  ];
  try {
    for (const [type, bytes] of values) await serde.loadsTyped(type, bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * A thread read from an archive (a `noun`), ready to write: its history checked to load, its files' meta recomputed
 * from their bytes rather than trusted, a thread exported mid-run at rest, and its history marked as written
 * elsewhere, with the tool calls its last steps left open closed as cancelled (closeImportedThread): nothing another
 * browser's model asked for runs here.
 */
export async function restorableThread(bundled: BundledThread, noun: string): Promise<BundledThread> {
  const { files } = bundled;
  if (!(await historyLoads(bundled.records))) {
    const title = JSON.stringify(bundled.records.thread.title);
    throw new UserError(
      `The ${noun}'s thread ${title} has a history that cannot be read: the file was ` + "changed or is damaged.",
    );
  }
  const records = await closeImportedThread(bundled.records, serde);
  const metas = new Map(records.files.map((meta) => [meta.path, meta]));
  const fileMetas: ThreadFileMetaRecord[] = await Promise.all(
    files.map(async (file) => {
      const meta = metas.get(file.path) as ThreadFileMetaRecord;
      return { ...meta, size: file.bytes.byteLength, sha256: await sha256Hex(file.bytes) };
    }),
  );
  const status = records.thread.status === "busy" ? "idle" : records.thread.status;
  return { records: { ...records, thread: { ...records.thread, status }, files: fileMetas }, files };
}

/**
 * An archive the user picked, read whole by `read` after the checks every archive import makes: that it is a file and
 * not over the size limit (before its bytes are read); a reader's refusal becomes the one sentence the user sees.
 */
export async function readArchive<T>(
  archive: Blob | Uint8Array,
  limits: BackupLimits,
  how: { choose: string; noun: string; read: (bytes: Uint8Array) => T },
): Promise<T> {
  if (!(archive instanceof Uint8Array) && !(archive instanceof Blob)) throw new UserError(how.choose);
  if (archive instanceof Blob && archive.size > limits.maxArchiveBytes) {
    throw new UserError(
      `The ${how.noun} is too large (${formatBytes(archive.size)}; at most ${formatBytes(limits.maxArchiveBytes)}).`,
    );
  }
  const bytes = archive instanceof Uint8Array ? archive : new Uint8Array(await archive.arrayBuffer());
  try {
    return how.read(bytes);
  } catch (error) {
    if (error instanceof BackupArchiveError) throw new UserError(error.message);
    throw error;
  }
}

/** Why all data cannot be deleted while another tab runs a thread. */
export const DATA_IN_USE_ELSEWHERE = "A thread is running in another tab; stop it there before deleting all data.";

export class DataService {
  private readonly store: BackupStore;
  /** Read only for the stored keys, to redact them from error text a thread stored before it was redacted. */
  private readonly settings: SettingsRepository;
  private readonly appVersion: string;
  private readonly now: () => Date;
  private readonly limits: BackupLimits;

  constructor(
    db: FawnDb,
    private readonly options: DataServiceOptions = {},
  ) {
    this.store = new BackupStore(db);
    this.settings = new SettingsRepository(db);
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
    try {
      return await this.writeExport();
    } catch (error) {
      if (error instanceof BackupArchiveError) throw new UserError(error.message);
      throw error;
    }
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
    const settings: SettingRecord[] = globals.settings
      .filter((record) => record.key !== MEMORY_DOCUMENT_KEY)
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
  async import(archive: Blob | Uint8Array, options: { acceptAdditions?: boolean } = {}): Promise<DataImportOutcome> {
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
        .filter((record) => record.key !== MEMORY_DOCUMENT_KEY)
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
   * Imports a backup (see `import`), then tells every tab what changed: one notice for all threads, since each makes
   * every tab read the whole list again.
   */
  async importAndAnnounce(
    archive: Blob | Uint8Array,
    options: { acceptAdditions?: boolean } = {},
  ): Promise<DataImportAnswer> {
    const accept = options?.acceptAdditions === true;
    const outcome = await writing(() => this.import(archive, { acceptAdditions: accept }));
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
    const notify = this.options.notify ?? (() => undefined);
    if (threadIds.length > 0) notify({ type: "threads-replaced" });
    notify({ type: "memory-changed" });
    notify({ type: "settings-changed" });
  }
}
