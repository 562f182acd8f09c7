// Settings → Data through the Gateway: "Export all data" brings a thread (with its checkpoints, upload and artifact),
// the memory, a custom skill and settings into one zip without any API key; "Import data" puts them back in another
// browser (the thread continues), keeps what is already here, and refuses a tampered archive without writing a thing;
// "Delete all data" leaves nothing behind.
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { createGatewayFetch, openGateway, type Gateway } from "../../src/gateway/index.ts";
import { DataService } from "../../src/gateway/data-service.ts";
import { BACKUP_LIMITS, contentText, type ChangeNotice, type ThreadEntry } from "../../src/protocol/index.ts";
import { BACKUP_COVERAGE } from "../../src/storage/backup-store.ts";
import { indexedDbStorage, openFawnDb } from "../../src/storage/index.ts";
import { modelSettings, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("data-backup-test");

const MODEL_KEY = "sk-live-MODELKEY-7f3a9c";
const SEARCH_KEY = "tvly-SEARCHKEY-51bd02";
const FETCH_KEY = "jina-FETCHKEY-c8e4aa";
const UPLOAD = "/mnt/user-data/uploads/notes.txt";
const ARTIFACT = "/mnt/user-data/outputs/report.md";
const FACT = "User brews oolong at 90 degrees";
const SKILL =
  "---\nname: tea-brewing\ndescription: Brew tea well. Use when asked about tea.\n---\n\n# Tea\n\nSteep 3 min.\n";

const callTool = (name: string, args: Record<string, unknown>) =>
  `call tool ${name} ${JSON.stringify({ description: "t", ...args })}`;

function messageTexts(entries: readonly ThreadEntry[] | undefined): string[] {
  return (entries ?? []).flatMap((entry) => (entry.kind === "message" ? [contentText(entry.message.content)] : []));
}

/** A thread with an upload and a presented artifact, a memory fact, a skill, and keys for every provider. */
async function fillStore(gateway: Gateway): Promise<string> {
  await gateway.settings.saveModels(
    modelSettings({ baseUrl: harness.mock.url, apiKey: MODEL_KEY, model: "mock-model" }),
  );
  await gateway.settings.saveWebTools({
    search: { provider: "tavily", apiKey: SEARCH_KEY },
    fetch: { provider: "jina", apiKey: FETCH_KEY },
  });
  const thread = await gateway.threads.create();
  await gateway.threads.upload(thread.thread_id, [{ name: "notes.txt", bytes: strToU8("first-flush notes") }]);
  await runThread(gateway, thread.thread_id, callTool("write_file", { path: ARTIFACT, content: "# Tea report\n" }));
  await runThread(gateway, thread.thread_id, callTool("present_files", { filepaths: [ARTIFACT] }));
  await gateway.memory.addFact({ content: FACT });
  await gateway.skills.install({ name: "tea-brewing.skill", bytes: zipSync({ "SKILL.md": strToU8(SKILL) }) });
  return thread.thread_id;
}

async function archiveBytes(gateway: Gateway): Promise<Uint8Array> {
  return new Uint8Array(await (await gateway.data.export()).blob.arrayBuffer());
}

/** Every text the archive holds: its raw bytes, each member inflated, and every base64 byte field decoded. */
function archiveTexts(bytes: Uint8Array): string[] {
  const texts = [new TextDecoder("latin1").decode(bytes)];
  for (const data of Object.values(unzipSync(bytes))) {
    const text = new TextDecoder("latin1").decode(data);
    texts.push(text);
    for (const match of text.matchAll(/"\$bytes":"([A-Za-z0-9+/=]*)"/g)) {
      texts.push(Buffer.from(match[1] ?? "", "base64").toString("latin1"));
    }
  }
  return texts;
}

/** How many records all stores of the gateway's database hold. */
async function storedRecords(dbName: string): Promise<number> {
  const db = await openFawnDb(dbName);
  const counts = await Promise.all(Object.keys(BACKUP_COVERAGE).map((name) => db.count(name as "threads")));
  db.close();
  return counts.reduce((sum, count) => sum + count, 0);
}

/** The archive's members changed by `change`, zipped again. */
function tamper(bytes: Uint8Array, change: (members: Record<string, Uint8Array>) => void): Uint8Array {
  const members = unzipSync(bytes);
  change(members);
  return zipSync(members);
}

describe("export all data", () => {
  it("writes one dated zip with a manifest counting what it holds", async () => {
    await fillStore(harness.gateway);
    const backup = await harness.gateway.data.export();
    expect(backup.file_name).toMatch(/^fawn-backup-\d{4}-\d{2}-\d{2}\.zip$/);
    expect(backup.blob.type).toBe("application/zip");
    const members = unzipSync(new Uint8Array(await backup.blob.arrayBuffer()));
    const manifest = JSON.parse(strFromU8(members["manifest.json"] as Uint8Array)) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      format: "fawn-backup",
      version: 1,
      app_version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      counts: { threads: 1, thread_files: 2, skills: 1, memory_facts: 1 },
    });
    expect(Date.parse(manifest.created_at as string)).not.toBeNaN();
    expect(backup.manifest).toEqual(manifest);
    expect(Object.keys(members).some((name) => name.endsWith("/files/mnt/user-data/uploads/notes.txt"))).toBe(true);
    expect(Object.keys(members).some((name) => name.endsWith("/files/mnt/user-data/outputs/report.md"))).toBe(true);
    expect(Object.keys(members)).toContain("skills/tea-brewing/files/SKILL.md");
  });

  it("never holds an API key, anywhere in the archive", async () => {
    await fillStore(harness.gateway);
    const texts = archiveTexts(await archiveBytes(harness.gateway));
    // The search works: the upload's text, and a message only found in checkpoint bytes, are found the same way.
    expect(texts.some((text) => text.includes("first-flush notes"))).toBe(true);
    expect(texts.some((text) => text.includes("call tool present_files"))).toBe(true);
    for (const key of [MODEL_KEY, SEARCH_KEY, FETCH_KEY]) {
      expect(texts.filter((text) => text.includes(key))).toEqual([]);
    }
  });
});

