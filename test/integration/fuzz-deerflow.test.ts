// Fuzz of DeerFlow thread imports (docs/reliability.md, suite fuzz-deerflow): DeerFlow's demo threads
// (test/fixtures/deerflow-threads) damaged with fast-check from a named seed and imported as "Import thread" does it:
// thread.json's values replaced with wrong types, dropped or doubled; thread.json's bytes cut or flipped (read by the
// page's readThreadPick); files renamed out of user-data, doubled, too many or too large in all; the folder zipped and
// its bytes damaged. Each import either succeeds (the thread is listed and opens with its files) or is refused with one
// sentence, and nothing is written; no case crashes or hangs. 60 cases in `npm test`, 1,000 under `npm run
// reliability`.
import fc from "fast-check";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { Gateway } from "../../src/gateway/index.ts";
import { readThreadPick, ThreadImportPickError } from "../../src/ui/threads/import-thread-files.ts";
import { deerFlowFixtures, type DeerFlowFixture } from "../support/deerflow-fixtures.ts";
import { firstSeed, reliabilityCases } from "../support/reliability.ts";
import {
  applyByteEdit,
  byteEdit,
  compareRecords,
  databaseRecords,
  describeEdit,
  HangError,
  refusalProblems,
  runCases,
  withinDeadline,
  type ByteEdit,
  type CaseOutcome,
} from "./fuzz-support.ts";
import { openTestGateway } from "./harness.ts";

const CASES = reliabilityCases(60, 1000);
const SEED = firstSeed();
const FIXTURES = deerFlowFixtures();

type Input = { thread: unknown; files: { path: string; bytes: Uint8Array }[] };

// ---- Mutations ----

const WEIRD_VALUES: unknown[] = [
  null,
  "",
  -1,
  1e308,
  true,
  [],
  {},
  [null],
  "x".repeat(5000),
  "\u0000",
  "\uD800",
  "../../etc/passwd",
  "/mnt/user-data/outputs/../../x",
  "human",
  "ai",
  "tool",
  { type: "ai", content: [{ type: "thinking" }] },
  { type: "tool", content: "", tool_call_id: 7 },
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

interface JsonEdit {
  at: number;
  how: "delete" | "double" | "weird" | "json";
  weird: number;
  json: unknown;
}

const jsonEdit: fc.Arbitrary<JsonEdit> = fc.record({
  at: fc.nat(),
  how: fc.constantFrom("delete" as const, "double" as const, "weird" as const, "json" as const),
  weird: fc.nat(WEIRD_VALUES.length - 1),
  json: fc.jsonValue({ maxDepth: 2 }),
});

function applyJsonEdit(root: unknown, edit: JsonEdit): void {
  const paths = jsonPaths(root).filter((path) => path.length > 0);
  const path = paths[edit.at % Math.max(paths.length, 1)];
  if (!path) return;
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], root);
  const key = path.at(-1) as string | number;
  const holder = parent as Record<string | number, unknown>;
  if (edit.how === "delete") {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete holder[key];
  } else if (edit.how === "double" && Array.isArray(parent)) parent.push(structuredClone(holder[key]));
  else if (edit.how === "json") holder[key] = structuredClone(edit.json);
  else holder[key] = structuredClone(WEIRD_VALUES[edit.weird]);
}

const BAD_PATHS = [
  "user-data/../../etc/passwd",
  "/etc/passwd",
  "user-data/outputs\\win.txt",
  "user-data/outputs/a\u0000b",
  "user-data/outputs//double.txt",
  "user-data/outputs/",
  "user-data/secrets/key.txt",
  "thread.json",
  `user-data/outputs/${"long/".repeat(250)}x.txt`,
  "user-data/outputs/\uD800.txt",
];

