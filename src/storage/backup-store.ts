// Everything Fawn keeps, read for a backup and written back from one: a thread's records in one read, an import in one
// transaction (all of it or none, docs/architecture.md#d2-storage), and "delete all data" in one transaction. API keys
// (`secrets`) are never read here: a backup cannot carry what it never sees.
import type { StoreNames } from "idb";
import type { ThreadSummary } from "../protocol/index.ts";
import {
  keyPrefixRange,
  THREAD_STORES,
  type ChannelBlobRecord,
  type CheckpointMessageRecord,
  type CheckpointRecord,
  type CheckpointWriteRecord,
  type EntryRecord,
  type FawnDb,
  type FawnDbSchema,
  type McpServerRecord,
  type RunRecord,
  type SettingRecord,
  type SkillRecord,
  type StoreItemRecord,
  type ThreadFileMetaRecord,
  type ThreadFileRecord,
} from "./fawn-db.ts";
import { MEMORY_DOCUMENT_KEY } from "./memory-repository.ts";
import type { BackupStorage } from "./contracts.ts";

/**
 * How a backup treats each store. Typed over every store of the schema, so a new store does not compile until it
 * is given a place here: `thread` (exported with its thread), `global`, `derived` (rebuilt after an import, not
 * exported), `device` (kept on this device only: the files of branches not shown; a restored thread has the files of
 * the branch it shows) or `never` (API keys).
 */
export const BACKUP_COVERAGE = {
  threads: "thread",
  entries: "thread",
  checkpoints: "thread",
  checkpoint_blobs: "thread",
  checkpoint_writes: "thread",
  checkpoint_messages: "thread",
  thread_files: "thread",
  thread_file_meta: "thread",
  runs: "thread",
  thread_search: "derived",
  thread_file_versions: "device",
  thread_file_blobs: "device",
  settings: "global",
  store_items: "global",
  skills: "global",
  mcp_servers: "global",
  secrets: "never",
} as const satisfies Record<StoreNames<FawnDbSchema>, "thread" | "global" | "derived" | "device" | "never">;

type StoreName = StoreNames<FawnDbSchema>;
export const ALL_STORES = Object.keys(BACKUP_COVERAGE) as StoreName[];

/** A thread's records, as its stores hold them (file bytes apart, in `ThreadBackupFiles`). */
export interface ThreadBackup {
  thread: ThreadSummary;
  entries: EntryRecord[];
  runs: RunRecord[];
  checkpoints: CheckpointRecord[];
  checkpoint_blobs: ChannelBlobRecord[];
  checkpoint_writes: CheckpointWriteRecord[];
  checkpoint_messages: CheckpointMessageRecord[];
  /** The meta of its files (path, size, sha256, MIME type, mtime). */
  files: ThreadFileMetaRecord[];
}

/** What a backup holds besides threads. The memory document is the settings record `memory.document`. */
export interface GlobalBackup {
  settings: SettingRecord[];
  store_items: StoreItemRecord[];
  skills: SkillRecord[];
  mcp_servers: McpServerRecord[];
}

/** What to write for an import, checked whole beforehand. Nothing already stored is overwritten. */
export interface BackupWrite {
  threads: { records: ThreadBackup; files: ThreadFileRecord[] }[];
  skills: SkillRecord[];
  /** Restored only for keys this browser has no record of (the memory document is merged instead). */
  settings: SettingRecord[];
  store_items: StoreItemRecord[];
  mcp_servers: McpServerRecord[];
  /**
   * Merges the imported memory into the stored one (undefined when none is stored). Synchronous: it runs inside the
   * transaction. Returns the document to store and how many facts it added, or undefined to leave memory as it is.
   */
  mergeMemory?: (stored: unknown) => { value: unknown; added: number } | undefined;
  /**
   * Told, inside the transaction and before anything is written, what will be added: the settings records restored
   * (those this browser has none of), the MCP servers and the skills whose names are free. A throw aborts the import
   * with nothing written and is rethrown: an import that would add what the user has not accepted stops here, judged
   * on what is stored at that moment.
   */
  checkAdditions?: (adding: BackupAdditions) => void;
}

