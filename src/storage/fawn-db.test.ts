import "fake-indexeddb/auto";
import { openDB } from "idb";
import { describe, expect, it } from "vitest";
import { CHECKPOINT_STORES, DB_VERSION, THREAD_STORES, openFawnDb } from "./fawn-db.ts";
import { ThreadFiles } from "./thread-files.ts";

let dbCount = 0;

/** The schema as version 2 shipped it: a frozen copy, so that this test keeps meaning the same thing. */
async function createVersion2(name: string) {
  return openDB(name, 2, {
    upgrade(database) {
      database.createObjectStore("threads", { keyPath: "thread_id" }).createIndex("by-updated", "updated_at");
      database.createObjectStore("entries", { keyPath: ["thread_id", "seq"] }).createIndex("by-thread", "thread_id");
      database.createObjectStore("settings", { keyPath: "key" });
      database
        .createObjectStore("checkpoints", { keyPath: ["thread_id", "checkpoint_ns", "checkpoint_id"] })
        .createIndex("by-thread", "thread_id");
      database.createObjectStore("checkpoint_blobs", { keyPath: ["thread_id", "checkpoint_ns", "channel", "version"] });
      database.createObjectStore("checkpoint_writes", {
        keyPath: ["thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "idx"],
      });
      database.createObjectStore("checkpoint_messages", { keyPath: ["thread_id", "message_id", "hash"] });
    },
  });
}

describe("openFawnDb", () => {
  it("is at version 7", () => {
    expect(DB_VERSION).toBe(7);
  });

  it("upgrades a version 2 database with data to the current version, keeping the data", async () => {
    const name = `fawn-db-v2-${dbCount++}`;
    const v2 = await createVersion2(name);
    const thread = { thread_id: "t", title: "Kept", created_at: 1, updated_at: 2, status: "idle" };
    const entry = {
      thread_id: "t",
      seq: 0,
      entry: { kind: "message", message: { type: "human", id: "m", content: "hi" } },
    };
    const checkpoint = {
      thread_id: "t",
      checkpoint_ns: "",
      checkpoint_id: "c1",
      v: 4,
      type: "json",
      checkpoint: new Uint8Array([1, 2, 3]),
      metadata_type: "json",
      metadata: new Uint8Array([4]),
      channel_versions: { messages: 1 },
    };
    const blob = {
      thread_id: "t",
      checkpoint_ns: "",
      channel: "x",
      version: 1,
      kind: "value",
      type: "json",
      bytes: new Uint8Array([5]),
    };
    const write = {
      thread_id: "t",
      checkpoint_ns: "",
      checkpoint_id: "c1",
      task_id: "task",
      idx: 0,
      task_path: "",
      channel: "x",
      type: "json",
      bytes: new Uint8Array([6]),
    };
    const message = { thread_id: "t", message_id: "m", hash: "h", type: "json", bytes: new Uint8Array([7]) };
    const tx = v2.transaction(
      ["threads", "entries", "settings", "checkpoints", "checkpoint_blobs", "checkpoint_writes", "checkpoint_messages"],
      "readwrite",
    );
    await Promise.all([
      tx.objectStore("threads").put(thread),
      tx.objectStore("entries").put(entry),
      tx.objectStore("settings").put({ key: "model", value: { name: "m" } }),
      tx.objectStore("checkpoints").put(checkpoint),
      tx.objectStore("checkpoint_blobs").put(blob),
      tx.objectStore("checkpoint_writes").put(write),
      tx.objectStore("checkpoint_messages").put(message),
      tx.done,
    ]);
    v2.close();

    const db = await openFawnDb(name);
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual(
      [...THREAD_STORES, "settings", "store_items", "secrets", "skills", "mcp_servers"].sort((a, b) =>
        a.localeCompare(b),
      ),
    );
    expect(await db.get("threads", "t")).toEqual(thread);
    expect(await db.getAllFromIndex("threads", "by-updated")).toEqual([thread]);
    expect(await db.get("entries", ["t", 0])).toEqual(entry);
    expect(await db.getAllFromIndex("entries", "by-thread", "t")).toEqual([entry]);
    expect(await db.get("settings", "model")).toEqual({ key: "model", value: { name: "m" } });
    expect(await db.get("checkpoints", ["t", "", "c1"])).toEqual(checkpoint);
    expect(await db.getAllFromIndex("checkpoints", "by-thread", "t")).toEqual([checkpoint]);
    expect(await db.get("checkpoint_blobs", ["t", "", "x", 1])).toEqual(blob);
    expect(await db.get("checkpoint_writes", ["t", "", "c1", "task", 0])).toEqual(write);
    expect(await db.get("checkpoint_messages", ["t", "m", "h"])).toEqual(message);

    // The new stores work in the upgraded database.
    const item = {
      namespace_path: "users/u/",
      key: "k",
      namespace: ["users", "u"],
      value: { n: 1 },
      created_at: 1,
      updated_at: 1,
    };
    await db.put("store_items", item);
    expect(await db.get("store_items", ["users/u/", "k"])).toEqual(item);
    const files = new ThreadFiles(db);
    await files.write("t", [{ path: "/mnt/user-data/outputs/a.txt", bytes: new Uint8Array([1]) }]);
    expect((await files.list("t")).map((meta) => meta.path)).toEqual(["/mnt/user-data/outputs/a.txt"]);
    db.close();

    // Reopening at the same version changes nothing.
    const again = await openFawnDb(name);
    expect(await again.get("threads", "t")).toEqual(thread);
    expect(await again.count("store_items")).toBe(1);
    again.close();
  });

  it("names every per-thread store in THREAD_STORES", () => {
    expect(THREAD_STORES).toEqual([
      "threads",
      "entries",
      ...CHECKPOINT_STORES,
      "thread_files",
      "thread_file_meta",
      "runs",
      "thread_search",
      "thread_file_versions",
      "thread_file_blobs",
    ]);
  });

  it("adds an empty thread search index when upgrading a version 4 database, keeping its threads", async () => {
    const name = `fawn-db-v4-${dbCount++}`;
    const v2 = await createVersion2(name);
    const thread = { thread_id: "t", title: "Kept", created_at: 1, updated_at: 2, status: "idle" };
    await v2.put("threads", thread);
    v2.close();
    // Version 4 as it shipped, opened through the real upgrade path, then reopened at the current version.
    const v4 = await openDB(name, 4, {
      upgrade(database) {
        database.createObjectStore("store_items", { keyPath: ["namespace_path", "key"] });
        database.createObjectStore("thread_files", { keyPath: ["thread_id", "path"] });
        database.createObjectStore("thread_file_meta", { keyPath: ["thread_id", "path"] });
        database.createObjectStore("secrets", { keyPath: "key" });
        database.createObjectStore("runs", { keyPath: ["thread_id", "run_id"] });
        database.createObjectStore("skills", { keyPath: "name" });
        database.createObjectStore("mcp_servers", { keyPath: "name" });
      },
    });
    v4.close();
    const db = await openFawnDb(name);
    expect(await db.get("threads", "t")).toEqual(thread);
    expect(await db.count("thread_search")).toBe(0);
    await db.put("thread_search", {
      thread_id: "t",
      v: 1,
      terms: ["kept", "words"],
      text: "Kept words",
      indexed_at: 3,
    });
    expect(await db.getAllKeysFromIndex("thread_search", "by-term", IDBKeyRange.bound("wo", "wo\uffff"))).toEqual([
      ["t"],
    ]);
    db.close();
  });
});
