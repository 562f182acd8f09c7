// Fuzz of skill archives (docs/reliability.md, suite fuzz-skills): a real shipped skill zipped as a user would, then
// damaged with fast-check from a named seed (bytes flipped or cut, zip directory sizes patched, members renamed to
// unsafe paths, doubled, dropped or nested, an executable, a zip bomb, too many entries, SKILL.md's frontmatter broken
// every way) and installed through Settings → Skills' path (gateway.skills.install over fake-indexeddb). Each install
// either succeeds (the skill is listed, and deleting it leaves the database as it was) or is refused with one
// sentence and writes nothing; no case crashes or hangs. 60 cases in `npm test`, 1,000 under `npm run reliability`.
import fc from "fast-check";
import { strToU8 } from "fflate";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { canonicalMemberPath } from "../../src/shared/zip-safety.ts";
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
  zipMembers,
  zipOfShared,
  type ByteEdit,
  type CaseOutcome,
  type Member,
} from "./fuzz-support.ts";
import { useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("fuzz-skills-test");

const CASES = reliabilityCases(60, 1000);
const SEED = firstSeed();

/** A shipped skill's folder as a user zips it, renamed so it does not clash with the shipped one. */
function realSkill(): Member[] {
  const root = new URL("../../skills/public/data-analysis", import.meta.url).pathname;
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) =>
      statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)],
    );
  return walk(root).map((path) => {
    let data = new Uint8Array(readFileSync(path));
    if (path.endsWith("SKILL.md"))
      data = strToU8(new TextDecoder().decode(data).replace(/^name: .*$/m, "name: fuzzed-analysis"));
    return [`fuzzed-analysis/${relative(root, path)}`, data];
  });
}

const BASE = realSkill();
const SKILL_MD = BASE.find(([name]) => name.endsWith("/SKILL.md"))?.[1] as Uint8Array;

// Made once: an archive of 12 members of 9 MiB of zeros (each under the per-file limit, 108 MiB in all), and one of
// 4,100 tiny members.
let BOMB: Uint8Array | undefined;
let MANY: Uint8Array | undefined;

function zipBomb(members: Member[]): Uint8Array {
  const zeros = new Uint8Array(9 * 1024 * 1024);
  for (let index = 0; index < 12; index++) members.push([`fuzzed-analysis/zeros-${index}.bin`, zeros]);
  return zipOfShared(members);
}

function zipOfMany(members: Member[]): Uint8Array {
  for (let index = 0; index < 4100; index++) members.push([`fuzzed-analysis/many/${index}.txt`, new Uint8Array(0)]);
  return zipOfShared(members);
}

const FRONTMATTER_EDITS: ((text: string) => string)[] = [
  (text) => text.replace(/^name: .*$/m, ""),
  (text) => text.replace(/^name: .*$/m, "name: Not Hyphen Case"),
  (text) => text.replace(/^name: .*$/m, `name: ${"a".repeat(200)}`),
  (text) => text.replace(/^name: .*$/m, "name: [1, 2]"),
  (text) => text.replace(/^name: .*$/m, "name: data-analysis"),
  (text) => text.replace(/^name: .*$/m, "name: ../../escape"),
  (text) => text.replace(/^description: .*$/m, ""),
  (text) => text.replace(/^description: .*$/m, `description: ${"d".repeat(2000)}`),
  (text) => text.replace(/^description: .*$/m, "description: { a: 1 }"),
  (text) => text.replace(/^---\n/, ""),
  (text) => text.replace(/\n---\n/, "\n"),
  (text) => text.replace(/^---\n/, "---\nunknown-key: 1\n"),
  (text) => text.replace(/^---\n/, "---\nname: twice\n"),
  (text) => text.replace(/^---\n/, "---\n\t: :\n  - [\n"),
  (text) =>
    text.replace(
      /^---\n/,
      '---\na: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n',
    ),
  (text) => `\uFEFF${text.replaceAll("\n", "\r\n")}`,
  (text) => text.replace(/^---\n[\s\S]*?\n---\n/, "---\n---\n"),
  () => "",
  (text) => text.slice(0, 30),
  (text) => text.replace(/^name: .*$/m, "name: \u0000bad"),
];

