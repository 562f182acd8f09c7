// Fuzz of uploads (docs/reliability.md, suite fuzz-uploads): the real documents in test/fixtures/documents (PDF, DOCX,
// XLSX, PPTX) damaged with fast-check from a named seed — bytes flipped, cut or blanked, zip directory sizes patched,
// a part dropped, cut or filled with an entity bomb, a PDF's text structure broken (a pages tree that loops, a page
// count in the millions, deep nesting) — and uploaded through the Gateway (gateway.threads.upload over
// fake-indexeddb), plus a conversion that hangs. Each upload stores the file's bytes unchanged with either its
// Markdown or one sentence saying why there is none; a hanging conversion is given up with that sentence; deleting the
// upload leaves the database as it was; no case crashes or hangs. 60 cases in `npm test`, 1,000 under `npm run
// reliability`.
import fc from "fast-check";
import { strFromU8, strToU8, unzipSync } from "fflate";
import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import type { Gateway } from "../../src/gateway/index.ts";
import type * as PdfToMarkdown from "../../src/gateway/uploads/pdf-to-markdown.ts";
import { firstSeed, FULL_RELIABILITY, reliabilityCases } from "../support/reliability.ts";
import {
  applyByteEdit,
  byteEdit,
  compareRecords,
  databaseRecords,
  describeEdit,
  HangError,
  refusalProblems,
  runCases,
  unclearSentence,
  withinDeadline,
  zipMembers,
  type ByteEdit,
  type CaseOutcome,
  type Member,
} from "./fuzz-support.ts";
import { openTestGateway } from "./harness.ts";

/** A PDF holding this marker never finishes converting, as a parser stuck on a document would (until told to stop). */
const HANG_MARKER = "%FAWN-FUZZ-HANG";
const stopped: boolean[] = [];

vi.mock("../../src/gateway/uploads/pdf-to-markdown.ts", async (importOriginal) => {
  const real = await importOriginal<typeof PdfToMarkdown>();
  return {
    pdfToMarkdown: (bytes: Uint8Array, signal?: AbortSignal) => {
      if (!Buffer.from(bytes).includes(HANG_MARKER)) return real.pdfToMarkdown(bytes, signal);
      return new Promise<string>((_, reject) =>
        signal?.addEventListener("abort", () => {
          stopped.push(true);
          reject(new Error("the conversion was stopped"));
        }),
      );
    },
  };
});

const CASES = reliabilityCases(60, 1000);
const SEED = firstSeed();
/** Short, so a hanging conversion is given up within a case; real conversions here take well under it. */
const CONVERSION_TIMEOUT_MS = 1500;

const DOCUMENTS = ["summary.pdf", "report.docx", "sales.xlsx", "roadmap.pptx"].map((name) => ({
  name,
  bytes: new Uint8Array(readFileSync(new URL(`../fixtures/documents/${name}`, import.meta.url))),
}));

// ---- Mutations ----

const ENTITY_BOMB =
  '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">' +
  '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]><x>&d;&d;&d;</x>';

/** Changes to one part of an Office file (a zip of XML parts). */
const PART_EDITS: ((xml: string) => string)[] = [
  (xml) => xml.slice(0, Math.floor(xml.length / 2)),
  () => ENTITY_BOMB,
  () => "",
  (xml) => xml.replace(/<\/?[a-z]+:/g, "<zz:"),
  (xml) => xml.replace(/>/g, ">\u0000"),
  (xml) => xml.replace(/r:id="[^"]*"/g, 'r:id="rId999"'),
  (xml) => xml.replace(/(<[a-z:]+)/, `$1${' a="1"'.repeat(2000)}`),
  // Deep nesting: mammoth's parsing of 5,000 levels keeps the CPU for seconds (tens under load), which no timeout can
  // interrupt in the thread it runs on; `npm test` nests less, to stay steady on a busy machine.
  (xml) => `${"<a>".repeat(FULL_RELIABILITY ? 5000 : 2000)}${xml}`,
  (xml) => xml.replace(/<t[^>]*>/, `$&${"x".repeat(200_000)}`),
  (xml) => xml.replace(/<c /g, '<c t="s" ').replace(/<v>\d+<\/v>/g, "<v>999999</v>"),
];

