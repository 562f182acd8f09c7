// Property: for any store a user can make (odd but legal titles and file names, empty and large files, many threads,
// installed skills with nested files, memory facts, settings), importing its backup into an empty browser gives back
// everything the user can see and read, keys aside; and so does importing each thread's .fawn bundle.
import fc from "fast-check";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { openGateway, type Gateway } from "../../src/gateway/index.ts";
import { openFawnDb, ThreadFiles, type FawnDb } from "../../src/storage/index.ts";
import { modelSettings, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("backup-property-test");

let stores = 0;

/** A Gateway over an empty database of its own, and a second connection to read what it stored. */
async function emptyStore(): Promise<{ gateway: Gateway; db: FawnDb }> {
  const name = `backup-property-store-${stores++}`;
  return { gateway: await openGateway(name), db: await openFawnDb(name) };
}

// ---- What a user can make ----

/** A path segment: no "/", not "." or "..", and no backslash or NUL (Fawn refuses those everywhere). */
const segment = fc.oneof(
  fc.constantFrom(
    "notes.txt",
    "a b.md",
    ".hidden",
    "..dots..",
    "...",
    "trailing.",
    " leading space",
    "ünïcødé ✓.txt",
    "日本語のファイル.csv",
    "emoji 🦌🍵.json",
    "a:b.txt",
    "C:",
    "%2e%2e",
    "#hash?q=1&x=2",
    "CON",
    "name with\ttab",
    "x".repeat(180),
    "Report.MD",
    "line\nbreak",
    "line\u2028separator",
    "report.md",
  ),
  fc
    .string({ unit: "grapheme", minLength: 1, maxLength: 24 })
    .filter((name) => !/[/\\\0]/.test(name) && name !== "." && name !== ".."),
);

const area = fc.constantFrom("workspace", "uploads", "outputs");
const filePath = fc
  .tuple(area, fc.array(segment, { minLength: 1, maxLength: 4 }))
  .map(([where, segments]) => `/mnt/user-data/${where}/${segments.join("/")}`)
  .filter((path) => path.length <= 1024);

/** File contents: empty, small, or a few MB (generated from a seed, incompressible or repetitive). */
const fileBytes = fc.oneof(
  { weight: 12, arbitrary: fc.uint8Array({ maxLength: 300 }) },
  { weight: 1, arbitrary: fc.constant(new Uint8Array(0)) },
  {
    weight: 1,
    arbitrary: fc
      .record({ seed: fc.integer(), size: fc.integer({ min: 1024 * 1024, max: 3 * 1024 * 1024 }), noise: fc.boolean() })
      .map(({ seed, size, noise }) => largeBytes(seed, size, noise)),
  },
);

function largeBytes(seed: number, size: number, noise: boolean): Uint8Array {
  const bytes = new Uint8Array(size);
  let state = seed >>> 0 || 1;
  for (let index = 0; index < size; index++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[index] = noise ? state & 0xff : 97 + (index % 23);
  }
  return bytes;
}

const title = fc
  .oneof(
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 200 }),
    fc.constantFrom("../../etc/passwd", "threads/x/thread.json", "C:\\Windows", "🦌 ".repeat(60), "a/b\\c:d*e?f"),
  )
  .filter((text) => {
    const clean = text.replace(/\s+/g, " ").trim();
    return clean.length > 0 && clean.length <= 200;
  });

const thread = fc.record({
  title,
  pinned: fc.boolean(),
  message: fc.option(fc.string({ minLength: 1, maxLength: 60 }), { freq: 3 }),
  files: fc.uniqueArray(fc.record({ path: filePath, bytes: fileBytes }), {
    maxLength: 5,
    selector: (file) => file.path,
  }),
});

/** A skill's own files besides SKILL.md, as an installer stores them (canonical relative paths). */
const skillFilePath = fc
  .array(
    segment.filter((name) => !name.includes(":")),
    { minLength: 1, maxLength: 3 },
  )
  .map((segments) => segments.join("/"))
  .filter((path) => path !== "SKILL.md" && !path.endsWith("/SKILL.md"));

const skill = fc.record({
  name: fc.stringMatching(/^[a-z][a-z0-9]{0,10}(-[a-z0-9]{1,8}){0,2}$/),
  description: fc.string({ minLength: 1, maxLength: 80 }).filter((text) => text.trim() !== "" && !/[<>]/.test(text)),
  files: fc.uniqueArray(fc.record({ path: skillFilePath, bytes: fc.uint8Array({ maxLength: 200 }) }), {
    maxLength: 4,
    selector: (file) => file.path.toLowerCase(),
  }),
});