const UNSAFE_NAMES = [
  "../outside.md",
  "/etc/passwd",
  "C:\\evil.md",
  "fuzzed-analysis\\back.md",
  "fuzzed-analysis/../../up.md",
  "fuzzed-analysis/a\u0000b.md",
  "fuzzed-analysis/./docs//dup.md",
  "fuzzed-analysis/sub/SKILL.md",
  "other-folder/x.md",
  "fuzzed-analysis/\u202Eevil.md",
  "__MACOSX/fuzzed-analysis/._SKILL.md",
  ".hidden",
];

type SkillMutation =
  | { kind: "bytes"; edits: ByteEdit[] }
  | { kind: "frontmatter"; edit: number }
  | { kind: "rename"; member: number; name: string }
  | { kind: "add"; name: string; data: "text" | "elf" | "big" | "empty" }
  | { kind: "double"; member: number; caseOnly: boolean }
  | { kind: "drop"; member: number }
  | { kind: "bomb" }
  | { kind: "many" }
  | { kind: "file-name"; name: string };

// Weighted so the costly limits (a bomb inflates up to the 100 MiB limit before it is refused) stay rare.
const mutation: fc.Arbitrary<SkillMutation> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant("bytes" as const),
      edits: fc.array(byteEdit, { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 12,
    arbitrary: fc.record({ kind: fc.constant("frontmatter" as const), edit: fc.nat(FRONTMATTER_EDITS.length - 1) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("rename" as const),
      member: fc.nat(),
      name: fc.constantFrom(...UNSAFE_NAMES),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("add" as const),
      name: fc.oneof(
        fc.constantFrom(...UNSAFE_NAMES),
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }).map((name) => `fuzzed-analysis/${name}`),
      ),
      data: fc.constantFrom("text" as const, "elf" as const, "big" as const, "empty" as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("double" as const), member: fc.nat(), caseOnly: fc.boolean() }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("drop" as const), member: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "bomb" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "many" as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("file-name" as const),
      name: fc.constantFrom("skill.tar.gz", "skill", "SKILL.ZIP", ".skill", "a/b.skill", "x.skill "),
    }),
  },
);

function describeMutation(change: SkillMutation): string {
  switch (change.kind) {
    case "bytes":
      return change.edits.map(describeEdit).join(", ");
    case "frontmatter":
      return `SKILL.md frontmatter edit ${change.edit}`;
    case "rename":
      return `a member renamed ${JSON.stringify(change.name)}`;
    case "add":
      return `${change.data} member ${JSON.stringify(change.name)} added`;
    case "double":
      return change.caseOnly ? "a member doubled in another case" : "a member doubled";
    case "drop":
      return "a member dropped";
    case "bomb":
      return "zip bomb (108 MiB of zeros)";
    case "many":
      return "4,100 entries";
    case "file-name":
      return `archive named ${JSON.stringify(change.name)}`;
  }
}

const ADDED_DATA = {
  text: strToU8("# notes\n"),
  elf: Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]),
  big: new Uint8Array(11 * 1024 * 1024),
  empty: new Uint8Array(0),
};