/** Changes to a PDF's text: its structure broken where parsers loop, recurse or trust numbers. */
const PDF_EDITS: ((pdf: string) => string)[] = [
  (pdf) => pdf.replace("/Kids [4 0 R 5 0 R]", "/Kids [2 0 R]"),
  (pdf) => pdf.replace("/Count 2", "/Count 2000000"),
  (pdf) => pdf.replace(/\/Length \d+/, "/Length 99999999"),
  (pdf) => pdf.replace(/startxref\n\d+/, "startxref\n5"),
  (pdf) => pdf.replace("/Contents 6 0 R", `/Contents ${"[".repeat(10_000)}6 0 R${"]".repeat(10_000)}`),
  (pdf) => pdf.replace("1 0 obj", "1 0 obj\n<< /Encrypt << /Filter /Standard /V 2 >> >>"),
  (pdf) => pdf.replace("/Parent 2 0 R", "/Parent 4 0 R"),
  (pdf) => pdf.replace(/\(([^)]*)\) Tj/g, "<FFFE00D800DC> Tj"),
  (pdf) => pdf.replace(/xref[\s\S]*$/, ""),
  (pdf) => pdf.replace("%PDF-1.4", "%PDF-9.9"),
];

type Mutation =
  | { kind: "bytes"; document: number; edits: ByteEdit[] }
  | { kind: "part"; document: number; part: number; edit: number }
  | { kind: "drop-part"; document: number; part: number }
  | { kind: "pdf"; edit: number }
  | { kind: "misnamed"; document: number; as: number }
  | { kind: "hang" };

const document = fc.nat(DOCUMENTS.length - 1);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant("bytes" as const),
      document,
      edits: fc.array(byteEdit, { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("part" as const),
      document: fc.integer({ min: 1, max: 3 }),
      part: fc.nat(),
      edit: fc.nat(PART_EDITS.length - 1),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("drop-part" as const),
      document: fc.integer({ min: 1, max: 3 }),
      part: fc.nat(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("pdf" as const), edit: fc.nat(PDF_EDITS.length - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("misnamed" as const), document, as: fc.nat(3) }) },
);

function describeMutation(change: Mutation): string {
  const name = (index: number) => DOCUMENTS[index]?.name ?? "";
  switch (change.kind) {
    case "bytes":
      return `${name(change.document)}: ${change.edits.map(describeEdit).join(", ")}`;
    case "part":
      return `${name(change.document)}: part ${change.part} edit ${change.edit}`;
    case "drop-part":
      return `${name(change.document)}: part ${change.part} dropped`;
    case "pdf":
      return `summary.pdf: structure edit ${change.edit}`;
    case "misnamed":
      return `${name(change.document)} named as ${name(change.as)}`;
    case "hang":
      return "a PDF whose conversion hangs";
  }
}

/** The file to upload: its name (unique to the case) and bytes. */
function mutant(change: Mutation, index: number): { name: string; bytes: Uint8Array } {
  const named = (name: string, bytes: Uint8Array) => ({ name: `case-${index}-${name}`, bytes });
  const base = DOCUMENTS[change.kind === "pdf" || change.kind === "hang" ? 0 : change.document]!;
  switch (change.kind) {
    case "bytes":
      return named(base.name, change.edits.reduce(applyByteEdit, base.bytes));
    case "part":
    case "drop-part": {
      const members: Member[] = Object.entries(unzipSync(base.bytes));
      const at = change.part % members.length;
      const [part, data] = members[at]!;
      if (change.kind === "drop-part") members.splice(at, 1);
      else members[at] = [part, strToU8(PART_EDITS[change.edit]!(strFromU8(data)))];
      return named(base.name, zipMembers(members));
    }
    case "pdf":
      return named(base.name, strToU8(PDF_EDITS[change.edit]!(strFromU8(base.bytes, true)), true));
    case "misnamed":
      return named(DOCUMENTS[change.as]!.name, DOCUMENTS[change.document]!.bytes);
    case "hang":
      return named(
        "stuck.pdf",
        strToU8(strFromU8(base.bytes, true).replace("%PDF-1.4", `%PDF-1.4\n${HANG_MARKER}`), true),
      );
  }
}