type Mutation =
  | { kind: "json"; fixture: number; edits: JsonEdit[] }
  | { kind: "text"; fixture: number; edits: ByteEdit[] }
  | { kind: "rename"; fixture: number; file: number; path: number }
  | { kind: "double"; fixture: number; file: number }
  | { kind: "many"; fixture: number }
  | { kind: "huge"; fixture: number }
  | { kind: "zip"; fixture: number; edits: ByteEdit[] };

const fixture = fc.nat(FIXTURES.length - 1);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant("json" as const),
      fixture,
      edits: fc.array(jsonEdit, { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("text" as const),
      fixture,
      edits: fc.array(byteEdit, { minLength: 1, maxLength: 2 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("rename" as const),
      fixture,
      file: fc.nat(),
      path: fc.nat(BAD_PATHS.length - 1),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("double" as const), fixture, file: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("many" as const), fixture }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("huge" as const), fixture }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("zip" as const),
      fixture,
      edits: fc.array(byteEdit, { minLength: 1, maxLength: 2 }),
    }),
  },
);

function describeMutation(change: Mutation): string {
  const base = `demo thread ${change.fixture}`;
  switch (change.kind) {
    case "json":
      return `${base}, thread.json: ${change.edits.map((edit) => `${edit.how} a value`).join(", ")}`;
    case "text":
      return `${base}, thread.json's bytes: ${change.edits.map(describeEdit).join(", ")}`;
    case "rename":
      return `${base}, a file renamed ${JSON.stringify(BAD_PATHS[change.path]?.slice(0, 40))}`;
    case "double":
      return `${base}, a file doubled`;
    case "many":
      return `${base}, 2,001 files`;
    case "huge":
      return `${base}, 201 MiB of files`;
    case "zip":
      return `${base}, its folder zipped: ${change.edits.map(describeEdit).join(", ")}`;
  }
}

const MIB = new Uint8Array(1024 * 1024);

const zips = new Map<DeerFlowFixture, Uint8Array>();

/** The folder as a user zips it: thread.json beside user-data/, under the thread's folder (made once). */
function folderZip(base: DeerFlowFixture): Uint8Array {
  const made = zips.get(base);
  if (made) return made;
  const members: Record<string, Uint8Array> = { [`${base.id}/thread.json`]: strToU8(JSON.stringify(base.thread)) };
  for (const file of base.files) members[`${base.id}/${file.path}`] = file.bytes;
  const zip = zipSync(members, { level: 1 });
  zips.set(base, zip);
  return zip;
}

/** What reaches gateway.threads.importDeerFlow: directly, or through the page's reading of a pick. */
async function importInput(change: Mutation): Promise<Input> {
  const base = FIXTURES[change.fixture] as DeerFlowFixture;
  const files = base.files.map((file) => ({ ...file }));
  const at = (index: number) => index % Math.max(files.length, 1);
  switch (change.kind) {
    case "json": {
      const thread = structuredClone(base.thread) as unknown;
      for (const edit of change.edits) applyJsonEdit(thread, edit);
      return { thread, files };
    }
    case "text": {
      const bytes = change.edits.reduce(applyByteEdit, strToU8(JSON.stringify(base.thread, null, 2)));
      const pick = await readThreadPick([
        new File([bytes as Uint8Array<ArrayBuffer>], "thread.json", { type: "application/json" }),
      ]);
      if (pick.kind !== "deerflow") throw new Error("a thread.json was read as a Fawn bundle");
      return { thread: pick.input.thread, files };
    }
    case "rename":
      if (files.length > 0) files[at(change.file)]!.path = BAD_PATHS[change.path] as string;
      return { thread: base.thread, files };
    case "double":
      if (files.length > 0) files.push({ ...files[at(change.file)]! });
      return { thread: base.thread, files };
    case "many":
      for (let index = files.length; index <= 2000; index++) {
        files.push({ path: `user-data/outputs/many/${index}.txt`, bytes: new Uint8Array(0) });
      }
      return { thread: base.thread, files };
    case "huge":
      for (let index = 0; index < 201; index++) files.push({ path: `user-data/outputs/big-${index}.bin`, bytes: MIB });
      return { thread: base.thread, files };
    case "zip": {
      const bytes = change.edits.reduce(applyByteEdit, folderZip(base));
      const pick = await readThreadPick([
        new File([bytes as Uint8Array<ArrayBuffer>], `${base.id}.zip`, { type: "application/zip" }),
      ]);
      if (pick.kind !== "deerflow") throw new Error("a DeerFlow folder's zip was read as a Fawn bundle");
      return pick.input;
    }
  }
}

