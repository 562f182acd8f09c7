// The checks every database behind userStorage passes, registered in vitest: Fawn's storage contract
// (src/storage/storage-contract.ts) and LangGraph's checkpoint validation over one user's rows, two users on one
// database seeing nothing of each other, and one user's writes taking turns. user-storage.test.ts runs them on
// PGlite; test/server/postgres-storage.test.ts on Debian's Postgres.
import { HumanMessage } from "@langchain/core/messages";
import { emptyCheckpoint, uuid6 } from "@langchain/langgraph-checkpoint";
import { validate } from "@langchain/langgraph-checkpoint-validation";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { STORAGE_CONTRACT, TableCheckpointSaver, type FawnStorage } from "../../src/storage/index.ts";
import type { Database } from "./database.ts";
import { PostgresTables } from "./postgres-tables.ts";
import { userStorage } from "./user-storage.ts";

export interface StartedDatabase {
  db: Database;
  stop(): Promise<void>;
}

const bytes = (text: string) => new TextEncoder().encode(text);

/** Fills `storage` with one of everything a user keeps; returns the thread's id. */
async function fill(storage: FawnStorage, threadId: string, secret: string): Promise<void> {
  await storage.threads.create({ threadId, title: `Thread of ${secret}` });
  await storage.threads.append(threadId, [{ type: "user", text: "hello" } as never]);
  await storage.files.write(threadId, [{ path: "/mnt/user-data/outputs/a.txt", bytes: bytes(secret) }]);
  await storage.settings.putWithApiKey("models", { model: "m" }, secret);
  await storage.memory.replace({
    ...(await storage.memory.read()),
    user: { workContext: { summary: secret } } as never,
  });
  await storage.skills.installCustom({ name: "skill", enabled: true } as never);
  await storage.mcpServers.replaceAll([
    { name: "mcp", url: "https://mcp.example", enabled: true, bearerToken: secret },
  ]);
  const checkpoint = { ...emptyCheckpoint(), id: uuid6(-1) };
  checkpoint.channel_values = { messages: [new HumanMessage({ id: "m1", content: secret })] };
  checkpoint.channel_versions = { messages: 1 };
  await storage.checkpointer.put(
    { configurable: { thread_id: threadId, checkpoint_ns: "" } },
    checkpoint,
    { source: "input", step: -1, parents: {} },
    { messages: 1 },
  );
}

