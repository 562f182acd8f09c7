// Fuzz of share links (docs/reliability.md, suite fuzz-share-links): a real thread's link (both forms, `t.` and `z.`)
// damaged with fast-check from a named seed — characters changed, dropped or added, cut off, wrapped in line breaks,
// percent-encoded, turned into standard base64, its prefix changed, made too long — and links that decode but hold a
// damaged bundle. Each goes the page's way: the fragment (`#share=…`) read by shareDataFromHash, then
// gateway.sharing.readLink; a link that reads is then imported (gateway.bundles.import). Reading never writes; an
// import is whole or refused; every refusal is one sentence; no case crashes or hangs. 60 cases in `npm test`, 1,000
// under `npm run reliability`.
import fc from "fast-check";
import { deflateSync, inflateSync, strToU8 } from "fflate";
import { describe, expect, it } from "vitest";
import { SHARE_LINK_MAX_CHARS } from "../../src/bundles/index.ts";
import type { Gateway } from "../../src/gateway/index.ts";
import { fromBase64Url, toBase64Url } from "../../src/shared/base64.ts";
import { shareDataFromHash } from "../../src/ui/state/shared-thread-sources.ts";
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
import { openTestGateway, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("fuzz-share-links-test");

const CASES = reliabilityCases(60, 1000);
const SEED = firstSeed();

// ---- Mutations of the link's text ----

const ODD_CHARACTERS = ["+", "/", "=", "%", " ", "\n", ".", "#", "é", "\u200B", "\uD83D", "🐝", "&", "?"];

type TextEdit =
  | { kind: "replace"; at: number; with: string }
  | { kind: "drop"; at: number; length: number }
  | { kind: "insert"; at: number; text: string }
  | { kind: "cut"; at: number }
  | { kind: "wrap"; every: number }
  | { kind: "percent" }
  | { kind: "standard-base64" }
  | { kind: "prefix"; prefix: string }
  | { kind: "case" }
  | { kind: "trailing"; text: string }
  | { kind: "too-long" };

const character = fc.oneof(
  fc.constantFrom(...ODD_CHARACTERS),
  fc.constantFrom(..."ABCxyz019-_".split("")),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }),
);

const textEdit: fc.Arbitrary<TextEdit> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), with: character }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("drop" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("insert" as const),
      at: fc.nat(),
      text: fc.string({ unit: character, minLength: 1, maxLength: 8 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("wrap" as const), every: fc.integer({ min: 20, max: 200 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: "percent" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "standard-base64" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("prefix" as const),
      prefix: fc.constantFrom("", "x.", "Z.", "T.", "z", "t..", "share=", "#share=", "zz."),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "case" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("trailing" as const),
      text: fc.constantFrom(".", ")", " ", ">", "%20", "\n"),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "too-long" as const }) },
);

function applyTextEdit(data: string, edit: TextEdit): string {
  const at = (index: number) => index % Math.max(data.length, 1);
  switch (edit.kind) {
    case "replace":
      return data.slice(0, at(edit.at)) + edit.with + data.slice(at(edit.at) + 1);
    case "drop":
      return data.slice(0, at(edit.at)) + data.slice(at(edit.at) + edit.length);
    case "insert":
      return data.slice(0, at(edit.at)) + edit.text + data.slice(at(edit.at));
    case "cut":
      return data.slice(0, at(edit.at));
    case "wrap":
      return data.replace(new RegExp(`(.{${edit.every}})`, "g"), "$1\n");
    case "percent":
      return [...data].map((char) => `%${char.charCodeAt(0).toString(16).padStart(2, "0")}`).join("");
    case "standard-base64": {
      const body = data.slice(2).replace(/-/g, "+").replace(/_/g, "/");
      return data.slice(0, 2) + body + "=".repeat((4 - (body.length % 4)) % 4);
    }
    case "prefix":
      return edit.prefix + data.slice(2);
    case "case":
      return data.toUpperCase();
    case "trailing":
      return data + edit.text;
    case "too-long":
      return data + "A".repeat(SHARE_LINK_MAX_CHARS);
  }
}

function describeTextEdit(edit: TextEdit): string {
  if (edit.kind === "replace") return `a character replaced by ${JSON.stringify(edit.with)}`;
  if (edit.kind === "drop") return `${edit.length} character(s) dropped`;
  if (edit.kind === "insert") return `${JSON.stringify(edit.text)} inserted`;
  if (edit.kind === "cut") return `cut at ${edit.at}`;
  if (edit.kind === "wrap") return `wrapped every ${edit.every} characters`;
  if (edit.kind === "prefix") return `prefix ${JSON.stringify(edit.prefix)}`;
  if (edit.kind === "trailing") return `followed by ${JSON.stringify(edit.text)}`;
  return edit.kind;
}

// ---- Links that decode, holding a damaged bundle ----

type Mutation =
  | { kind: "text"; form: "t" | "z"; edits: TextEdit[]; hashEncoded: boolean }
  | { kind: "bundle"; form: "t" | "z"; edits: ByteEdit[] };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("text" as const),
      form: fc.constantFrom("t" as const, "z" as const),
      edits: fc.array(textEdit, { minLength: 1, maxLength: 3 }),
      hashEncoded: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("bundle" as const),
      form: fc.constantFrom("t" as const, "z" as const),
      edits: fc.array(byteEdit, { minLength: 1, maxLength: 3 }),
    }),
  },
);

