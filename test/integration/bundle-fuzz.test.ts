// Fuzz: 1,000 mutated .fawn bundles and 1,000 mutated backups, made from real ones with a fixed seed (bytes flipped,
// cut, inserted; zip sizes and names patched; JSON records given wrong types, missing fields and huge numbers; members
// renamed out of their folder, duplicated, case-clashed, dropped or added; file bytes changed under their meta). Each
// import either succeeds or refuses with one clear sentence (user-facing), and a refusal leaves every store of the
// database exactly as it was. And 40 bundles crafted to end on a pending `bash` call (run records, heads and flags
// set every way a bundle can set them): none of the calls ever runs, and neither the thread nor its copy offers
// Continue.
import { strFromU8, strToU8, unzipSync, Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { describe, expect, it } from "vitest";
import { openGateway, type Gateway } from "../../src/gateway/index.ts";
import { unansweredToolCalls, type WireMessage } from "../../src/protocol/index.ts";
import { isUserFacing } from "../../src/shared/user-error.ts";
import { BACKUP_COVERAGE } from "../../src/storage/backup-store.ts";
import { openFawnDb, ThreadRepository, type FawnDb } from "../../src/storage/index.ts";
import { modelSettings, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("bundle-fuzz-test");

const CASES = 1000;
const SKILL = "---\nname: fuzz-skill\ndescription: A skill to fuzz.\n---\n\n# Fuzz\n";

// ---- A seeded source of choices (mulberry32) ----

class Random {
  constructor(private state: number) {}

  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
}

// ---- Zip bytes, member by member ----

type Member = [name: string, data: Uint8Array];

/** A zip of `members` in order (duplicate names kept), each stored or deflated by chance. */
function zipMembers(members: readonly Member[], random: Random): Uint8Array {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    chunks.push(chunk);
  });
  for (const [name, data] of members) {
    const member = random.int(2) === 0 ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 1 });
    zip.add(member);
    member.push(data, true);
  }
  zip.end();
  return Buffer.concat(chunks);
}

/** Offsets of the central directory's entries. */
function centralEntries(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const offsets: number[] = [];
  for (let offset = 0; offset + 46 <= bytes.length; offset++) {
    if (view.getUint32(offset, true) === 0x02014b50) offsets.push(offset);
  }
  return offsets;
}

// ---- Mutations ----

const WEIRD_VALUES: unknown[] = [
  null,
  "",
  -1,
  0,
  1.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 53,
  true,
  [],
  {},
  [null],
  { $bytes: "!!!" },
  { $bytes: "AAAA" },
  "x".repeat(5000),
  "../../etc/passwd",
  "/mnt/user-data/outputs/../../x",
  "C:\\evil",
  "\u0000",
  "\uD800",
  "fawn-backup",
  "fawn-thread",
  "busy",
  "message",
  "value",
  "messages",
];

/** Every path to a value inside a JSON document. */
function jsonPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const paths: (string | number)[][] = [prefix];
  if (Array.isArray(value)) value.forEach((item, index) => paths.push(...jsonPaths(item, [...prefix, index])));
  else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) paths.push(...jsonPaths(item, [...prefix, key]));
  }
  return paths;
}

/** The JSON document with one value replaced, deleted, or (for arrays) doubled. */
function mutateJson(data: Uint8Array, random: Random): Uint8Array {
  const choice = random.int(10);
  if (choice === 0) return data.subarray(0, random.int(data.length));
  if (choice === 1) return Uint8Array.from([0xff, 0xfe, ...data.subarray(0, 40)]);
  let root: unknown;
  try {
    root = JSON.parse(new TextDecoder().decode(data));
  } catch {
    return data.subarray(1);
  }
  const paths = jsonPaths(root).filter((path) => path.length > 0);
  if (paths.length === 0) return strToU8(JSON.stringify(random.pick(WEIRD_VALUES)));
  for (let edit = 0; edit <= random.int(3); edit++) {
    const path = random.pick(paths);
    const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], root);
    if (typeof parent !== "object" || parent === null) continue;
    const key = path.at(-1) as string | number;
    const holder = parent as Record<string | number, unknown>;
    const how = random.int(4);
    if (how === 0 && !Array.isArray(parent)) delete holder[key];
    else if (how === 1 && Array.isArray(parent)) parent.push(structuredClone(holder[key]));
    else if (how === 2 && typeof holder[key] === "number") holder[key] = (holder[key] as number) * 1e12 + 1;
    else holder[key] = structuredClone(random.pick(WEIRD_VALUES));
  }
  return strToU8(JSON.stringify(root));
}

