import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { BACKUP_COVERAGE, BackupStore, type BackupWrite } from "./backup-store.ts";
import { openFawnDb, type FawnDb, type ThreadFileRecord } from "./fawn-db.ts";
import { SettingsRepository } from "./settings-repository.ts";
import { ThreadFiles } from "./thread-files.ts";
import { ThreadRepository } from "./thread-repository.ts";

let dbCount = 0;
const open = () => openFawnDb(`backup-store-test-${dbCount++}`);

async function threadWithFile(db: FawnDb, title: string): Promise<string> {
  const thread = await new ThreadRepository(db).create({ title });
  await new ThreadFiles(db).write(thread.thread_id, [
    { path: "/mnt/user-data/uploads/a.txt", bytes: new TextEncoder().encode(title) },
  ]);
  return thread.thread_id;
}

describe("BackupStore", () => {
  it("gives every store of the database a place in a backup", async () => {
    const db = await open();
    expect([...db.objectStoreNames].sort()).toEqual(Object.keys(BACKUP_COVERAGE).sort());
    expect(BACKUP_COVERAGE.secrets).toBe("never");
  });

  it("never reads an API key", async () => {
    const db = await open();
    await new SettingsRepository(db).putWithApiKey("models.endpoint", { baseUrl: "http://x" }, "sk-secret");
    const globals = await new BackupStore(db).readGlobals();
    expect(JSON.stringify(globals)).not.toContain("sk-secret");
    expect(globals.settings).toEqual([{ key: "models.endpoint", value: { baseUrl: "http://x" } }]);
  });

  it("reads a thread's records and files, and writes them into another database as they were", async () => {
    const source = await open();
    const threadId = await threadWithFile(source, "Bees");
    const read = await new BackupStore(source).readThread(threadId);
    expect(read?.records.thread.title).toBe("Bees");
    expect(read?.files.map((file) => file.path)).toEqual(["/mnt/user-data/uploads/a.txt"]);

    const target = await open();
    const result = await new BackupStore(target).write(plan({ threads: [read!] }));
    expect(result.threadsImported).toEqual([threadId]);
    const file = await new ThreadFiles(target).read(threadId, "/mnt/user-data/uploads/a.txt");
    expect(new TextDecoder().decode(file?.bytes)).toBe("Bees");
  });

  it("keeps a thread already stored and skips the backup's copy", async () => {
    const db = await open();
    const threadId = await threadWithFile(db, "Mine");
    const read = await new BackupStore(db).readThread(threadId);
    const copy = { records: { ...read!.records, thread: { ...read!.records.thread, title: "Theirs" } }, files: [] };
    const result = await new BackupStore(db).write(plan({ threads: [copy] }));
    expect(result).toMatchObject({ threadsImported: [], threadsSkipped: [threadId] });
    expect((await new ThreadRepository(db).get(threadId))?.title).toBe("Mine");
    expect(await new ThreadFiles(db).list(threadId)).toHaveLength(1);
  });

  it("writes nothing at all when one record fails", async () => {
    const db = await open();
    const source = await open();
    const read = await new BackupStore(source).readThread(await threadWithFile(source, "Bees"));
    // A file record without its key path makes the transaction fail part-way.
    const broken = { ...read!, files: [{ bytes: new Uint8Array(1) } as unknown as ThreadFileRecord] };
    await expect(
      new BackupStore(db).write(plan({ threads: [broken], settings: [{ key: "a", value: 1 }] })),
    ).rejects.toThrow();
    expect(await db.count("threads")).toBe(0);
    expect(await db.count("settings")).toBe(0);
  });

  it("restores settings only where none is stored", async () => {
    const db = await open();
    await new SettingsRepository(db).put("sandbox.settings", { provider: "browser" });
    const result = await new BackupStore(db).write(
      plan({
        settings: [
          { key: "sandbox.settings", value: { provider: "webcontainer" } },
          { key: "subagents.settings", value: { max: 2 } },
        ],
      }),
    );
    expect(result.settingsRestored).toBe(1);
    expect(await new SettingsRepository(db).get("sandbox.settings")).toEqual({ provider: "browser" });
    expect(await new SettingsRepository(db).get("subagents.settings")).toEqual({ max: 2 });
  });

  it("deletes everything, keys included, and names the threads that were there", async () => {
    const db = await open();
    const threadId = await threadWithFile(db, "Bees");
    await new SettingsRepository(db).putWithApiKey("models.endpoint", {}, "sk-secret");
    expect(await new BackupStore(db).deleteAll()).toEqual([threadId]);
    const counts = await Promise.all([...db.objectStoreNames].map((name) => db.count(name)));
    expect(counts.every((count) => count === 0)).toBe(true);
  });
});

function plan(parts: Partial<BackupWrite>): BackupWrite {
  return { threads: [], skills: [], settings: [], store_items: [], mcp_servers: [], ...parts };
}
