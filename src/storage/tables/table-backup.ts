// Whole-store reads and writes over Fawn's tables: the backup's export, import and "delete all data" (BackupStorage), and a
// whole thread written at once (ThreadImportStorage), each one transaction, as backup-store.ts and
// thread-import-writer.ts do them in IndexedDB. A secret is never read for a backup.
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import {
  ALL_STORES,
  type BackupWrite,
  type BackupWriteResult,
  type GlobalBackup,
  type ThreadBackup,
} from "../backup-store.ts";
import type { BackupStorage, ThreadImportStorage } from "../contracts.ts";
import { THREAD_STORES, type ThreadFileRecord } from "../fawn-db.ts";
import { MEMORY_DOCUMENT_KEY } from "../memory-repository.ts";
import { importedCheckpoint, ThreadIdTakenError, type ThreadImport } from "../thread-import-writer.ts";
import { assertThreadFilePath, fileRecords } from "../thread-files.ts";
import { searchRecord } from "../thread-search-index.ts";
import type { Key, StoreName, Tables, TableTransaction } from "./tables.ts";

/** Deletes the records a crashed earlier attempt may have left under the id, in every store but `threads`. */
async function clearThread(tx: TableTransaction, threadId: string): Promise<void> {
  for (const name of THREAD_STORES) if (name !== "threads") await tx.deleteWhere(name, [threadId]);
}

/** A backup's records are read as one state, as IndexedDB's one read transaction gives them. */
const SNAPSHOT = { snapshot: true };

export class TableBackupStorage implements BackupStorage {
  constructor(private readonly tables: Tables) {}

  async threadIds(): Promise<string[]> {
    return (await this.tables.read((tx) => tx.all("threads")))
      .sort((a, b) => a.updated_at - b.updated_at || (a.thread_id < b.thread_id ? -1 : 1))
      .map((thread) => thread.thread_id);
  }

  async fileSizes(): Promise<{ thread_id: string; path: string; size: number }[]> {
    return (await this.tables.read((tx) => tx.all("thread_file_meta"))).map(({ thread_id, path, size }) => ({
      thread_id,
      path,
      size,
    }));
  }

  async readThread(threadId: string): Promise<{ records: ThreadBackup; files: ThreadFileRecord[] } | undefined> {
    return this.tables.read(async (tx) => {
      const thread = await tx.get("threads", threadId);
      if (!thread) return undefined;
      const prefix = [threadId];
      const [entries, runs, checkpoints, blobs, writes, messages, metas, files] = await Promise.all([
        tx.all("entries", prefix),
        tx.all("runs", prefix),
        tx.all("checkpoints", prefix),
        tx.all("checkpoint_blobs", prefix),
        tx.all("checkpoint_writes", prefix),
        tx.all("checkpoint_messages", prefix),
        tx.all("thread_file_meta", prefix),
        tx.all("thread_files", prefix),
      ]);
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
    }, SNAPSHOT);
  }

  async readGlobals(): Promise<GlobalBackup> {
    return this.tables.read(async (tx) => {
      const [settings, storeItems, skills, mcpServers] = await Promise.all([
        tx.all("settings"),
        tx.all("store_items"),
        tx.all("skills"),
        tx.all("mcp_servers"),
      ]);
      return { settings, store_items: storeItems, skills, mcp_servers: mcpServers };
    }, SNAPSHOT);
  }