const store = fc.record({
  threads: fc.array(thread, { maxLength: 25 }),
  skills: fc.uniqueArray(skill, { maxLength: 3, selector: (item) => item.name }),
  facts: fc.uniqueArray(
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 80 }).filter((text) => text.trim() !== ""),
    {
      maxLength: 5,
      selector: (text) => text.replace(/\s+/g, " ").trim().toLowerCase(),
    },
  ),
  searchProvider: fc.constantFrom("off", "tavily", "searxng"),
  sandboxProvider: fc.constantFrom("browser", "webcontainer"),
  subagentTimeout: fc.integer({ min: 10, max: 7200 }),
  memoryDebounce: fc.integer({ min: 0, max: 3600 }),
});

type Store = typeof store extends fc.Arbitrary<infer T> ? T : never;

async function fill(gateway: Gateway, db: FawnDb, contents: Store): Promise<void> {
  await gateway.settings.saveModels(
    modelSettings({
      baseUrl: harness.mock.url,
      apiKey: "sk-property-MAIN",
      model: "mock-model",
      endpoints: [
        { id: "second", name: "Second", baseUrl: harness.mock.url, apiKey: "sk-property-2", models: [{ id: "m2" }] },
      ],
    }),
  );
  const search =
    contents.searchProvider === "searxng"
      ? { provider: "searxng" as const, apiKey: "", baseUrl: "https://searx.example" }
      : { provider: contents.searchProvider as "off" | "tavily", apiKey: "tvly-property" };
  await gateway.settings.saveWebTools({ search, fetch: { provider: "jina", apiKey: "jina-property" } });
  await gateway.settings.saveSandbox({ provider: contents.sandboxProvider as "browser" | "webcontainer" });
  const subagents = await gateway.settings.getSubagents();
  await gateway.settings.saveSubagents({ ...subagents, timeoutSeconds: contents.subagentTimeout });
  // Learning off: an update after a run would call the model once the test is over.
  const memory = await gateway.memory.getSettings();
  await gateway.memory.saveSettings({ ...memory, enabled: false, debounceSeconds: contents.memoryDebounce });
  const files = new ThreadFiles(db);
  for (const item of contents.threads) {
    const { thread_id: threadId } = await gateway.threads.create();
    if (item.message !== null) await runThread(gateway, threadId, item.message);
    await gateway.threads.rename(threadId, item.title);
    if (item.pinned) await gateway.threads.pin(threadId, true);
    if (item.files.length > 0) await files.write(threadId, item.files);
  }
  for (const item of contents.skills) {
    const skillMd = `---\nname: ${item.name}\ndescription: ${JSON.stringify(item.description)}\n---\n\n# ${item.name}\n`;
    const members: Record<string, Uint8Array> = { "SKILL.md": strToU8(skillMd) };
    for (const file of item.files) members[file.path] = file.bytes;
    await gateway.skills.install({ name: `${item.name}.skill`, bytes: zipSync(members) });
  }
  for (const fact of contents.facts) await gateway.memory.addFact({ content: fact });
}

// ---- What the user sees ----

/** Everything one thread shows: its details and every file, bytes and meta. */
async function threadView(gateway: Gateway, db: FawnDb, threadId: string): Promise<unknown> {
  const files = await new ThreadFiles(db).readAll(threadId);
  return {
    detail: await gateway.threads.get(threadId),
    files: files.map(({ bytes, meta }) => ({ ...meta, bytes: Buffer.from(bytes).toString("base64") })),
  };
}

/** A thread's view as a `.fawn` import shows it: the same, read-only. */
function asImported(threadView: unknown): unknown {
  const { detail, files } = threadView as { detail: object; files: unknown };
  return { detail: { ...detail, read_only: true }, files };
}

/** Everything the user sees and reads, with keys blanked (a backup never carries them). */
async function view(gateway: Gateway, db: FawnDb): Promise<unknown> {
  const threads = await gateway.threads.list();
  const models = await gateway.settings.getModels();
  const web = await gateway.settings.getWebTools();
  const memory = await gateway.memory.get();
  const skills = await db.getAll("skills");
  return {
    threads,
    details: await Promise.all(threads.map((item) => threadView(gateway, db, item.thread_id))),
    skills: await gateway.skills.list(),
    skillFiles: skills.map((item) => ({
      name: item.name,
      files: Object.entries(item.files)
        .map(([path, bytes]) => [path, Buffer.from(bytes).toString("base64")])
        .sort(),
    })),
    facts: memory.facts,
    memorySections: [memory.user, memory.history],
    models: { ...models, endpoints: models.endpoints.map((endpoint) => ({ ...endpoint, apiKey: "" })) },
    web: { search: { ...web.search, apiKey: "" }, fetch: { ...web.fetch, apiKey: "" } },
    proxy: await gateway.settings.getProxy(),
    sandbox: await gateway.settings.getSandbox(),
    subagents: await gateway.settings.getSubagents(),
    memorySettings: await gateway.memory.getSettings(),
  };
}