// ---- The cases ----

const DB_NAME = "fuzz-uploads-target";
let gateway: Gateway;
let threadId: string;

async function uploadCase(change: Mutation, index: number): Promise<CaseOutcome> {
  const file = mutant(change, index);
  const before = await databaseRecords(DB_NAME);
  const problems: string[] = [];
  let refused = false;
  let refusal: string | undefined;
  const upload = gateway.threads.upload(threadId, [file]);
  try {
    const result = await withinDeadline(upload, 30_000);
    const [entry] = result.files;
    if (!entry || result.files.length !== 1) throw new Error(`one file uploaded, ${result.files.length} described`);
    // The bytes are kept exactly as they came, whatever became of the conversion.
    const raw = await gateway.threads.readFile(threadId, entry.virtual_path);
    if (Buffer.compare(raw.bytes, file.bytes) !== 0) problems.push("the upload reads back other bytes");
    if (entry.markdown_virtual_path !== undefined) {
      const markdown = strFromU8((await gateway.threads.readFile(threadId, entry.markdown_virtual_path)).bytes);
      if (!markdown.startsWith(`# ${entry.filename}\n`)) problems.push("its Markdown does not start with its name");
      if (entry.warning !== undefined) problems.push("both Markdown and a warning");
    } else if (entry.warning === undefined) {
      problems.push("neither Markdown nor a warning");
    } else {
      refusal = entry.warning;
      const why = unclearSentence(entry.warning);
      if (why) problems.push(`${why}: ${JSON.stringify(entry.warning)}`);
      if (!entry.warning.startsWith(`${entry.filename} was uploaded, but it could not be converted to Markdown: `)) {
        problems.push(`the warning does not say the file was kept: ${JSON.stringify(entry.warning)}`);
      }
    }
    if (change.kind === "hang" && !/took longer than/.test(entry.warning ?? "")) {
      problems.push(`a hanging conversion was not given up: ${JSON.stringify(entry)}`);
    }
    await gateway.threads.deleteUpload(threadId, entry.filename);
  } catch (error) {
    refused = true;
    refusal = error instanceof Error ? error.message : String(error);
    problems.push(...(error instanceof HangError ? [`hung: ${error.message}`] : refusalProblems(error)));
    if (error instanceof HangError) {
      // A conversion busy on the CPU cannot be given up (the timeout waits for it): let it end, then tidy up, so the
      // records compared are the upload's own.
      const settled = await withinDeadline(upload, 300_000).catch(() => undefined);
      if (settled) await gateway.threads.deleteUpload(threadId, settled.files[0]?.filename ?? file.name);
    }
  }
  const { lost, added } = compareRecords(before, await databaseRecords(DB_NAME));
  if (added.length > 0) problems.push(`${added.length} record(s) left behind, e.g. ${added[0]}`);
  if (lost.length > 0) problems.push(`${lost.length} record(s) of the user's changed or gone, e.g. ${lost[0]}`);
  return { problems, lost: lost.length, refused, refusal };
}

describe("uploads, fuzzed", () => {
  it(`${CASES} damaged documents from seed ${SEED}: kept whole with Markdown or one sentence, nothing half-written`, async () => {
    gateway = await openTestGateway(DB_NAME, { conversionTimeoutMs: CONVERSION_TIMEOUT_MS });
    ({ thread_id: threadId } = await gateway.threads.create());
    await gateway.threads.upload(threadId, [{ name: "kept.txt", bytes: strToU8("already here\n") }]);
    // Every hundredth case (the first one included) is a conversion that hangs.
    const inputs = fc
      .sample(mutation, { seed: SEED, numRuns: CASES })
      .map((change, index): Mutation => (index % 100 === 0 ? { kind: "hang" } : change));
    const tally = await runCases(
      "fuzz-uploads",
      inputs,
      (change, index) => `seed ${SEED} #${index}: ${describeMutation(change)}`,
      uploadCase,
    );
    expect(tally.problems).toEqual([]);
    expect(tally.cases).toBe(CASES);
    // The parser of a stuck conversion was told to stop.
    expect(stopped.length).toBeGreaterThan(0);
  }, 900_000);
});
