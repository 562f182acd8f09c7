// The one contract every storage implementation passes (STYLE.md 3, docs/architecture.md#d2-storage): each check
// takes a fresh, empty FawnStorage and throws when the implementation breaks the contract. Written without a test
// framework, so the same checks run in vitest (storage-contract.test.ts: IndexedDB over fake-indexeddb, and the
// in-memory store) and in Chromium's real IndexedDB (test/storage-browser/). LangGraph's checkpoint validation suite
// runs beside it against each checkpointer.
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { emptyCheckpoint, uuid6 } from "@langchain/langgraph-checkpoint";
import { emptyMemoryDocument, type ThreadSummary } from "../protocol/index.ts";
import type { FawnStorage } from "./contracts.ts";
import { bytes, fullThread, ok, rejection, same, text, wait } from "./storage-contract-helpers.ts";
import { SkillExistsError } from "./skills-repository.ts";
import { ThreadIdTakenError } from "./thread-import-writer.ts";

export interface StorageCheck {
  name: string;
  /** `other` is a second empty storage of the same implementation (a backup restored in another browser). */
  run(storage: FawnStorage, other: FawnStorage): Promise<void>;
}

export const STORAGE_CONTRACT: readonly StorageCheck[] = [
  {
    name: "threads: created, listed pinned first then by latest activity, and a taken id is refused",
    async run(storage) {
      const first = await storage.threads.create({ title: "First" });
      await wait();
      const second = await storage.threads.create({ threadId: "second" });
      same(second.title, "New thread", "default title");
      same((await storage.threads.get("second"))?.thread_id, "second", "get");
      same(
        (await storage.threads.list()).map((t) => t.thread_id),
        ["second", first.thread_id],
        "newest first",
      );
      await storage.threads.update(first.thread_id, { pinned: true });
      same(
        (await storage.threads.list()).map((t) => t.thread_id),
        [first.thread_id, "second"],
        "pinned first",
      );
      const taken = await rejection(storage.threads.create({ threadId: "second" }), "create a taken id");
      same((taken as Error).name, "ConstraintError", "taken id's error");
      same(await storage.threads.get("missing"), undefined, "a missing thread");
    },
  },
  {
    name: "threads: entries are appended in order with the patch in one write, and nothing on a missing thread",
    async run(storage) {
      const thread = await storage.threads.create();
      const note = { kind: "stopped" as const, id: "n1", message_id: "m1" };
      const updated = await storage.threads.append(thread.thread_id, [note, { ...note, id: "n2" }], { title: "T" });
      same(updated.title, "T", "patched");
      await storage.threads.append(thread.thread_id, [{ ...note, id: "n3" }], (stored) => ({
        title: `${stored.title}!`,
      }));
      same(
        (await storage.threads.entries(thread.thread_id)).map((e) => (e as { id?: string }).id),
        ["n1", "n2", "n3"],
        "entries in order",
      );
      const detail = await storage.threads.detail(thread.thread_id);
      same([detail?.title, detail?.entries.length], ["T!", 3], "detail");
      await rejection(storage.threads.append("missing", [note]), "append to a missing thread");
      same(await storage.threads.entries("missing"), [], "nothing written for a missing thread");
      same(await storage.threads.update("missing", { title: "x" }), undefined, "update of a missing thread");
      await storage.threads.update(thread.thread_id, { head: "c1" });
      await storage.threads.update(thread.thread_id, { head: undefined });
      ok(!("head" in ((await storage.threads.get(thread.thread_id)) ?? {})), "a patch to undefined removes the field");
    },
  },
  {
    name: "threads: histories, settling busy threads, and delete removes the thread's records everywhere",
    async run(storage) {
      const full = await fullThread(storage);
      const bare = await storage.threads.create();
      await storage.threads.update(bare.thread_id, { status: "busy" });
      const histories = await storage.threads.histories([full.thread_id, bare.thread_id, "missing"]);
      same([...histories.keys()], [full.thread_id, bare.thread_id], "histories of existing threads");
      same(
        [histories.get(full.thread_id)?.checkpointed, histories.get(bare.thread_id)?.checkpointed],
        [true, false],
        "checkpointed",
      );
      await storage.threads.settleInterrupted();
      same((await storage.threads.get(bare.thread_id))?.status, "idle", "busy settles to idle");
      await storage.threads.delete(full.thread_id);
      same(await storage.threads.get(full.thread_id), undefined, "thread gone");
      same(await storage.checkpointer.latestCheckpointId(full.thread_id), undefined, "checkpoints gone");
      same(await storage.files.list(full.thread_id), [], "files gone");
      same(await storage.threads.runs(full.thread_id), [], "runs gone");
      same(await storage.search.texts([full.thread_id]), new Map(), "search entry gone");
      same((await storage.threads.list()).length, 1, "the other thread stays");
    },
  },
  {
    name: "run records: stored, replaced by id, listed oldest first",
    async run(storage) {
      const base = { thread_id: "t", status: "running" as const, updated_at: 0 };
      await storage.threads.recordRun({ ...base, run_id: "b", created_at: 2 });
      await storage.threads.recordRun({ ...base, run_id: "a", created_at: 1 });
      await storage.threads.recordRun({ ...base, run_id: "b", created_at: 2, status: "success" });
      same(
        (await storage.threads.runs("t")).map((r) => r.run_id),
        ["a", "b"],
        "oldest first",
      );
      same((await storage.threads.run("t", "b"))?.status, "success", "replaced");
      same(await storage.threads.run("t", "c"), undefined, "missing run");
    },
  },
  {
    name: "checkpointer: a put is read back with its messages, newest and first checkpoints are named, writes kept",
    async run(storage) {
      const thread = await fullThread(storage);
      const saver = storage.checkpointer;
      const first = await saver.latestCheckpointId(thread.thread_id);
      ok(first, "a latest checkpoint");
      same(await saver.rootCheckpointId(thread.thread_id), first, "the first is the root");
      same(await saver.isImported(thread.thread_id, first), false, "not imported");
      const tuple = await saver.getTuple({ configurable: { thread_id: thread.thread_id } });
      const messages = tuple?.checkpoint.channel_values.messages as { id?: string; content: unknown }[];
      same(
        messages.map((m) => [m.id, m.content]),
        [
          ["m1", "hello"],
          ["m2", "hi there"],
        ],
        "messages read back",
      );
      const next = emptyCheckpoint();
      next.id = uuid6(-1);
      const version = saver.getNextVersion(tuple?.checkpoint.channel_versions.messages as number);
      next.channel_versions = { messages: version };
      next.channel_values = { messages: [...messages, new HumanMessage({ id: "m3", content: "again" })] };
      const config = { configurable: { thread_id: thread.thread_id, checkpoint_ns: "", checkpoint_id: first } };
      const written = await saver.put(config, next, { source: "loop", step: 1, parents: {} }, { messages: version });
      same(await saver.latestCheckpointId(thread.thread_id), next.id, "the newest");
      same(await saver.rootCheckpointId(thread.thread_id), first, "the root stays");
      await saver.putWrites(written, [["messages", "pending"]], "task-1");
      const latest = await saver.getTuple(written);
      same((latest?.checkpoint.channel_values.messages as unknown[]).length, 3, "the list grew");
      same(latest?.pendingWrites, [["task-1", "messages", "pending"]], "pending writes");
      same(latest?.parentConfig?.configurable?.checkpoint_id, first, "parent");
      const listed = [];
      for await (const item of saver.list({ configurable: { thread_id: thread.thread_id } })) listed.push(item);
      same(
        listed.map((item) => item.checkpoint.id),
        [next.id, first],
        "listed newest first",
      );
      await saver.deleteThread(thread.thread_id);
      same(await saver.getTuple({ configurable: { thread_id: thread.thread_id } }), undefined, "deleted");
    },
  },
  {
    name: "thread files: written, read, listed by folder; a bad path writes nothing; deleted",
    async run(storage) {
      const files = storage.files;
      const metas = await files.write("t", [
        { path: "/mnt/user-data/outputs/a.txt", bytes: bytes("A") },
        { path: "/mnt/user-data/workspace/b.md", bytes: bytes("B") },
      ]);
      same(
        metas.map((m) => [m.path, m.size, m.mimeType]),
        [
          ["/mnt/user-data/outputs/a.txt", 1, "text/plain"],
          ["/mnt/user-data/workspace/b.md", 1, "text/markdown"],
        ],
        "metas",
      );
      same(text((await files.read("t", "/mnt/user-data/outputs/a.txt"))?.bytes), "A", "read");
      same(
        (await files.list("t", "/mnt/user-data/outputs")).map((m) => m.path),
        ["/mnt/user-data/outputs/a.txt"],
        "by folder",
      );
      same((await files.list("t", "/mnt/user-data/out")).length, 0, "a folder is a whole name");
      same((await files.readAll("t")).length, 2, "read all");
      await rejection(
        files.apply("t", {
          write: [
            { path: "/mnt/user-data/outputs/c.txt", bytes: bytes("C") },
            { path: "/etc/x", bytes: bytes("X") },
          ],
          delete: ["/mnt/user-data/outputs/a.txt"],
        }),
        "a bad path",
      );
      same((await files.list("t")).length, 2, "nothing written or deleted");
      await files.apply("t", {
        delete: ["/mnt/user-data/outputs/a.txt"],
        write: [{ path: "/mnt/user-data/uploads/u.txt", bytes: bytes("U") }],
      });
      same(
        (await files.list("t")).map((m) => m.path),
        ["/mnt/user-data/uploads/u.txt", "/mnt/user-data/workspace/b.md"],
        "applied",
      );
      same((await files.stat("t", "/mnt/user-data/uploads/u.txt"))?.size, 1, "stat");
      await files.delete("t", ["/mnt/user-data/uploads/u.txt", "/mnt/user-data/none"]);
      same((await files.list("t")).length, 1, "deleted one");
      await files.deleteThread("t");
      same(await files.list("t"), [], "thread's files gone");
    },
  },
  {
    name: "file versions: a branch's workspace and outputs come back as kept, uploads stay, an unknown version changes nothing",
    async run(storage) {
      await storage.files.write("t", [
        { path: "/mnt/user-data/outputs/a.txt", bytes: bytes("A1") },
        { path: "/mnt/user-data/uploads/u.txt", bytes: bytes("U") },
      ]);
      await storage.fileVersions.save("t", "c1");
      await storage.files.write("t", [
        { path: "/mnt/user-data/outputs/a.txt", bytes: bytes("A2") },
        { path: "/mnt/user-data/workspace/new.txt", bytes: bytes("N") },
      ]);
      same(await storage.fileVersions.restore("t", "unknown"), false, "unknown version");
      same((await storage.files.list("t")).length, 3, "unchanged");
      same(await storage.fileVersions.restore("t", "c1"), true, "restored");
      same(
        (await storage.files.list("t")).map((m) => m.path),
        ["/mnt/user-data/outputs/a.txt", "/mnt/user-data/uploads/u.txt"],
        "files of c1",
      );
      same(text((await storage.files.read("t", "/mnt/user-data/outputs/a.txt"))?.bytes), "A1", "bytes of c1");
      same(await storage.fileVersions.restore("t", undefined), true, "the empty start");
      same(
        (await storage.files.list("t")).map((m) => m.path),
        ["/mnt/user-data/uploads/u.txt"],
        "only uploads",
      );
    },
  },
  {
    name: "search index: entries for existing threads only, found by word prefix, missing and orphans told",
    async run(storage) {
      const thread = await storage.threads.create({ threadId: "s1" });
      await storage.threads.create({ threadId: "s2" });
      await storage.search.put([
        { threadId: "s1", text: "Zebra crossing" },
        { threadId: "gone", text: "zebra" },
      ]);
      same(
        await storage.search.threadsWithPrefixes(["zeb", "cross", "nope"]),
        [new Set(["s1"]), new Set(["s1"]), new Set()],
        "prefixes",
      );
      same(await storage.search.texts(["s1", "s2"]), new Map([["s1", "Zebra crossing"]]), "texts");
      same(await storage.search.isComplete(), false, "incomplete");
      same(await storage.search.differences(), { missing: ["s2"], orphans: [] }, "differences");
      await storage.search.remove([thread.thread_id]);
      same(await storage.search.texts(["s1"]), new Map(), "removed");
    },
  },
  {
    name: "settings: values and their API keys kept apart, parts' keys replaced, all-or-nothing batches",
    async run(storage) {
      const settings = storage.settings;
      same(await settings.get("none"), undefined, "missing");
      await settings.put("plain", { a: 1 });
      same(await settings.get("plain"), { a: 1 }, "plain");
      await settings.putWithApiKey("web", { provider: "x" }, "sk-web");
      same(await settings.getWithApiKey("web"), { value: { provider: "x" }, apiKey: "sk-web" }, "with key");
      await settings.putWithApiKey("web", { provider: "y" }, "");
      same((await settings.getWithApiKey("web")).apiKey, undefined, "an empty key removes it");
      await settings.putWithApiKeys(
        "models",
        { n: 1 },
        new Map([
          ["", "own"],
          ["e1", "k1"],
          ["e2", "k2"],
        ]),
      );
      await settings.putWithApiKeys("models", { n: 2 }, new Map([["e1", "k1b"]]));
      same(
        await settings.getWithApiKeys("models"),
        { value: { n: 2 }, apiKeys: new Map([["e1", "k1b"]]) },
        "parts' keys",
      );
      await settings.putAllWithApiKeys([
        { key: "plain", value: undefined, apiKey: "" },
        { key: "b", value: 2, apiKey: "sk-b" },
      ]);
      same(await settings.get("plain"), undefined, "undefined removes");
      same((await settings.secretValues()).sort(), ["k1b", "sk-b"], "every secret");
    },
  },
  {
    name: "memory: an empty document first; an update is one read-change-write, and a failed change writes nothing",
    async run(storage) {
      same(await storage.memory.read(), emptyMemoryDocument(), "empty");
      const doc = { ...emptyMemoryDocument(), lastUpdated: "2025-01-01T00:00:00Z" };
      await storage.memory.replace(doc);
      same((await storage.memory.read()).lastUpdated, doc.lastUpdated, "replaced");
      await storage.memory.update((current) => ({ ...current, lastUpdated: "2025-02-02T00:00:00Z" }));
      const error = await rejection(
        storage.memory.update(() => {
          throw new Error("bad fact");
        }),
        "a failing change",
      );
      same((error as Error).message, "bad fact", "its error");
      same((await storage.memory.read()).lastUpdated, "2025-02-02T00:00:00Z", "unchanged by the failure");
    },
  },
  {
    name: "skills: installed once by name (SkillExistsError), switched, deleted; public skills' states",
    async run(storage) {
      const skill = {
        name: "s",
        enabled: true,
        files: { "SKILL.md": bytes("x") },
        installed_at: 1,
        metadata: { description: "d" },
      };
      await storage.skills.installCustom(skill);
      const error = await rejection(storage.skills.installCustom({ ...skill, installed_at: 2 }), "a taken name");
      ok(error instanceof SkillExistsError, "SkillExistsError");
      same((await storage.skills.getCustom("s"))?.installed_at, 1, "the first stays");
      same((await storage.skills.setCustomEnabled("s", false))?.enabled, false, "switched");
      same(await storage.skills.setCustomEnabled("none", true), undefined, "missing");
      same(
        (await storage.skills.listCustom()).map((s) => [s.name, s.enabled]),
        [["s", false]],
        "listed",
      );
      same([await storage.skills.deleteCustom("s"), await storage.skills.deleteCustom("s")], [true, false], "deleted");
      await storage.skills.setPublicEnabled("p", false);
      same(await storage.skills.publicEnabledStates(), { p: false }, "public states");
    },
  },
  {
    name: "MCP: servers replaced whole with their secrets kept as secrets; sign-ins per server URL",
    async run(storage) {
      const server = { name: "b", url: "https://b.example/mcp", enabled: true };
      await storage.mcpServers.replaceAll([
        { ...server, bearerToken: "tok", headers: { "X-Key": "hv" }, oauthClientId: "cid", oauthClientSecret: "csec" },
        { name: "a", url: "https://a.example/mcp", enabled: false },
      ]);
      same(
        (await storage.mcpServers.list()).map((s) => [s.name, s.bearerToken, s.headers, s.oauthClientSecret]),
        [
          ["a", undefined, undefined, undefined],
          ["b", "tok", { "X-Key": "hv" }, "csec"],
        ],
        "listed by name",
      );
      ok((await storage.settings.secretValues()).includes("csec"), "a pre-registered client's secret is a secret");
      await storage.mcpOAuth.set("b", server.url, "tokens", { access_token: "at-1" });
      same(await storage.mcpOAuth.get("b", server.url, "tokens"), { access_token: "at-1" }, "sign-in");
      same(await storage.mcpOAuth.get("b", "https://other/", "tokens"), undefined, "another URL");
      same(await storage.mcpOAuth.signedIn([server, { name: "a", url: "https://a.example/mcp" }]), ["b"], "signed in");
      ok((await storage.settings.secretValues()).includes("at-1"), "a sign-in's token is a secret to redact");
      await storage.mcpServers.replaceAll([{ name: "c", url: "https://c.example", enabled: true }]);
      same(
        (await storage.mcpServers.list()).map((s) => s.name),
        ["c"],
        "replaced",
      );
      same(await storage.mcpOAuth.get("b", server.url, "tokens"), { access_token: "at-1" }, "sign-ins are apart");
      await storage.mcpOAuth.set("b", server.url, "verifier", "v");
      await storage.mcpOAuth.delete("b", ["verifier"]);
      same(await storage.mcpOAuth.get("b", server.url, "verifier"), undefined, "a part deleted");
      await storage.mcpOAuth.forget("b");
      same(await storage.mcpOAuth.get("b", server.url, "tokens"), undefined, "forgotten");
    },
  },
  {
    name: "thread import: the thread, its checkpoint, files and search in one write; a taken id writes nothing",
    async run(storage) {
      const now = Date.now();
      const thread: ThreadSummary = {
        thread_id: "imp",
        title: "Imported",
        created_at: now,
        updated_at: now,
        status: "idle",
      };
      const values = {
        messages: [new HumanMessage({ id: "h", content: "q" }), new AIMessage({ id: "a", content: "r" })],
      };
      const files = [{ path: "/mnt/user-data/outputs/o.txt", bytes: bytes("O") }];
      const checkpointId = await storage.threadImport.write({ thread, values, files, searchText: "q r" });
      same(await storage.checkpointer.latestCheckpointId("imp"), checkpointId, "its checkpoint");
      const tuple = await storage.checkpointer.getTuple({ configurable: { thread_id: "imp" } });
      same(
        (tuple?.checkpoint.channel_values.messages as { content: unknown }[]).map((m) => m.content),
        ["q", "r"],
        "its messages",
      );
      same((await storage.files.list("imp")).length, 1, "its files");
      same(await storage.search.texts(["imp"]), new Map([["imp", "q r"]]), "its search entry");
      const error = await rejection(
        storage.threadImport.write({ thread: { ...thread, title: "Other" }, values, files: [] }),
        "a taken id",
      );
      ok(error instanceof ThreadIdTakenError, "ThreadIdTakenError");
      same((await storage.threads.get("imp"))?.title, "Imported", "the stored thread stays");
      same((await storage.files.list("imp")).length, 1, "its files stay");
    },
  },
  {
    name: "backup: a thread and the globals read whole, written into another store in one write, then all deleted",
    async run(storage, other) {
      const thread = await fullThread(storage);
      await storage.settings.putWithApiKey("web", { provider: "x" }, "sk-secret");
      await storage.memory.replace({ ...emptyMemoryDocument(), lastUpdated: "m" });
      same(await storage.backup.threadIds(), [thread.thread_id], "thread ids");
      same(
        await storage.backup.fileSizes(),
        [{ thread_id: thread.thread_id, path: "/mnt/user-data/outputs/a.txt", size: 1 }],
        "sizes",
      );
      const read = await storage.backup.readThread(thread.thread_id);
      ok(read, "the thread read");
      same(await storage.backup.readThread("missing"), undefined, "a missing thread");
      const globals = await storage.backup.readGlobals();
      ok(!JSON.stringify(globals).includes("sk-secret"), "no secret in a backup");
      const plan = {
        threads: [read],
        skills: [],
        settings: globals.settings,
        store_items: [],
        mcp_servers: [{ name: "m", url: "https://m.example", enabled: false }],
      };
      const refusal = await rejection(
        other.backup.write({
          ...plan,
          checkAdditions: () => {
            throw new Error("ask first");
          },
        }),
        "refused additions",
      );
      same((refusal as Error).message, "ask first", "its error");
      same(await other.threads.list(), [], "nothing written");
      same(await other.mcpServers.list(), [], "no server written");
      const failed = await rejection(
        other.backup.write({
          ...plan,
          mergeMemory: () => {
            throw new Error("merge failed");
          },
        }),
        "a failed merge",
      );
      same((failed as Error).message, "merge failed", "its error");
      same(await other.threads.list(), [], "still nothing written");
      const result = await other.backup.write({
        ...plan,
        mergeMemory: () => ({ value: { ...emptyMemoryDocument(), lastUpdated: "merged" }, added: 2 }),
      });
      same(
        [result.threadsImported, result.settingsRestored, result.memoryFactsAdded, result.mcpServersAdded],
        [[thread.thread_id], 1, 2, ["m"]],
        "result",
      );
      const tuple = await other.checkpointer.getTuple({ configurable: { thread_id: thread.thread_id } });
      same((tuple?.checkpoint.channel_values.messages as unknown[]).length, 2, "the restored thread reads");
      same((await other.memory.read()).lastUpdated, "merged", "memory merged");
      const again = await other.backup.write(plan);
      same(
        [again.threadsImported, again.threadsSkipped, again.settingsRestored],
        [[], [thread.thread_id], 0],
        "kept what is here",
      );
      same((await storage.backup.deleteAll()).length, 1, "ids of the deleted threads");
      same(
        [
          await storage.threads.list(),
          await storage.settings.secretValues(),
          await storage.files.list(thread.thread_id),
        ],
        [[], [], []],
        "everything deleted",
      );
    },
  },
];