/** What an import will add, known inside its transaction (BackupWrite.checkAdditions). */
export interface BackupAdditions {
  settings: readonly SettingRecord[];
  mcp_servers: readonly McpServerRecord[];
  skills: readonly SkillRecord[];
}

export interface BackupWriteResult {
  threadsImported: string[];
  threadsSkipped: string[];
  skillsImported: string[];
  skillsSkipped: string[];
  settingsRestored: number;
  memoryFactsAdded: number;
  /** The MCP servers added, by name (a name already here keeps the server here). */
  mcpServersAdded: string[];
}

/** Every key of one thread in a store whose keys start with the thread id. */
const threadRange = (threadId: string) => keyPrefixRange(threadId);

export class BackupStore implements BackupStorage {
  constructor(private readonly db: FawnDb) {}

  /** Every thread's id, oldest activity first. */
  async threadIds(): Promise<string[]> {
    return (await this.db.getAllFromIndex("threads", "by-updated")).map((thread) => thread.thread_id);
  }

  /** The path and size of every thread's files, from their meta (no file is read): what an export will write. */
  async fileSizes(): Promise<{ thread_id: string; path: string; size: number }[]> {
    return (await this.db.getAll("thread_file_meta")).map(({ thread_id, path, size }) => ({ thread_id, path, size }));
  }

  /** One thread's records and file bytes, read in one transaction; undefined when it is gone. */
  async readThread(threadId: string): Promise<{ records: ThreadBackup; files: ThreadFileRecord[] } | undefined> {
    const tx = this.db.transaction(
      [
        "threads",
        "entries",
        "runs",
        "checkpoints",
        "checkpoint_blobs",
        "checkpoint_writes",
        "checkpoint_messages",
        "thread_files",
        "thread_file_meta",
      ],
      "readonly",
    );
    const range = threadRange(threadId);
    const [thread, entries, runs, checkpoints, blobs, writes, messages, files, metas] = await Promise.all([
      tx.objectStore("threads").get(threadId),
      tx.objectStore("entries").getAll(range),
      tx.objectStore("runs").getAll(range),
      tx.objectStore("checkpoints").getAll(range),
      tx.objectStore("checkpoint_blobs").getAll(range),
      tx.objectStore("checkpoint_writes").getAll(range),
      tx.objectStore("checkpoint_messages").getAll(range),
      tx.objectStore("thread_files").getAll(range),
      tx.objectStore("thread_file_meta").getAll(range),
      tx.done,
    ]);
    if (!thread) return undefined;
    return {
      records: {
        thread,
        entries,
        runs,
        checkpoints,
        checkpoint_blobs: blobs,
        checkpoint_writes: writes,
        checkpoint_messages: messages,
        files: metas,
      },
      files,
    };
  }

  /** Settings (never a secret), memory items, installed skills and MCP servers, read in one transaction. */
  async readGlobals(): Promise<GlobalBackup> {
    const tx = this.db.transaction(["settings", "store_items", "skills", "mcp_servers"], "readonly");
    const [settings, storeItems, skills, mcpServers] = await Promise.all([
      tx.objectStore("settings").getAll(),
      tx.objectStore("store_items").getAll(),
      tx.objectStore("skills").getAll(),
      tx.objectStore("mcp_servers").getAll(),
      tx.done,
    ]);
    return { settings, store_items: storeItems, skills, mcp_servers: mcpServers };
  }