/** Registers the suite over the database `start` opens (once for the file; every check takes fresh owners). */
export function describeUserStorage(name: string, start: () => Promise<StartedDatabase>): void {
  let started: StartedDatabase | undefined;
  let owners = 0;
  const db = () => {
    if (!started) throw new Error("The database has not started.");
    return started.db;
  };
  const newOwner = () => `user-${owners++}`;
  beforeAll(async () => {
    started = await start();
  }, 120_000);
  afterAll(async () => {
    await started?.stop();
  });

  describe(`Storage contract: userStorage over ${name}`, () => {
    for (const check of STORAGE_CONTRACT) {
      it(check.name, () => check.run(userStorage(db(), newOwner()), userStorage(db(), newOwner())));
    }
  });

  describe(`userStorage over ${name}: owners`, () => {
    it("two users on one database see nothing of each other, and one deleting all data leaves the other's", async () => {
      const [alice, bob] = [newOwner(), newOwner()];
      const a = userStorage(db(), alice);
      const b = userStorage(db(), bob);
      await fill(a, "shared-id", "alice-secret");
      expect(await b.threads.list()).toEqual([]);
      expect(await b.threads.get("shared-id")).toBeUndefined();
      expect(await b.files.readAll("shared-id")).toEqual([]);
      expect(await b.settings.secretValues()).toEqual([]);
      expect((await b.settings.getWithApiKey("models")).apiKey).toBeUndefined();
      expect(await b.skills.listCustom()).toEqual([]);
      expect(await b.mcpServers.list()).toEqual([]);
      expect(JSON.stringify(await b.memory.read())).not.toContain("alice-secret");
      expect(await b.checkpointer.getTuple({ configurable: { thread_id: "shared-id" } })).toBeUndefined();
      expect(await b.backup.threadIds()).toEqual([]);
      expect(await b.backup.readGlobals()).toEqual({ settings: [], store_items: [], skills: [], mcp_servers: [] });

      // The same thread id is Bob's own; his thread, then his "delete all data", leave Alice's as they were.
      await fill(b, "shared-id", "bob-secret");
      expect((await a.threads.get("shared-id"))?.title).toBe("Thread of alice-secret");
      expect(await a.settings.secretValues()).toEqual(expect.arrayContaining(["alice-secret"]));
      expect(await a.settings.secretValues()).not.toContain("bob-secret");
      expect(await b.backup.deleteAll()).toEqual(["shared-id"]);
      expect(await b.threads.list()).toEqual([]);
      expect((await a.threads.list()).map((thread) => thread.thread_id)).toEqual(["shared-id"]);
      const file = await a.files.read("shared-id", "/mnt/user-data/outputs/a.txt");
      expect(new TextDecoder().decode(file?.bytes)).toBe("alice-secret");
      const tuple = await a.checkpointer.getTuple({ configurable: { thread_id: "shared-id" } });
      expect(JSON.stringify(tuple?.checkpoint.channel_values)).toContain("alice-secret");

      // Every row is stored under its owner; Bob has none left.
      const rows = await db().query<{ owner: string; count: number }>(
        "SELECT owner, count(*)::int AS count FROM fawn_rows WHERE owner = ANY($1) GROUP BY owner",
        [[alice, bob]],
      );
      expect(rows.map((row) => row.owner)).toEqual([alice]);
    });

    it("one user's writes take turns: concurrent appends from two handles number every entry once", async () => {
      const owner = newOwner();
      const [first, second] = [userStorage(db(), owner), userStorage(db(), owner)];
      await first.threads.create({ threadId: "t" });
      await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          (index % 2 ? first : second).threads.append("t", [{ type: "user", text: `${index}` } as never]),
        ),
      );
      const entries = await first.threads.entries("t");
      expect(entries).toHaveLength(12);
      expect(new Set(entries.map((entry) => (entry as unknown as { text: string }).text)).size).toBe(12);
    });

    it("a snapshot read sees one state while another write commits", async () => {
      const tables = new PostgresTables(db(), newOwner());
      let written: Promise<void> | undefined;
      const counts = await tables.read(
        async (tx) => {
          const before = await tx.count("settings");
          written = tables.write((other) => other.put("settings", { key: "during", value: 1 }));
          await new Promise((resolve) => setTimeout(resolve, 100));
          return [before, await tx.count("settings")];
        },
        { snapshot: true },
      );
      await written;
      expect(counts).toEqual([0, 0]);
      expect(await tables.read((tx) => tx.count("settings"))).toBe(1);
    });

    it("a write that throws leaves nothing, and the errors are IndexedDB's", async () => {
      const tables = new PostgresTables(db(), newOwner());
      await expect(
        tables.write(async (tx) => {
          await tx.put("settings", { key: "a", value: 1 });
          throw new Error("changed my mind");
        }),
      ).rejects.toThrow("changed my mind");
      expect(await tables.read((tx) => tx.count("settings"))).toBe(0);
      await tables.write((tx) => tx.add("settings", { key: "a", value: 1 }));
      await expect(tables.write((tx) => tx.add("settings", { key: "a", value: 2 }))).rejects.toMatchObject({
        name: "ConstraintError",
      });
      await expect(tables.write((tx) => tx.put("settings", { value: 2 } as never))).rejects.toMatchObject({
        name: "DataError",
      });
      await expect(
        tables.write((tx) => tx.put("settings", { key: "f", value: () => undefined })),
      ).rejects.toMatchObject({ name: "DataCloneError" });
      expect(await tables.read((tx) => tx.all("settings"))).toEqual([{ key: "a", value: 1 }]);
    });
  });

  // LangGraph's validation suite calls vitest's globals; a config without `globals: true` gets them here.
  const globals = { describe, it, expect, beforeAll, afterAll, beforeEach, afterEach };
  for (const [name, value] of Object.entries(globals)) (globalThis as Record<string, unknown>)[name] ??= value;
  validate({
    checkpointerName: `TableCheckpointSaver over ${name}`,
    createCheckpointer: () => new TableCheckpointSaver(new PostgresTables(db(), newOwner())),
    destroyCheckpointer: async () => undefined,
  });
}