describe("import data", () => {
  it("brings everything back in another browser, and the thread continues", async () => {
    const threadId = await fillStore(harness.gateway);
    const before = await harness.gateway.threads.get(threadId);
    const archive = await archiveBytes(harness.gateway);

    const other = await harness.freshGateway();
    // The backup would set the model endpoint's address here: it asks first, and writes nothing until accepted.
    expect(await other.data.import(new Blob([archive as Uint8Array<ArrayBuffer>]))).toMatchObject({
      confirm: "additions",
      additions: [{ kind: "endpoint", name: "Main endpoint", address: harness.mock.url }],
    });
    expect(await other.threads.list()).toEqual([]);
    const result = await other.data.import(new Blob([archive as Uint8Array<ArrayBuffer>]), {
      acceptAdditions: true,
    });
    expect(result).toMatchObject({
      threads_imported: 1,
      threads_skipped: 0,
      skills_imported: 1,
      memory_facts_added: 1,
    });
    expect(result.message).toMatch(/^Imported 1 thread\./);

    expect((await other.threads.list()).map((thread) => [thread.thread_id, thread.title])).toEqual([
      [threadId, before?.title],
    ]);
    const after = await other.threads.get(threadId);
    expect(messageTexts(after?.entries)).toEqual(messageTexts(before?.entries));
    expect(after?.artifacts).toEqual([ARTIFACT]);
    expect(strFromU8((await other.threads.readFile(threadId, UPLOAD)).bytes)).toBe("first-flush notes");
    expect(strFromU8((await other.threads.readFile(threadId, ARTIFACT)).bytes)).toBe("# Tea report\n");
    expect((await other.memory.get()).facts.map((fact) => fact.content)).toEqual([FACT]);
    expect((await other.skills.list()).find((skill) => skill.name === "tea-brewing")).toMatchObject({
      category: "custom",
      enabled: true,
    });
    // Settings come back without their keys.
    expect(await other.settings.getModels()).toMatchObject({
      endpoints: [{ baseUrl: harness.mock.url, apiKey: "", models: [{ id: "mock-model" }] }],
      defaultModel: { model: "mock-model" },
    });
    expect((await other.settings.getWebTools()).search).toMatchObject({ provider: "tavily", apiKey: "" });
    // Search finds the imported thread's messages (its index is rebuilt).
    expect((await other.threads.search("report")).hits.map((hit) => hit.thread.thread_id)).toEqual([threadId]);

    await runThread(other, threadId, "and one more thing");
    expect(messageTexts((await other.threads.get(threadId))?.entries).at(-1)).toBe("You said: and one more thing");
  });

  it("keeps threads, facts, skills and settings already here, and says what it skipped", async () => {
    const threadId = await fillStore(harness.gateway);
    const archive = await archiveBytes(harness.gateway);
    await harness.gateway.threads.rename(threadId, "Mine, renamed");
    await harness.gateway.settings.saveModels(
      modelSettings({ baseUrl: harness.mock.url, apiKey: MODEL_KEY, model: "other-model" }),
    );
    const extra = await harness.gateway.threads.create();

    const result = await harness.gateway.data.import(archive);
    expect(result).toMatchObject({ threads_imported: 0, threads_skipped: 1, skills_skipped: 1, memory_facts_added: 0 });
    expect(result.message).toBe("Imported 0 threads, skipped 1 thread already here. 1 skill already installed kept.");
    expect((await harness.gateway.threads.list()).map((thread) => thread.thread_id).sort()).toEqual(
      [threadId, extra.thread_id].sort(),
    );
    expect((await harness.gateway.threads.get(threadId))?.title).toBe("Mine, renamed");
    expect((await harness.gateway.memory.get()).facts.map((fact) => fact.content)).toEqual([FACT]);
    expect(await harness.gateway.settings.getModels()).toMatchObject({
      endpoints: [{ apiKey: MODEL_KEY }],
      defaultModel: { model: "other-model" },
    });
  });

  it("merges memory facts without duplicates", async () => {
    await fillStore(harness.gateway);
    const archive = await archiveBytes(harness.gateway);
    const other = await harness.freshGateway();
    await other.memory.addFact({ content: "  user BREWS oolong at 90 degrees " });
    await other.memory.addFact({ content: "User likes green tea" });
    const result = await other.data.import(archive, { acceptAdditions: true });
    expect(result).toMatchObject({ memory_facts_added: 0 });
    expect((await other.memory.get()).facts.map((fact) => fact.content)).toEqual([
      "user BREWS oolong at 90 degrees",
      "User likes green tea",
    ]);
  });

  it.each([
    [
      "a member with a ../ path",
      (members: Record<string, Uint8Array>) => (members["threads/../../escape.txt"] = strToU8("x")),
      /unsafe path "threads\/\.\.\/\.\.\/escape\.txt"/,
    ],
    [
      "a manifest of another format",
      (members: Record<string, Uint8Array>) =>
        (members["manifest.json"] = strToU8(JSON.stringify({ format: "zip-of-things", version: 1 }))),
      /manifest\.json in the backup is not valid/,
    ],
    ["no manifest", (members: Record<string, Uint8Array>) => delete members["manifest.json"], /no manifest\.json/],
    [
      "a thread removed (counts disagree)",
      (members: Record<string, Uint8Array>) => {
        for (const name of Object.keys(members)) if (name.startsWith("threads/")) delete members[name];
      },
      /manifest counts 1 threads but the archive holds 0/,
    ],
    [
      "a file whose path leaves the thread's folders",
      (members: Record<string, Uint8Array>) => {
        const name = Object.keys(members).find((member) => member.endsWith("uploads/notes.txt")) as string;
        members[name.replace("/files/mnt/user-data/uploads/", "/files/etc/")] = strToU8("x");
      },
      /cannot be imported: a path must start with/,
    ],
    [
      "a broken memory",
      (members: Record<string, Uint8Array>) =>
        (members["memory.json"] = strToU8(
          JSON.stringify({ document: { facts: [{ id: "f", content: "x", confidence: 7 }] }, store_items: [] }),
        )),
      /memory is not valid: facts\[0\]\.confidence/,
    ],
    [
      "a message of the thread's history that does not load (found by bundle-fuzz)",
      (members: Record<string, Uint8Array>) => {
        const name = Object.keys(members).find((member) => member.endsWith("/thread.json")) as string;
        const records = JSON.parse(strFromU8(members[name]!)) as { checkpoint_messages: { bytes: unknown }[] };
        records.checkpoint_messages[0]!.bytes = { $bytes: Buffer.from('{"type": "hu').toString("base64") };
        members[name] = strToU8(JSON.stringify(records));
      },
      /^The backup's thread ".*" has a history that cannot be read: the file was changed or is damaged\.$/,
    ],
    [
      "model settings missing a field (found by bundle-fuzz)",
      (members: Record<string, Uint8Array>) => {
        const settings = JSON.parse(strFromU8(members["settings.json"]!)) as {
          settings: { key: string; value: { endpoints: { baseUrl?: string }[] } }[];
        };
        delete settings.settings.find((record) => record.key === "models")!.value.endpoints[0]!.baseUrl;
        members["settings.json"] = strToU8(JSON.stringify(settings));
      },
      /^The backup's model settings are not valid: endpoints\.0\.baseUrl is missing\.$/,
    ],
  ])("refuses %s with the reason, and changes nothing", async (_name, change, reason) => {
    await fillStore(harness.gateway);
    const archive = tamper(await archiveBytes(harness.gateway), change);
    const other = await harness.freshGateway();
    const otherName = `data-backup-test-${Number(harness.gatewayDbName().split("-").at(-1)) + 1}`;
    const records = await storedRecords(otherName);
    await expect(other.data.import(archive)).rejects.toThrow(reason);
    // Opened again (a reload): still nothing.
    expect(await storedRecords(otherName)).toBe(records);
    const reopened = await openGateway(otherName);
    expect(await reopened.threads.list()).toEqual([]);
    expect((await reopened.memory.get()).facts).toEqual([]);
    expect((await reopened.skills.list()).filter((skill) => skill.category === "custom")).toEqual([]);
  });

  it("refuses a file that is not a zip, and one whose declared sizes are over the limit, before inflating", async () => {
    await expect(harness.gateway.data.import(strToU8("just text"))).rejects.toThrow(/not a zip archive/);
    await fillStore(harness.gateway);
    const archive = await archiveBytes(harness.gateway);
    // A zip bomb's directory says how big its members become: claim 3 GB for the manifest.
    const bomb = declareSize(archive, "manifest.json", 0xc0000000);
    await expect(harness.gateway.data.import(bomb)).rejects.toThrow(/"manifest\.json" is too large \(3\.0 GB/);
  });
});

describe("backups that always restore", () => {
  const oddSkill = "---\nname: odd-paths\ndescription: A skill zipped with odd paths.\n---\n# Odd\n";

  it("restores a skill installed from members named docs/./a.md and a//b, threads and all", async () => {
    await harness.gateway.skills.install({
      name: "odd-paths.skill",
      bytes: zipSync({ "SKILL.md": strToU8(oddSkill), "docs/./a.md": strToU8("a"), "a//b": strToU8("b") }),
    });
    await harness.gateway.threads.create();
    const other = await harness.freshGateway();
    expect(await other.data.import(await archiveBytes(harness.gateway), { acceptAdditions: true })).toMatchObject({
      threads_imported: 1,
      skills_imported: 1,
    });
    expect((await other.skills.list()).map((skill) => skill.name)).toContain("odd-paths");
  });

  it("restores a skill an older Fawn stored with such names", async () => {
    const db = await openFawnDb(harness.gatewayDbName());
    await db.put("skills", {
      name: "odd-paths",
      enabled: true,
      installed_at: 1,
      metadata: { description: "A skill zipped with odd paths." },
      files: { "SKILL.md": strToU8(oddSkill), "docs/./a.md": strToU8("a"), "x//y.txt": strToU8("y") },
    });
    db.close();
    const other = await harness.freshGateway();
    expect(await other.data.import(await archiveBytes(harness.gateway), { acceptAdditions: true })).toMatchObject({
      skills_imported: 1,
    });
    const restored = await openFawnDb(`data-backup-test-${Number(harness.gatewayDbName().split("-").at(-1)) + 1}`);
    expect(Object.keys((await restored.get("skills", "odd-paths"))?.files ?? {}).sort()).toEqual([
      "SKILL.md",
      "docs/a.md",
      "x/y.txt",
    ]);
    restored.close();
  });
});

describe("an export over the limits", () => {
  /** A file's meta as stored, claiming `size` bytes: the export judges sizes from meta, before reading a file. */
  async function storeFileMeta(threadId: string, path: string, size: number): Promise<void> {
    const db = await openFawnDb(harness.gatewayDbName());
    await db.put("thread_file_meta", { thread_id: threadId, path, size, sha256: "", mimeType: "text/plain", mtime: 1 });
    db.close();
  }

  it("is refused up front, from stored sizes, with the reason and the size: backup and .fawn alike", async () => {
    const { thread_id: threadId } = await harness.gateway.threads.create();
    await storeFileMeta(threadId, "/mnt/user-data/outputs/a.bin", 200 * 1024 * 1024);
    await storeFileMeta(threadId, "/mnt/user-data/outputs/b.bin", 200 * 1024 * 1024);
    const { thread_id: other } = await harness.gateway.threads.create();
    for (const name of ["c", "d", "e", "f", "g"]) {
      await storeFileMeta(other, `/mnt/user-data/outputs/${name}.bin`, 200 * 1024 * 1024);
    }
    // None of these files' bytes is stored: only their meta is read, so the refusal comes before anything is written.
    await expect(harness.gateway.data.export()).rejects.toThrow(
      "Your data is 1.4 GB, and one backup can hold at most 1.0 GB: delete or export some threads first.",
    );
    await storeFileMeta(threadId, "/mnt/user-data/outputs/a.bin", 300 * 1024 * 1024);
    const tooLarge =
      '"/mnt/user-data/outputs/a.bin" is 300.0 MB, and a backup can hold files of at most 256.0 MB: delete it, or ' +
      "download it on its own, then export.";
    await expect(harness.gateway.data.export()).rejects.toThrow(tooLarge);
    await expect(harness.gateway.bundles.export(threadId, "fawn")).rejects.toThrow(tooLarge);
  });

  it("is refused up front for too many files, under limits lowered as a test may", async () => {
    const { thread_id: threadId } = await harness.gateway.threads.create();
    for (let index = 0; index < 5; index++) await storeFileMeta(threadId, `/mnt/user-data/outputs/${index}.txt`, 1);
    const db = await openFawnDb(harness.gatewayDbName());
    const data = new DataService(indexedDbStorage(db), { limits: { ...BACKUP_LIMITS, maxEntries: 6 } });
    await expect(data.export()).rejects.toThrow(
      "Your data has 9 files, and one backup can hold at most 6: delete some threads first.",
    );
    db.close();
  });
});

describe("a backup from an earlier Fawn", () => {
  it("imports with its model endpoints and proxy as that version stored them (one endpoint apart, proxy in Web)", async () => {
    await harness.gateway.threads.create();
    // Two settings records, as many as the older backup below holds (the manifest counts them).
    await harness.gateway.settings.saveSandbox({ provider: "browser" });
    const current = await archiveBytes(harness.gateway);
    // settings.json as Fawn wrote it before store version 6.
    const legacy = tamper(current, (members) => {
      const settings = JSON.parse(strFromU8(members["settings.json"]!)) as { settings: unknown[] };
      settings.settings = [
        {
          key: "models.endpoint",
          value: {
            baseUrl: "https://older.example/v1",
            model: "old-model",
            models: [{ id: "old-reasoner", thinking: true }],
            endpoints: [{ id: "second", name: "Second", baseUrl: "https://second.example/v1", models: [{ id: "s" }] }],
          },
        },
        { key: "web.search", value: { provider: "off", proxyUrl: "https://relay.example/forward/" } },
      ];
      members["settings.json"] = strToU8(JSON.stringify(settings));
    });
    const other = await harness.freshGateway();
    const asked = await other.data.import(legacy);
    expect(asked).toMatchObject({
      additions: [
        { kind: "endpoint", name: "Main endpoint", address: "https://older.example/v1" },
        { kind: "endpoint", name: "Second", address: "https://second.example/v1" },
        { kind: "proxy", address: "https://relay.example/forward/" },
      ],
    });
    expect(await other.data.import(legacy, { acceptAdditions: true })).toMatchObject({ threads_imported: 1 });
    expect(await other.settings.getModels()).toEqual({
      endpoints: [
        {
          id: "main",
          name: "Main endpoint",
          // A backup from before providers: its endpoints are OpenAI-compatible.
          provider: "openai-compatible",
          baseUrl: "https://older.example/v1",
          apiKey: "",
          models: [{ id: "old-model" }, { id: "old-reasoner", thinking: true }],
        },
        {
          id: "second",
          name: "Second",
          provider: "openai-compatible",
          baseUrl: "https://second.example/v1",
          apiKey: "",
          models: [{ id: "s" }],
        },
      ],
      defaultModel: { endpoint: "main", model: "old-model" },
    });
    expect(await other.settings.getProxy()).toEqual({ url: "https://relay.example/forward/" });
  });
});

describe("addresses a backup would set", () => {
  /** A backup whose settings point two endpoints, SearXNG and the proxy at other hosts. */
  async function backupWithAddresses(): Promise<Uint8Array> {
    await harness.gateway.settings.saveModels(
      modelSettings({
        baseUrl: "https://elsewhere.example/v1",
        apiKey: MODEL_KEY,
        model: "mock-model",
        endpoints: [
          {
            id: "second",
            name: "Second",
            baseUrl: "https://second.example/v1",
            apiKey: "",
            models: [{ id: "mock-model" }],
          },
        ],
      }),
    );
    await harness.gateway.settings.saveProxy({ url: "https://relay.example/forward/" });
    await harness.gateway.settings.saveWebTools({
      search: { provider: "searxng", apiKey: "", baseUrl: "https://searx.example" },
      fetch: { provider: "jina", apiKey: "" },
    });
    await harness.gateway.threads.create();
    return archiveBytes(harness.gateway);
  }

  it("lists every address and writes nothing until they are accepted, then imports it all in one go", async () => {
    const archive = await backupWithAddresses();
    const other = await harness.freshGateway();
    const otherName = `data-backup-test-${Number(harness.gatewayDbName().split("-").at(-1)) + 1}`;
    const records = await storedRecords(otherName);

    const asked = await other.data.import(archive);
    expect(asked).toEqual({
      confirm: "additions",
      additions: [
        { kind: "endpoint", name: "Main endpoint", address: "https://elsewhere.example/v1" },
        { kind: "endpoint", name: "Second", address: "https://second.example/v1" },
        { kind: "web-search", name: "SearXNG", address: "https://searx.example" },
        { kind: "proxy", name: "", address: "https://relay.example/forward/" },
      ],
      message: expect.stringMatching(
        /^This backup adds what can act or send data: the endpoint Main endpoint at https/,
      ),
    });
    expect(await storedRecords(otherName)).toBe(records);
    expect(await other.threads.list()).toEqual([]);

    const result = await other.data.import(archive, { acceptAdditions: true });
    expect(result).toMatchObject({ threads_imported: 1, settings_restored: 4 });
    expect(await other.settings.getModels()).toMatchObject({
      endpoints: [
        { id: "main", baseUrl: "https://elsewhere.example/v1" },
        { id: "second", baseUrl: "https://second.example/v1" },
      ],
    });
    expect((await other.settings.getProxy()).url).toBe("https://relay.example/forward/");
  });

  it("asks only about what it would restore: settings already here are kept, and then it does not ask", async () => {
    const archive = await backupWithAddresses();
    const other = await harness.freshGateway();
    await other.settings.saveModels(
      modelSettings({ baseUrl: harness.mock.url, apiKey: "sk-mine", model: "mock-model" }),
    );
    // Only the web settings would be restored: the endpoints here stay, so they are not listed.
    expect(await other.data.import(archive)).toMatchObject({
      additions: [
        { kind: "web-search", address: "https://searx.example" },
        { kind: "proxy", address: "https://relay.example/forward/" },
      ],
    });
    await other.settings.saveWebTools({
      search: { provider: "off", apiKey: "" },
      fetch: { provider: "jina", apiKey: "" },
    });
    await other.settings.saveProxy({});
    const result = await other.data.import(archive);
    expect(result).toMatchObject({ threads_imported: 1, settings_restored: 0 });
    expect(await other.settings.getModels()).toMatchObject({
      endpoints: [{ baseUrl: harness.mock.url, apiKey: "sk-mine" }],
    });
    expect((await other.settings.getProxy()).url).toBeUndefined();
  });
});

/** The archive with `member`'s uncompressed size in the central directory set to `size`. */
function declareSize(archive: Uint8Array, member: string, size: number): Uint8Array {
  const bytes = archive.slice();
  const view = new DataView(bytes.buffer);
  const name = strToU8(member);
  for (let offset = 0; offset + 46 < bytes.length; offset++) {
    if (view.getUint32(offset, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(offset + 28, true);
    const found = bytes.subarray(offset + 46, offset + 46 + nameLength);
    if (nameLength === name.length && found.every((byte, index) => byte === name[index])) {
      view.setUint32(offset + 24, size, true);
      return bytes;
    }
  }
  throw new Error(`no ${member} in the archive`);
}

describe("delete all data", () => {
  it("deletes threads, files, memory, skills, settings and keys, in every store", async () => {
    await fillStore(harness.gateway);
    await harness.gateway.data.deleteAll();
    expect(await storedRecords(harness.gatewayDbName())).toBe(0);
    expect(await harness.gateway.threads.list()).toEqual([]);
    expect((await harness.gateway.memory.get()).facts).toEqual([]);
    expect((await harness.gateway.skills.list()).filter((skill) => skill.category === "custom")).toEqual([]);
    expect(await harness.gateway.settings.getModels()).toEqual({ endpoints: [] });
  });
});

describe("other tabs", () => {
  it("hear once that the threads were replaced, however many an import brings or a deletion takes", async () => {
    for (let i = 0; i < 3; i++) await harness.gateway.threads.create();
    const archive = await archiveBytes(harness.gateway);
    const notices: ChangeNotice[] = [];
    const other = await openGateway("data-backup-notices", { notify: (notice) => notices.push(notice) });
    await other.data.import(new Blob([archive as Uint8Array<ArrayBuffer>]), { acceptAdditions: true });
    expect(notices.filter((notice) => notice.type.startsWith("thread"))).toEqual([{ type: "threads-replaced" }]);

    notices.length = 0;
    await other.data.deleteAll();
    expect(notices.filter((notice) => notice.type.startsWith("thread"))).toEqual([{ type: "threads-replaced" }]);
    expect(await other.threads.list()).toEqual([]);
  });
});

describe("HTTP routes", () => {
  it("GET /api/data/export downloads the zip; POST /api/data/import restores it or says why not", async () => {
    const threadId = await fillStore(harness.gateway);
    const handle = createGatewayFetch(harness.gateway);
    const exported = await handle(new Request("http://fawn.local/api/data/export"));
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toBe("application/zip");
    expect(exported.headers.get("content-disposition")).toMatch(/attachment; filename="fawn-backup-.*\.zip"/);
    const archive = await exported.arrayBuffer();

    const other = createGatewayFetch(await harness.freshGateway());
    const refused = await other(new Request("http://fawn.local/api/data/import", { method: "POST", body: "nope" }));
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/not a zip archive/);
    const asked = await other(new Request("http://fawn.local/api/data/import", { method: "POST", body: archive }));
    expect(await asked.json()).toMatchObject({
      confirm: "additions",
      message: expect.stringContaining(`This backup adds what can act or send data: the endpoint Main endpoint at`),
    });
    const imported = await other(
      new Request("http://fawn.local/api/data/import?accept_additions=true", { method: "POST", body: archive }),
    );
    expect(await imported.json()).toMatchObject({ threads_imported: 1 });
    expect((await other(new Request(`http://fawn.local/api/threads/${threadId}`))).status).toBe(200);

    expect((await handle(new Request("http://fawn.local/api/data", { method: "DELETE" }))).status).toBe(200);
    expect(await harness.gateway.threads.list()).toEqual([]);
  });
});