  /**
   * Writes an import in one transaction. Threads whose id is taken and skills whose name is taken are skipped (the
   * stored ones are kept); settings, memory items and MCP servers are added only where none is stored; the memory
   * document is merged. A failure (e.g. a full disk) aborts the transaction: nothing is written.
   */
  async write(plan: BackupWrite): Promise<BackupWriteResult> {
    const stores = ALL_STORES.filter((name) => BACKUP_COVERAGE[name] !== "never");
    const tx = this.db.transaction(stores, "readwrite");
    const done = tx.done;
    done.catch(() => undefined);
    const requests: Promise<unknown>[] = [];
    try {
      const [threadKeys, skillKeys, settingKeys, itemKeys, mcpKeys, storedMemory] = await Promise.all([
        Promise.all(plan.threads.map(({ records }) => tx.objectStore("threads").getKey(records.thread.thread_id))),
        Promise.all(plan.skills.map((skill) => tx.objectStore("skills").getKey(skill.name))),
        Promise.all(plan.settings.map((setting) => tx.objectStore("settings").getKey(setting.key))),
        Promise.all(
          plan.store_items.map((item) => tx.objectStore("store_items").getKey([item.namespace_path, item.key])),
        ),
        Promise.all(plan.mcp_servers.map((server) => tx.objectStore("mcp_servers").getKey(server.name))),
        plan.mergeMemory ? tx.objectStore("settings").get(MEMORY_DOCUMENT_KEY) : Promise.resolve(undefined),
      ]);
      plan.checkAdditions?.({
        settings: plan.settings.filter(
          (setting, index) => settingKeys[index] === undefined && setting.key !== MEMORY_DOCUMENT_KEY,
        ),
        mcp_servers: plan.mcp_servers.filter((_server, index) => mcpKeys[index] === undefined),
        skills: plan.skills.filter((_skill, index) => skillKeys[index] === undefined),
      });
      const result: BackupWriteResult = {
        threadsImported: [],
        threadsSkipped: [],
        skillsImported: [],
        skillsSkipped: [],
        settingsRestored: 0,
        memoryFactsAdded: 0,
        mcpServersAdded: [],
      };
      const put = <Name extends StoreName>(name: Name, value: FawnDbSchema[Name]["value"]) =>
        requests.push(tx.objectStore(name).put(value));
      plan.threads.forEach(({ records, files }, index) => {
        const threadId = records.thread.thread_id;
        if (threadKeys[index] !== undefined) {
          result.threadsSkipped.push(threadId);
          return;
        }
        result.threadsImported.push(threadId);
        // Records a crashed earlier attempt may have left under the id go first (as ThreadImporter does).
        for (const name of THREAD_STORES) {
          if (name !== "threads") requests.push(tx.objectStore(name).delete(threadRange(threadId)));
        }
        for (const record of records.entries) put("entries", record);
        for (const record of records.runs) put("runs", record);
        for (const record of records.checkpoints) put("checkpoints", record);
        for (const record of records.checkpoint_blobs) put("checkpoint_blobs", record);
        for (const record of records.checkpoint_writes) put("checkpoint_writes", record);
        for (const record of records.checkpoint_messages) put("checkpoint_messages", record);
        for (const record of records.files) put("thread_file_meta", record);
        for (const record of files) put("thread_files", record);
        put("threads", records.thread);
      });
      plan.skills.forEach((skill, index) => {
        if (skillKeys[index] !== undefined) return void result.skillsSkipped.push(skill.name);
        result.skillsImported.push(skill.name);
        put("skills", skill);
      });
      plan.settings.forEach((setting, index) => {
        if (settingKeys[index] !== undefined || setting.key === MEMORY_DOCUMENT_KEY) return;
        result.settingsRestored += 1;
        put("settings", setting);
      });
      plan.store_items.forEach((item, index) => {
        if (itemKeys[index] === undefined) put("store_items", item);
      });
      plan.mcp_servers.forEach((server, index) => {
        if (mcpKeys[index] !== undefined) return;
        result.mcpServersAdded.push(server.name);
        put("mcp_servers", server);
      });
      const merged = plan.mergeMemory?.(storedMemory?.value);
      if (merged) {
        result.memoryFactsAdded = merged.added;
        put("settings", { key: MEMORY_DOCUMENT_KEY, value: merged.value });
      }
      await Promise.all(requests);
      await done;
      return result;
    } catch (error) {
      // The requests still queued fail with the abort; their failure is this one.
      for (const request of requests) request.catch(() => undefined);
      if (!tx.error) {
        try {
          tx.abort();
        } catch {
          // already finished
        }
      }
      throw error;
    }
  }

  /**
   * Deletes everything Fawn stores — threads and their files, memory, skills, settings and API keys — in one
   * transaction, and returns the ids of the threads that were there.
   */
  async deleteAll(): Promise<string[]> {
    const tx = this.db.transaction(ALL_STORES, "readwrite");
    const threadIds = (await tx.objectStore("threads").getAllKeys()) as string[];
    await Promise.all([...ALL_STORES.map((name) => tx.objectStore(name).clear()), tx.done]);
    return threadIds;
  }
}