/** The archive's name and bytes after `change`. */
function mutant(change: SkillMutation): { name: string; bytes: Uint8Array } {
  let members = BASE.map(([name, data]) => [name, data] as Member);
  const at = (index: number) => index % members.length;
  switch (change.kind) {
    case "bytes":
      return { name: "fuzzed.skill", bytes: change.edits.reduce(applyByteEdit, zipMembers(members)) };
    case "frontmatter": {
      const text = (FRONTMATTER_EDITS[change.edit] as (text: string) => string)(new TextDecoder().decode(SKILL_MD));
      members = members.map(([name, data]) => [name, name.endsWith("/SKILL.md") ? strToU8(text) : data]);
      break;
    }
    case "rename":
      members[at(change.member)] = [change.name, (members[at(change.member)] as Member)[1]];
      break;
    case "add":
      members.push([change.name, ADDED_DATA[change.data]]);
      return { name: "fuzzed.skill", bytes: zipOfShared(members) };
    case "double": {
      const [name, data] = members[at(change.member)] as Member;
      members.push([change.caseOnly ? name.toUpperCase() : name, data]);
      break;
    }
    case "drop":
      members.splice(at(change.member), 1);
      break;
    case "bomb":
      return { name: "fuzzed.skill", bytes: (BOMB ??= zipBomb(members)) };
    case "many":
      return { name: "fuzzed.skill", bytes: (MANY ??= zipOfMany(members)) };
    case "file-name":
      return { name: change.name, bytes: zipMembers(members) };
  }
  return { name: "fuzzed.skill", bytes: zipMembers(members) };
}

/** Installs one mutant into the harness's Gateway, which already holds a thread and an installed skill. */
async function installCase(change: SkillMutation): Promise<CaseOutcome> {
  const { gateway } = harness;
  const archive = mutant(change);
  const before = await databaseRecords(harness.gatewayDbName());
  const problems: string[] = [];
  let refused = false;
  let refusal: string | undefined;
  try {
    const installed = await withinDeadline(gateway.skills.install(archive), 20_000);
    const listed = (await gateway.skills.list()).filter((skill) => skill.name === installed.name);
    if (listed.length !== 1 || listed[0]?.category !== "custom") problems.push("installed, but not listed once");
    // What was stored: SKILL.md at the skill's root, and every file under a safe path inside it.
    const record = await (await harness.storage()).skills.getCustom(installed.name);
    const paths = Object.keys(record?.files ?? {});
    if (!paths.includes("SKILL.md")) problems.push("installed without a SKILL.md at its root");
    const unsafe = paths.filter((path) => canonicalMemberPath(path) !== path);
    if (unsafe.length > 0) problems.push(`installed with unsafe paths ${JSON.stringify(unsafe)}`);
    await gateway.skills.delete(installed.name);
  } catch (error) {
    refusal = error instanceof Error ? error.message : String(error);
    refused = true;
    problems.push(...(error instanceof HangError ? [`hung: ${error.message}`] : refusalProblems(error)));
  }
  const { lost, added } = compareRecords(before, await databaseRecords(harness.gatewayDbName()));
  if (added.length > 0) problems.push(`${added.length} record(s) left behind, e.g. ${added[0]}`);
  if (lost.length > 0) problems.push(`${lost.length} record(s) of the user's changed or gone, e.g. ${lost[0]}`);
  return { problems, lost: lost.length, refused, refusal };
}

describe("skill archives, fuzzed", () => {
  it(`${CASES} damaged archives from seed ${SEED}: installed whole or refused in one sentence, nothing half-written`, async () => {
    const { gateway } = harness;
    await gateway.threads.create();
    await gateway.skills.install({
      name: "kept.skill",
      bytes: zipMembers([["SKILL.md", strToU8("---\nname: kept-skill\ndescription: Already here.\n---\n")]]),
    });
    const inputs = fc.sample(mutation, { seed: SEED, numRuns: CASES });
    const tally = await runCases(
      "fuzz-skills",
      inputs,
      (change, index) => `seed ${SEED} #${index}: ${describeMutation(change)}`,
      installCase,
    );
    expect(tally.problems).toEqual([]);
    expect(tally.cases).toBe(CASES);
    // Most changes are refused; some (a renamed doc, an extra note) still make a valid skill.
    expect(tally.refused).toBeGreaterThan(CASES / 2);
  }, 600_000);
});