describe("a backup restores what it was made from", () => {
  it("import(export(store)) shows the same threads, files, skills, memory and settings, keys aside", async () => {
    await fc.assert(
      fc.asyncProperty(store, async (contents) => {
        const source = await emptyStore();
        await fill(source.gateway, source.db, contents);
        const backup = await source.gateway.data.export();
        const target = await emptyStore();
        const result = await target.gateway.data.import(backup.blob, { acceptAdditions: true });
        expect(result).toMatchObject({ threads_imported: contents.threads.length });
        expect(await view(target.gateway, target.db)).toEqual(await view(source.gateway, source.db));
      }),
      { numRuns: 30 },
    );
  }, 120_000);

  it("import(export(thread)) as .fawn shows the same thread and files, in another browser", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(thread, { minLength: 1, maxLength: 4 }), async (threads) => {
        const source = await emptyStore();
        await fill(source.gateway, source.db, {
          threads,
          skills: [],
          facts: [],
          searchProvider: "off",
          sandboxProvider: "browser",
          subagentTimeout: 900,
          memoryDebounce: 30,
        });
        const target = await emptyStore();
        for (const { thread_id: threadId } of await source.gateway.threads.list()) {
          const bundle = await source.gateway.bundles.export(threadId, "fawn");
          const imported = await target.gateway.bundles.import(bundle.blob);
          expect(imported.thread_id).toBe(threadId);
          expect(await threadView(target.gateway, target.db, threadId)).toEqual(
            asImported(await threadView(source.gateway, source.db, threadId)),
          );
        }
        expect(await target.gateway.threads.list()).toEqual(
          (await source.gateway.threads.list()).map((thread) => ({ ...thread, read_only: true })),
        );
      }),
      { numRuns: 30 },
    );
  }, 120_000);
});

describe("names the property found", () => {
  const names = [
    "/mnt/user-data/outputs/a:b.txt",
    "/mnt/user-data/workspace/C:/x",
    "/mnt/user-data/outputs/line\nbreak.md",
    "/mnt/user-data/uploads/sep\u2028arator.txt",
  ];

  it("a file named with ':' or a line break comes back from a backup and from a .fawn", async () => {
    const source = await emptyStore();
    const { thread_id: threadId } = await source.gateway.threads.create();
    await new ThreadFiles(source.db).write(
      threadId,
      names.map((path) => ({ path, bytes: strToU8(path) })),
    );
    const backup = await emptyStore();
    await backup.gateway.data.import((await source.gateway.data.export()).blob);
    const bundle = await emptyStore();
    await bundle.gateway.bundles.import((await source.gateway.bundles.export(threadId, "fawn")).blob);
    const expected = await threadView(source.gateway, source.db, threadId);
    expect(await threadView(backup.gateway, backup.db, threadId)).toEqual(expected);
    expect(await threadView(bundle.gateway, bundle.db, threadId)).toEqual(asImported(expected));
  });

  it("a file whose name is not valid Unicode is refused when stored, and by export with its name", async () => {
    const source = await emptyStore();
    const { thread_id: threadId } = await source.gateway.threads.create();
    const lone = "/mnt/user-data/outputs/half\uD83E.txt";
    await expect(new ThreadFiles(source.db).write(threadId, [{ path: lone, bytes: strToU8("x") }])).rejects.toThrow(
      /a path must be valid Unicode text/,
    );
    // As a Fawn from before the rule stored it: export names it rather than write a backup that cannot restore.
    await source.db.put("thread_files", { thread_id: threadId, path: lone, bytes: strToU8("x") });
    await source.db.put("thread_file_meta", {
      thread_id: threadId,
      path: lone,
      size: 1,
      sha256: "",
      mimeType: "text/plain",
      mtime: 0,
    });
    const refusal =
      /holds the file "\/mnt\/user-data\/outputs\/half\\ud83e\.txt", which Fawn cannot export \(a path must be valid Unicode text\): rename or delete it, then export\.$/;
    await expect(source.gateway.data.export()).rejects.toThrow(refusal);
    await expect(source.gateway.bundles.export(threadId, "fawn")).rejects.toThrow(refusal);
  });
});