  async write(plan: BackupWrite): Promise<BackupWriteResult> {
    return this.tables.write(async (tx) => {
      const taken = (name: StoreName, keys: Key[]) => Promise.all(keys.map((key) => tx.has(name, key)));
      const threadTaken = await taken(
        "threads",
        plan.threads.map(({ records }) => records.thread.thread_id),
      );
      const skillTaken = await taken(
        "skills",
        plan.skills.map((skill) => skill.name),
      );
      const settingTaken = await taken(
        "settings",
        plan.settings.map((setting) => setting.key),
      );
      const itemTaken = await taken(
        "store_items",
        plan.store_items.map((item) => [item.namespace_path, item.key]),
      );
      const mcpTaken = await taken(
        "mcp_servers",
        plan.mcp_servers.map((server) => server.name),
      );
      const storedMemory = plan.mergeMemory ? await tx.get("settings", MEMORY_DOCUMENT_KEY) : undefined;
      plan.checkAdditions?.({
        settings: plan.settings.filter((setting, index) => !settingTaken[index] && setting.key !== MEMORY_DOCUMENT_KEY),
        mcp_servers: plan.mcp_servers.filter((_server, index) => !mcpTaken[index]),
        skills: plan.skills.filter((_skill, index) => !skillTaken[index]),
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
      for (const [index, { records, files }] of plan.threads.entries()) {
        const threadId = records.thread.thread_id;
        if (threadTaken[index]) {
          result.threadsSkipped.push(threadId);
          continue;
        }
        result.threadsImported.push(threadId);
        await clearThread(tx, threadId);
        for (const record of records.entries) await tx.put("entries", record);
        for (const record of records.runs) await tx.put("runs", record);
        for (const record of records.checkpoints) await tx.put("checkpoints", record);
        for (const record of records.checkpoint_blobs) await tx.put("checkpoint_blobs", record);
        for (const record of records.checkpoint_writes) await tx.put("checkpoint_writes", record);
        for (const record of records.checkpoint_messages) await tx.put("checkpoint_messages", record);
        for (const record of records.files) await tx.put("thread_file_meta", record);
        for (const record of files) await tx.put("thread_files", record);
        await tx.put("threads", records.thread);
      }
      for (const [index, skill] of plan.skills.entries()) {
        if (skillTaken[index]) {
          result.skillsSkipped.push(skill.name);
          continue;
        }
        result.skillsImported.push(skill.name);
        await tx.put("skills", skill);
      }
      for (const [index, setting] of plan.settings.entries()) {
        if (settingTaken[index] || setting.key === MEMORY_DOCUMENT_KEY) continue;
        result.settingsRestored += 1;
        await tx.put("settings", setting);
      }
      for (const [index, item] of plan.store_items.entries()) {
        if (!itemTaken[index]) await tx.put("store_items", item);
      }
      for (const [index, server] of plan.mcp_servers.entries()) {
        if (mcpTaken[index]) continue;
        result.mcpServersAdded.push(server.name);
        await tx.put("mcp_servers", server);
      }
      const merged = plan.mergeMemory?.(storedMemory?.value);
      if (merged) {
        result.memoryFactsAdded = merged.added;
        await tx.put("settings", { key: MEMORY_DOCUMENT_KEY, value: merged.value });
      }
      return result;
    });
  }

  async deleteAll(): Promise<string[]> {
    return this.tables.write(async (tx) => {
      const threadIds = (await tx.keys("threads")) as string[];
      for (const name of ALL_STORES) await tx.clear(name);
      return threadIds;
    });
  }
}

export class TableThreadImportStorage implements ThreadImportStorage {
  /** `saver` is the checkpointer the Gateway reads threads with: its serializer and versions are used. */
  constructor(
    private readonly tables: Tables,
    private readonly saver: BaseCheckpointSaver,
  ) {}

  async write(imported: ThreadImport): Promise<string> {
    const threadId = imported.thread.thread_id;
    for (const file of imported.files) assertThreadFilePath(file.path);
    const [records, files] = await Promise.all([
      importedCheckpoint(this.saver, threadId, imported.values),
      fileRecords(threadId, imported.files),
    ]);
    await this.tables.write(async (tx) => {
      if (await tx.has("threads", threadId)) throw new ThreadIdTakenError(threadId);
      await clearThread(tx, threadId);
      for (const record of records.messages) await tx.put("checkpoint_messages", record);
      for (const record of records.blobs) await tx.put("checkpoint_blobs", record);
      await tx.put("checkpoints", records.checkpoint);
      for (const [file, meta] of files) {
        await tx.put("thread_files", file);
        await tx.put("thread_file_meta", meta);
      }
      if (imported.searchText !== undefined) {
        await tx.put("thread_search", searchRecord(threadId, imported.searchText));
      }
      await tx.add("threads", imported.thread);
    });
    return records.checkpoint.checkpoint_id;
  }
}