function describeMutation(change: Mutation): string {
  if (change.kind === "text") {
    const how = change.edits.map(describeTextEdit).join(", ");
    return `${change.form}. link: ${how}${change.hashEncoded ? " (fragment percent-encoded by the browser)" : ""}`;
  }
  return `${change.form}. link holding a damaged bundle: ${change.edits.map(describeEdit).join(", ")}`;
}

/** The link's data as the page reads it from the address: `#share=<data>`, as the browser's `location.hash` has it. */
function dataOf(change: Mutation, links: { t: string; z: string }): string {
  const link = links[change.form];
  if (change.kind === "text") {
    const data = change.edits.reduce(applyTextEdit, link);
    // location.hash percent-encodes spaces, quotes, angle brackets and non-ASCII (a lone surrogate as U+FFFD); a new
    // line never survives a URL.
    const hash = change.hashEncoded ? encodeURI(data.replace(/\n/g, "").toWellFormed()).replace(/%25/g, "%") : data;
    return shareDataFromHash(`#share=${hash}`) ?? "";
  }
  const bytes = fromBase64Url(link.slice(2)) as Uint8Array;
  if (change.form === "z") return `z.${toBase64Url(change.edits.reduce(applyByteEdit, bytes))}`;
  const inner = change.edits.reduce(applyByteEdit, inflateSync(bytes));
  return `t.${toBase64Url(deflateSync(inner, { level: 9 }))}`;
}

// ---- The cases ----

let targets = 0;

/** A Gateway over a new database that already holds a thread and a memory fact. */
async function target(): Promise<{ gateway: Gateway; name: string }> {
  const name = `fuzz-share-links-target-${targets++}`;
  const gateway = await openTestGateway(name);
  await gateway.threads.create();
  await gateway.memory.addFact({ content: "Already here" });
  return { gateway, name };
}

let into: { gateway: Gateway; name: string } | undefined;

async function linkCase(data: string): Promise<CaseOutcome> {
  into ??= await target();
  const { gateway, name } = into;
  const before = await databaseRecords(name);
  const problems: string[] = [];
  let refused = false;
  let refusal: string | undefined;
  let imported = false;
  try {
    const reading = await withinDeadline(gateway.sharing.readLink(data), 20_000);
    const opened = compareRecords(before, await databaseRecords(name));
    if (opened.added.length + opened.lost.length > 0) problems.push("reading the link wrote to the database");
    if (!reading.thread.read_only) problems.push("the shared thread is not shown read-only");
    await gateway.sharing.close(reading.thread.thread_id);
    const thread = await withinDeadline(gateway.bundles.import(reading.bundle), 20_000);
    imported = true;
    if (!(await gateway.threads.get(thread.thread_id))) problems.push("imported, but it does not open");
  } catch (error) {
    refusal = error instanceof Error ? error.message : String(error);
    refused = !imported;
    if (imported) problems.push(`imported, then it cannot be read: ${String(error)}`);
    else problems.push(...(error instanceof HangError ? [`hung: ${error.message}`] : refusalProblems(error)));
  }
  const { lost, added } = compareRecords(before, await databaseRecords(name));
  if (refused && added.length > 0) problems.push(`${added.length} record(s) left behind, e.g. ${added[0]}`);
  if (lost.length > 0) problems.push(`${lost.length} record(s) of the user's changed or gone, e.g. ${lost[0]}`);
  if (imported) into = undefined;
  return { problems, lost: lost.length, refused, refusal };
}

/** A real thread's link in both forms: packed for a link (`t.`) and the `.fawn` as it is (`z.`). */
async function realLinks(gateway: Gateway): Promise<{ t: string; z: string }> {
  const { thread_id: threadId } = await gateway.threads.create();
  await gateway.threads.upload(threadId, [{ name: "notes.txt", bytes: strToU8("bees make honey\n") }]);
  await runThread(gateway, threadId, "hello");
  await runThread(gateway, threadId, "hello again");
  const link = await gateway.sharing.link(threadId);
  if (!("data" in link) || !link.data.startsWith("t."))
    throw new Error(`expected a packed link, got ${JSON.stringify(link)}`);
  const fawn = new Uint8Array(await (await gateway.bundles.export(threadId, "fawn")).blob.arrayBuffer());
  return { t: link.data, z: `z.${toBase64Url(fawn)}` };
}

describe("share links, fuzzed", () => {
  it(`${CASES} damaged links from seed ${SEED}: read without writing, imported whole or refused in one sentence`, async () => {
    const links = await realLinks(harness.gateway);
    // Both forms read and import as they are.
    expect((await linkCase(links.t)).problems).toEqual([]);
    expect((await linkCase(links.z)).problems).toEqual([]);
    const inputs = fc.sample(mutation, { seed: SEED, numRuns: CASES });
    const tally = await runCases(
      "fuzz-share-links",
      inputs,
      (change, index) => `seed ${SEED} #${index}: ${describeMutation(change)}`,
      (change) => linkCase(dataOf(change, links)),
    );
    expect(tally.problems).toEqual([]);
    expect(tally.cases).toBe(CASES);
    expect(tally.refused).toBeGreaterThan(CASES / 2);
  }, 600_000);
});