// ---- The database each case imports into ----

let targets = 0;

/** A Gateway over a new database that already holds a thread, an imported demo thread and a memory fact. */
async function target(): Promise<{ gateway: Gateway; name: string }> {
  const name = `fuzz-deerflow-target-${targets++}`;
  const gateway = await openTestGateway(name);
  await gateway.threads.create();
  const first = FIXTURES[0] as DeerFlowFixture;
  await gateway.threads.importDeerFlow({ thread: first.thread, files: first.files });
  await gateway.memory.addFact({ content: "Already here" });
  return { gateway, name };
}

let into: { gateway: Gateway; name: string } | undefined;

async function importCase(change: Mutation): Promise<CaseOutcome> {
  into ??= await target();
  const { gateway, name } = into;
  const before = await databaseRecords(name);
  const problems: string[] = [];
  let refused = false;
  let refusal: string | undefined;
  let imported: string | undefined;
  try {
    const input = await withinDeadline(importInput(change), 20_000);
    const thread = await withinDeadline(gateway.threads.importDeerFlow(input), 20_000);
    imported = thread.thread_id;
    // What the user sees next: the thread in the list, opening with its messages and files.
    if (!(await gateway.threads.list()).some((listed) => listed.thread_id === imported)) problems.push("not listed");
    const detail = await gateway.threads.get(imported);
    if (!detail) problems.push("imported, but it does not open");
    for (const artifact of detail?.artifacts ?? []) await gateway.threads.readFile(imported, artifact);
    for (const file of input.files) {
      const path = file.path.startsWith("/mnt/") ? file.path : `/mnt/${file.path}`;
      const read = await gateway.threads.readFile(imported, path);
      if (Buffer.compare(read.bytes, file.bytes) !== 0) problems.push(`${path} reads back other bytes`);
    }
  } catch (error) {
    refusal = error instanceof Error ? error.message : String(error);
    if (imported !== undefined) problems.push(`imported, then it cannot be read: ${String(error)}`);
    refused = imported === undefined;
    const accept = (cause: unknown) => cause instanceof ThreadImportPickError;
    if (refused)
      problems.push(...(error instanceof HangError ? [`hung: ${error.message}`] : refusalProblems(error, accept)));
  }
  const { lost, added } = compareRecords(before, await databaseRecords(name));
  if (refused && added.length > 0) problems.push(`${added.length} record(s) left behind, e.g. ${added[0]}`);
  if (lost.length > 0) problems.push(`${lost.length} record(s) of the user's changed or gone, e.g. ${lost[0]}`);
  // A thread was added: the next case imports into a database as it was.
  if (!refused) into = undefined;
  return { problems, lost: lost.length, refused, refusal };
}

describe("DeerFlow thread imports, fuzzed", () => {
  it(`${CASES} damaged demo threads from seed ${SEED}: imported whole or refused in one sentence, nothing half-written`, async () => {
    expect(FIXTURES.length).toBeGreaterThan(0);
    const inputs = fc.sample(mutation, { seed: SEED, numRuns: CASES });
    const tally = await runCases(
      "fuzz-deerflow",
      inputs,
      (change, index) => `seed ${SEED} #${index}: ${describeMutation(change)}`,
      importCase,
    );
    expect(tally.problems).toEqual([]);
    expect(tally.cases).toBe(CASES);
    expect(tally.refused).toBeGreaterThan(CASES / 4);
  }, 600_000);
});
