// Whole-store reads and writes held in memory: the backup's export, import and "delete all data" (BackupStorage), and a
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
import type { MemoryTables, MemoryTransaction } from "./memory-tables.ts";

/** Deletes the records a crashed earlier attempt may have left under the id, in every store but `threads`. */
function clearThread(tx: MemoryTransaction, threadId: string): void {
  for (const name of THREAD_STORES) if (name !== "threads") tx.deleteWhere(name, [threadId]);
}

export class MemoryBackupStorage implements BackupStorage {
  constructor(private readonly tables: MemoryTables) {}

  async threadIds(): Promise<string[]> {
    return this.tables
      .read((tx) => tx.all("threads"))
      .sort((a, b) => a.updated_at - b.updated_at || (a.thread_id < b.thread_id ? -1 : 1))
      .map((thread) => thread.thread_id);
  }

  async fileSizes(): Promise<{ thread_id: string; path: string; size: number }[]> {
    return this.tables
      .read((tx) => tx.all("thread_file_meta"))
      .map(({ thread_id, path, size }) => ({ thread_id, path, size }));
  }

  async readThread(threadId: string): Promise<{ records: ThreadBackup; files: ThreadFileRecord[] } | undefined> {
    return this.tables.read((tx) => {
      const thread = tx.get("threads", threadId);
      if (!thread) return undefined;
      const prefix = [threadId];
      return {
        records: {
          thread,
          entries: tx.all("entries", prefix),
          runs: tx.all("runs", prefix),
          checkpoints: tx.all("checkpoints", prefix),
          checkpoint_blobs: tx.all("checkpoint_blobs", prefix),
          checkpoint_writes: tx.all("checkpoint_writes", prefix),
          checkpoint_messages: tx.all("checkpoint_messages", prefix),
          files: tx.all("thread_file_meta", prefix),
        },
        files: tx.all("thread_files", prefix),
      };
    });
  }

  async readGlobals(): Promise<GlobalBackup> {
    return this.tables.read((tx) => ({
      settings: tx.all("settings"),
      store_items: tx.all("store_items"),
      skills: tx.all("skills"),
      mcp_servers: tx.all("mcp_servers"),
    }));
  }

  async write(plan: BackupWrite): Promise<BackupWriteResult> {
    return this.tables.write((tx) => {
      const threadTaken = plan.threads.map(({ records }) => tx.has("threads", records.thread.thread_id));
      const skillTaken = plan.skills.map((skill) => tx.has("skills", skill.name));
      const settingTaken = plan.settings.map((setting) => tx.has("settings", setting.key));
      const itemTaken = plan.store_items.map((item) => tx.has("store_items", [item.namespace_path, item.key]));
      const mcpTaken = plan.mcp_servers.map((server) => tx.has("mcp_servers", server.name));
      const storedMemory = plan.mergeMemory ? tx.get("settings", MEMORY_DOCUMENT_KEY) : undefined;
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
      plan.threads.forEach(({ records, files }, index) => {
        const threadId = records.thread.thread_id;
        if (threadTaken[index]) return void result.threadsSkipped.push(threadId);
        result.threadsImported.push(threadId);
        clearThread(tx, threadId);
        for (const record of records.entries) tx.put("entries", record);
        for (const record of records.runs) tx.put("runs", record);
        for (const record of records.checkpoints) tx.put("checkpoints", record);
        for (const record of records.checkpoint_blobs) tx.put("checkpoint_blobs", record);
        for (const record of records.checkpoint_writes) tx.put("checkpoint_writes", record);
        for (const record of records.checkpoint_messages) tx.put("checkpoint_messages", record);
        for (const record of records.files) tx.put("thread_file_meta", record);
        for (const record of files) tx.put("thread_files", record);
        tx.put("threads", records.thread);
      });
      plan.skills.forEach((skill, index) => {
        if (skillTaken[index]) return void result.skillsSkipped.push(skill.name);
        result.skillsImported.push(skill.name);
        tx.put("skills", skill);
      });
      plan.settings.forEach((setting, index) => {
        if (settingTaken[index] || setting.key === MEMORY_DOCUMENT_KEY) return;
        result.settingsRestored += 1;
        tx.put("settings", setting);
      });
      plan.store_items.forEach((item, index) => {
        if (!itemTaken[index]) tx.put("store_items", item);
      });
      plan.mcp_servers.forEach((server, index) => {
        if (mcpTaken[index]) return;
        result.mcpServersAdded.push(server.name);
        tx.put("mcp_servers", server);
      });
      const merged = plan.mergeMemory?.(storedMemory?.value);
      if (merged) {
        result.memoryFactsAdded = merged.added;
        tx.put("settings", { key: MEMORY_DOCUMENT_KEY, value: merged.value });
      }
      return result;
    });
  }

  async deleteAll(): Promise<string[]> {
    return this.tables.write((tx) => {
      const threadIds = tx.keys("threads") as string[];
      for (const name of ALL_STORES) tx.clear(name);
      return threadIds;
    });
  }
}

export class MemoryThreadImportStorage implements ThreadImportStorage {
  /** `saver` is the checkpointer the Gateway reads threads with: its serializer and versions are used. */
  constructor(
    private readonly tables: MemoryTables,
    private readonly saver: BaseCheckpointSaver,
  ) {}

  async write(imported: ThreadImport): Promise<string> {
    const threadId = imported.thread.thread_id;
    for (const file of imported.files) assertThreadFilePath(file.path);
    const [records, files] = await Promise.all([
      importedCheckpoint(this.saver, threadId, imported.values),
      fileRecords(threadId, imported.files),
    ]);
    this.tables.write((tx) => {
      if (tx.has("threads", threadId)) throw new ThreadIdTakenError(threadId);
      clearThread(tx, threadId);
      for (const record of records.messages) tx.put("checkpoint_messages", record);
      for (const record of records.blobs) tx.put("checkpoint_blobs", record);
      tx.put("checkpoints", records.checkpoint);
      for (const [file, meta] of files) {
        tx.put("thread_files", file);
        tx.put("thread_file_meta", meta);
      }
      if (imported.searchText !== undefined) tx.put("thread_search", searchRecord(threadId, imported.searchText));
      tx.add("threads", imported.thread);
    });
    return records.checkpoint.checkpoint_id;
  }
}