const RENAMES: ((name: string, random: Random) => string)[] = [
  (name) => `../${name}`,
  (name) => `/${name}`,
  (name) => name.replaceAll("/", "\\"),
  (name) => name.replace("/", "/./"),
  (name) => name.replace("/", "//"),
  (name) => name.toUpperCase(),
  (name) => `${name}/`,
  (name) => `C:/${name}`,
  (name) => name.replace(/^threads\/[^/]+/, "threads/other-thread"),
  (name) => name.replace(/^threads\/[^/]+/, "threads/bad id!"),
  (name) => name.replace("/files/mnt/user-data/", "/files/mnt/user-data/../"),
  (name) => name.replace("/files/mnt/user-data/uploads/", "/files/etc/"),
  (name) => name.replace(/^skills\/[^/]+/, "skills/another-skill"),
  (name) => name.replace(/\/files\//, "/files/../"),
  (name, random) => `${name}${String.fromCharCode(0x20 + random.int(0x5f))}`,
];

const EXTRA_NAMES = [
  "README.txt",
  "threads/",
  "threads/x/thread.json",
  "threads/x/files/mnt/user-data/outputs/a.txt",
  "skills/new-skill/skill.json",
  "skills/new-skill/files/SKILL.md",
  "__MACOSX/._manifest.json",
  "settings.json",
  "memory.json",
  "manifest.json",
];

/** One change to the archive's members. */
function mutateMembers(members: Member[], random: Random): void {
  const index = random.int(members.length);
  const [name, data] = members[index] as Member;
  switch (random.int(8)) {
    case 0:
    case 1:
    case 2: {
      // A JSON record changed (the manifest, a thread's records, settings, memory or a skill's record).
      const json = members.map((member, at) => [member, at] as const).filter(([[item]]) => item.endsWith(".json"));
      const [[jsonName, jsonData], at] = random.pick(json);
      members[at] = [jsonName, mutateJson(jsonData, random)];
      return;
    }
    case 3:
      members[index] = [random.pick(RENAMES)(name, random), data];
      return;
    case 4:
      // The same name twice, or a name that differs only in case.
      members.push([random.int(2) === 0 ? name : name.replace(/[a-z]/, (letter) => letter.toUpperCase()), data]);
      return;
    case 5:
      members.push([random.pick(EXTRA_NAMES), random.int(2) === 0 ? data : strToU8("{}")]);
      return;
    case 6:
      members.splice(index, 1);
      return;
    default: {
      // A file's bytes changed under its meta: longer, shorter or the same length.
      const files = members.map((member, at) => [member, at] as const).filter(([[item]]) => item.includes("/files/"));
      if (files.length === 0) return;
      const [[fileName, fileData], at] = random.pick(files);
      const changed = [
        fileData.subarray(0, fileData.length - 1),
        Uint8Array.from([...fileData, 7]),
        fileData.map((b) => b ^ 1),
      ];
      members[at] = [fileName, random.pick(changed)];
    }
  }
}

/** One change to the zip's bytes. */
function mutateBytes(archive: Uint8Array, random: Random): Uint8Array {
  const bytes = archive.slice();
  const view = new DataView(bytes.buffer);
  switch (random.int(5)) {
    case 0:
      for (let flip = 0; flip <= random.int(8); flip++) {
        const at = random.int(bytes.length);
        bytes[at] = (bytes[at] ?? 0) ^ (1 + random.int(255));
      }
      return bytes;
    case 1:
      return bytes.subarray(0, random.int(bytes.length));
    case 2: {
      const at = random.int(bytes.length);
      return Buffer.concat([
        bytes.subarray(0, at),
        Buffer.alloc(1 + random.int(64), random.int(256)),
        bytes.subarray(at),
      ]);
    }
    case 3: {
      // A declared size, compressed size, name length or offset in the central directory.
      const entries = centralEntries(bytes);
      if (entries.length === 0) return bytes;
      const entry = random.pick(entries);
      const field = random.pick([20, 24, 28, 42]);
      const value = random.pick([0, 1, 0xffff, 0x7fffffff, 0xffffffff, 0xc0000000, 300 * 1024 * 1024]);
      if (field === 28) view.setUint16(entry + field, value & 0xffff, true);
      else view.setUint32(entry + field, value >>> 0, true);
      return bytes;
    }
    default: {
      const at = random.int(bytes.length);
      bytes.fill(random.pick([0, 0xff]), at, at + 1 + random.int(32));
      return bytes;
    }
  }
}

/** The `seed`th mutation of `archive`: one to three changes, to the members or to the zip's bytes. */
function mutant(archive: Uint8Array, seed: number): Uint8Array {
  const random = new Random(seed);
  if (random.int(10) < 3) return mutateBytes(archive, random);
  const members: Member[] = Object.entries(unzipSync(archive));
  for (let change = 0; change <= random.int(3); change++) if (members.length > 0) mutateMembers(members, random);
  const zipped = zipMembers(members, random);
  return random.int(8) === 0 ? mutateBytes(zipped, random) : zipped;
}

// ---- The database, store by store ----

/** Every record of every store, keys included, as one string. */
async function snapshot(db: FawnDb): Promise<string> {
  const stores: Record<string, unknown> = {};
  for (const name of Object.keys(BACKUP_COVERAGE) as (keyof typeof BACKUP_COVERAGE)[]) {
    stores[name] = [await db.getAllKeys(name), await db.getAll(name)];
  }
  return JSON.stringify(stores, (_key, value: unknown) =>
    value instanceof Uint8Array ? `bytes:${Buffer.from(value).toString("base64")}` : value,
  );
}

/** Why `message` is not one clear sentence for the user, or undefined when it is. */
function unclear(message: string): string | undefined {
  if (message.trim() === "") return "empty";
  if (!message.endsWith(".")) return "does not end with '.'";
  if (/\n\s*at\s/.test(message)) return "holds a stack";
  if (/\[object |\bundefined\b|\bNaN\b/.test(message)) return "holds [object, undefined or NaN";
  if (
    /TypeError|RangeError|SyntaxError|DOMException|DataError|Cannot read|is not a function|Unexpected token/.test(
      message,
    )
  ) {
    return "holds raw exception text";
  }
  return undefined;
}

let targets = 0;

/** A Gateway over a database that already holds a thread, a memory fact and a setting. */
async function target(): Promise<{ gateway: Gateway; db: FawnDb }> {
  const name = `bundle-fuzz-target-${targets++}`;
  const gateway = await openGateway(name);
  await gateway.threads.create();
  await gateway.memory.addFact({ content: "Already here" });
  await gateway.settings.saveSandbox({ provider: "browser" });
  return { gateway, db: await openFawnDb(name) };
}

interface Tally {
  cases: number;
  imported: number;
  refused: number;
  problems: string[];
}

/** Imports each mutant into `target`s; a success moves on to a fresh one. */
async function fuzz(
  archive: Uint8Array,
  firstSeed: number,
  importInto: (gateway: Gateway, bytes: Uint8Array, seed: number) => Promise<unknown>,
): Promise<Tally> {
  const tally: Tally = { cases: 0, imported: 0, refused: 0, problems: [] };
  let into = await target();
  let before = await snapshot(into.db);
  for (let seed = firstSeed; seed < firstSeed + CASES; seed++) {
    tally.cases += 1;
    const bytes = mutant(archive, seed);
    try {
      await importInto(into.gateway, bytes, seed);
    } catch (error) {
      tally.refused += 1;
      if (!isUserFacing(error)) {
        tally.problems.push(`seed ${seed}: crashed with ${String(error)}`);
      } else {
        const why = unclear(error.message);
        if (why) tally.problems.push(`seed ${seed}: ${why}: ${error.message}`);
      }
      if ((await snapshot(into.db)) !== before) {
        tally.problems.push(`seed ${seed}: partial write after ${String(error)}`);
        into = await target();
        before = await snapshot(into.db);
      }
      continue;
    }
    tally.imported += 1;
    // What was imported can be read: the list and each thread.
    try {
      for (const thread of await into.gateway.threads.list()) await into.gateway.threads.get(thread.thread_id);
    } catch (error) {
      tally.problems.push(`seed ${seed}: imported, then the thread cannot be read: ${String(error)}`);
    }
    into = await target();
    before = await snapshot(into.db);
  }
  return tally;
}

/** A real store: a thread with an upload, replies, an output and a plan; a memory fact, a skill, settings. */
async function realArchives(gateway: Gateway): Promise<{ bundle: Uint8Array; backup: Uint8Array }> {
  const { thread_id: threadId } = await gateway.threads.create();
  await gateway.threads.upload(threadId, [{ name: "notes.txt", bytes: strToU8("bees make honey\n") }]);
  const todos = [{ content: "Read the notes", status: "in_progress" }];
  await runThread(gateway, threadId, `call tool write_todos ${JSON.stringify({ todos })}`, undefined, { mode: "pro" });
  await runThread(gateway, threadId, "hello");
  await gateway.memory.addFact({ content: "User keeps bees" });
  await gateway.skills.install({
    name: "fuzz-skill.skill",
    bytes: zipSyncPlain({ "SKILL.md": strToU8(SKILL), "docs/a.md": strToU8("a") }),
  });
  const bytes = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());
  return {
    bundle: await bytes((await gateway.bundles.export(threadId, "fawn")).blob),
    backup: await bytes((await gateway.data.export()).blob),
  };
}

function zipSyncPlain(files: Record<string, Uint8Array>): Uint8Array {
  return zipMembers(Object.entries(files), new Random(1));
}

describe("mutated archives", () => {
  it("1,000 bundles and 1,000 backups: no crash, no unclear refusal, no partial write", async () => {
    const { bundle, backup } = await realArchives(harness.gateway);
    const bundles = await fuzz(bundle, 1, (gateway, bytes) => gateway.bundles.import(bytes));
    const backups = await fuzz(backup, 100_001, (gateway, bytes, seed) =>
      gateway.data.import(bytes, { acceptAdditions: seed % 2 === 0 }),
    );
    expect(bundles.problems).toEqual([]);
    expect(backups.problems).toEqual([]);
    expect([bundles.cases, backups.cases]).toEqual([CASES, CASES]);
    // Most mutations are refused; some (a byte of a stored file's contents, a title) still make a valid archive.
    expect(bundles.refused).toBeGreaterThan(CASES / 2);
    expect(backups.refused).toBeGreaterThan(CASES / 2);
  }, 240_000);
});

// ---- Crafted bundles that end on a pending tool call ----

const PENDING_CASES = 40;
const PWNED = "/mnt/user-data/workspace/pwned.txt";

/** A real `.fawn` of a thread cut off while its `bash` call ran (its run left marked running). */
async function pendingBundle(gateway: Gateway, dbName: string): Promise<Uint8Array> {
  const thread = await gateway.threads.create();
  const runId = crypto.randomUUID();
  const command = `sleep 1; echo ran > ${PWNED}`;
  await gateway.runs.stream(
    {
      run_id: runId,
      thread_id: thread.thread_id,
      input: {
        messages: [{ type: "human", content: `call tool bash ${JSON.stringify({ description: "x", command })}` }],
      },
    },
    (event) => {
      const last = event.event === "values" ? event.data.messages.at(-1) : undefined;
      if (last?.type === "ai" && (last.tool_calls?.length ?? 0) > 0) void gateway.runs.cancel(runId);
    },
  );
  const db = await openFawnDb(dbName);
  const repository = new ThreadRepository(db);
  const record = (await repository.runs(thread.thread_id)).at(-1);
  if (!record) throw new Error("no run record");
  await repository.recordRun({ ...record, status: "running" });
  db.close();
  return new Uint8Array(await (await gateway.bundles.export(thread.thread_id, "fawn")).blob.arrayBuffer());
}

type Json = Record<string, unknown>;

/** The bundle with its thread's records set as a crafted one might: run states, heads, `imported` flags. */
function craftedPending(bundle: Uint8Array, seed: number): Uint8Array {
  const random = new Random(seed);
  const members = unzipSync(bundle);
  const name = Object.keys(members).find((member) => member.endsWith("/thread.json")) as string;
  const records = JSON.parse(strFromU8(members[name] as Uint8Array)) as {
    thread: Json;
    runs: Json[];
    checkpoints: Json[];
  };
  const ids = records.checkpoints.map((checkpoint) => checkpoint.checkpoint_id as string);
  const anyId = () => random.pick(ids);
  if (random.int(2) === 0) records.runs.push({ ...records.runs[0], run_id: `run-${seed}`, created_at: 4e12 });
  for (const run of records.runs) {
    run.status = random.pick(["running", "running", "error", "success", "interrupted"]);
    if (run.status === "error")
      run.error = { error: random.pick(["unknown", "unreachable", "server_error"]), message: "x" };
    const imported = random.pick([undefined, false, 0, "no"]);
    if (imported === undefined) delete run.imported;
    else run.imported = imported;
    if (random.int(3) === 0) run.end = anyId();
    if (random.int(4) === 0) Object.assign(run, { kind: "resume", continues: run.run_id });
  }
  const head = random.pick([undefined, undefined, ...ids]);
  if (head === undefined) delete records.thread.head;
  else records.thread.head = head;
  records.thread.status = random.pick(["busy", "idle", "error"]);
  for (const checkpoint of records.checkpoints) if (random.int(2) === 0) checkpoint.imported = false;
  return zipMembers(Object.entries({ ...members, [name]: strToU8(JSON.stringify(records)) }), random);
}

function lastMessages(entries: { kind: string; message?: WireMessage }[] | undefined): WireMessage[] {
  return (entries ?? []).flatMap((entry) => (entry.kind === "message" && entry.message ? [entry.message] : []));
}

async function holds(gateway: Gateway, threadId: string, path: string): Promise<boolean> {
  try {
    await gateway.threads.readFile(threadId, path);
    return true;
  } catch {
    return false;
  }
}

describe("crafted bundles ending on a pending tool call", () => {
  it("40 of them: the call is closed, nothing offers Continue, and no resumption runs it", async () => {
    const bundle = await pendingBundle(harness.gateway, harness.gatewayDbName());
    const problems: string[] = [];
    for (let seed = 1; seed <= PENDING_CASES; seed++) {
      // A browser with a model and a sandbox, where a resumed call would run.
      const gateway = await harness.freshGateway();
      await gateway.settings.saveModels(
        modelSettings({ baseUrl: harness.mock.url, apiKey: "sk-test", model: "mock-model" }),
      );
      const imported = await gateway.bundles.import(craftedPending(bundle, seed));
      const copy = await gateway.bundles.continueThread(imported.thread_id);
      for (const threadId of [imported.thread_id, copy.thread_id]) {
        const detail = await gateway.threads.get(threadId);
        if (detail?.resumable) problems.push(`seed ${seed}: ${threadId} offers Continue`);
        if (unansweredToolCalls(lastMessages(detail?.entries)).length > 0) {
          problems.push(`seed ${seed}: ${threadId} shows a call without a result`);
        }
        await gateway.runs.stream(
          { run_id: crypto.randomUUID(), thread_id: threadId, input: { messages: [] }, branch: { kind: "resume" } },
          () => undefined,
        );
        if (await holds(gateway, threadId, PWNED)) problems.push(`seed ${seed}: the call ran in ${threadId}`);
      }
    }
    expect(problems).toEqual([]);
  }, 240_000);
});
