// What the import fuzz suites share (fuzz-uploads, fuzz-skills, fuzz-deerflow, fuzz-share-links): byte and zip
// mutations drawn with fast-check from a named seed, every record of a fake-indexeddb database to compare before and
// after, the rule that a refusal is one clear sentence, and the loop that runs the cases and records each one for
// docs/reliability.md (test/support/reliability.ts).
import fc from "fast-check";
import { deflateSync, Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { isUserFacing } from "../../src/shared/user-error.ts";
import { crc32 } from "../../src/shared/zip-safety.ts";
import { openFawnDb } from "../../src/storage/index.ts";
import { recordCase, type ReliabilitySuite } from "../support/reliability.ts";

// ---- Mutations of bytes ----

/** One change to a file's bytes; positions are taken modulo the length, so an edit applies to any file. */
export type ByteEdit =
  | { kind: "flip"; at: number[]; xor: number }
  | { kind: "truncate"; at: number }
  | { kind: "insert"; at: number; bytes: number[] }
  | { kind: "fill"; at: number; length: number; value: number }
  | { kind: "zip-field"; entry: number; field: 20 | 24 | 28 | 42; value: number };

/** Flipped, cut, inserted and blanked bytes, and zip directory fields (sizes, name length, offset) set to odd values. */
export const byteEdit: fc.Arbitrary<ByteEdit> = fc.oneof(
  fc.record({
    kind: fc.constant("flip" as const),
    at: fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
    xor: fc.integer({ min: 1, max: 255 }),
  }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 64 }),
  }),
  fc.record({
    kind: fc.constant("fill" as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 64 }),
    value: fc.constantFrom(0, 0xff),
  }),
  fc.record({
    kind: fc.constant("zip-field" as const),
    entry: fc.nat(),
    field: fc.constantFrom(20 as const, 24 as const, 28 as const, 42 as const),
    value: fc.constantFrom(0, 1, 0xffff, 0x7fffffff, 0xffffffff, 0xc0000000, 300 * 1024 * 1024),
  }),
);

/** Offsets of a zip's central directory entries. */
function centralEntries(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const offsets: number[] = [];
  for (let offset = 0; offset + 46 <= bytes.length; offset++) {
    if (view.getUint32(offset, true) === 0x02014b50) offsets.push(offset);
  }
  return offsets;
}

/** `bytes` with `edit` applied (a copy; `bytes` is left as it was). */
export function applyByteEdit(bytes: Uint8Array, edit: ByteEdit): Uint8Array {
  // A plain copy, as a browser's File gives (a Node Buffer's slice() would be a view).
  const out = new Uint8Array(bytes);
  const length = Math.max(out.length, 1);
  switch (edit.kind) {
    case "flip":
      for (const at of edit.at) if (out.length > 0) out[at % length] = (out[at % length] ?? 0) ^ edit.xor;
      return out;
    case "truncate":
      return out.subarray(0, edit.at % length);
    case "insert": {
      const at = edit.at % length;
      return new Uint8Array(Buffer.concat([out.subarray(0, at), Uint8Array.from(edit.bytes), out.subarray(at)]));
    }
    case "fill": {
      const at = edit.at % length;
      out.fill(edit.value, at, Math.min(at + edit.length, out.length));
      return out;
    }
    case "zip-field": {
      const entries = centralEntries(out);
      const entry = entries[edit.entry % Math.max(entries.length, 1)];
      if (entry === undefined) return out;
      const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
      if (edit.field === 28) view.setUint16(entry + 28, edit.value & 0xffff, true);
      else view.setUint32(entry + edit.field, edit.value >>> 0, true);
      return out;
    }
  }
}

/** A short, replayable name of an edit for a case's line in the report. */
export function describeEdit(edit: ByteEdit): string {
  switch (edit.kind) {
    case "flip":
      return `flip ${edit.at.length} byte(s)`;
    case "truncate":
      return `cut at ${edit.at}`;
    case "insert":
      return `insert ${edit.bytes.length} byte(s)`;
    case "fill":
      return `blank ${edit.length} byte(s)`;
    case "zip-field":
      return `zip directory field ${edit.field} = ${edit.value}`;
  }
}

// ---- Zips made member by member ----

export type Member = [name: string, data: Uint8Array];

/** A zip of `members` in order (duplicate names kept, unlike fflate's zipSync), deflated or stored. */
export function zipMembers(members: readonly Member[], deflate = true): Uint8Array {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    // fflate may reuse the buffer behind a chunk it has handed out.
    chunks.push(chunk.slice());
  });
  for (const [name, data] of members) {
    const member = deflate ? new ZipDeflate(name, { level: 1 }) : new ZipPassThrough(name);
    zip.add(member);
    member.push(data, true);
  }
  zip.end();
  return new Uint8Array(Buffer.concat(chunks));
}

const packed = new WeakMap<Uint8Array, { deflated: Uint8Array; crc: number }>();

/**
 * A zip written by hand, each member's data deflated once and reused for every member holding the same bytes: cheap
 * to make for archives of many members or of large ones (zip bombs).
 */
export function zipOfShared(members: readonly Member[]): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const [name, data] of members) {
    let pack = packed.get(data);
    if (!pack) packed.set(data, (pack = { deflated: deflateSync(data, { level: 1 }), crc: crc32(data) }));
    const nameBytes = new TextEncoder().encode(name);
    const header = (central: boolean) => {
      const bytes = new Uint8Array((central ? 46 : 30) + nameBytes.length);
      const view = new DataView(bytes.buffer);
      view.setUint32(0, central ? 0x02014b50 : 0x04034b50, true);
      const at = central ? 2 : 0;
      if (central) view.setUint16(4, 20, true);
      view.setUint16(4 + at, 20, true);
      view.setUint16(6 + at, 0x800, true);
      view.setUint16(8 + at, 8, true);
      view.setUint32(14 + at, pack.crc, true);
      view.setUint32(18 + at, pack.deflated.length, true);
      view.setUint32(22 + at, data.length, true);
      view.setUint16(26 + at, nameBytes.length, true);
      if (central) view.setUint32(42, offset, true);
      bytes.set(nameBytes, central ? 46 : 30);
      return bytes;
    };
    const local = header(false);
    centrals.push(header(true));
    locals.push(local, pack.deflated);
    offset += local.length + pack.deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = new Uint8Array(22);
  const view = new DataView(end.buffer);
  view.setUint32(0, 0x06054b50, true);
  view.setUint16(8, members.length, true);
  view.setUint16(10, members.length, true);
  view.setUint32(12, directory.length, true);
  view.setUint32(16, offset, true);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

// ---- The database, record by record ----

/** Every record of every store of the database `name`: `store key` → the record, as JSON (bytes as base64). */
export async function databaseRecords(name: string): Promise<Map<string, string>> {
  const db = await openFawnDb(name);
  const records = new Map<string, string>();
  const encode = (value: unknown) =>
    JSON.stringify(value, (_key, item: unknown) =>
      item instanceof Uint8Array ? `bytes:${Buffer.from(item).toString("base64")}` : item,
    );
  try {
    for (const store of [...db.objectStoreNames]) {
      const [keys, values] = await Promise.all([db.getAllKeys(store), db.getAll(store)]);
      keys.forEach((key, index) => records.set(`${store} ${encode(key)}`, encode(values[index])));
    }
  } finally {
    db.close();
  }
  return records;
}

/** Records of `before` gone or changed in `after` (lost), and records `after` has that `before` had not (added). */
export function compareRecords(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): { lost: string[]; added: string[] } {
  const lost = [...before].filter(([key, value]) => after.get(key) !== value).map(([key]) => key);
  const added = [...after.keys()].filter((key) => !before.has(key));
  return { lost, added };
}

// ---- Refusals ----

/** Why `message` is not one clear sentence for the user, or undefined when it is. */
export function unclearSentence(message: string): string | undefined {
  if (message.trim() === "") return "empty";
  if (message.includes("\n")) return "spans lines";
  if (message.length > 2000) return "longer than a sentence";
  if (!/[.!?]$/.test(message)) return "does not end a sentence";
  if (/[.!?]\s*[.!?]$/.test(message)) return "ends twice";
  if (/\[object |\bundefined\b|\bNaN\b/.test(message)) return "holds [object, undefined or NaN";
  if (
    /TypeError|RangeError|SyntaxError|DOMException|DataError|Cannot read|is not a function|Unexpected token|in JSON at position|Bad control character|Unterminated string|Expected (property name|double-quoted|',')|invalid zip|\bBug\b/.test(
      message,
    )
  ) {
    return "holds raw exception text";
  }
  return undefined;
}

/** Problems with a refusal: not a user-facing error (unless `accept` says it is one the page shows), or unclear. */
export function refusalProblems(error: unknown, accept: (error: unknown) => boolean = () => false): string[] {
  if (!isUserFacing(error) && !accept(error)) return [`crashed with ${String(error)}`];
  const why = unclearSentence((error as Error).message);
  return why ? [`${why}: ${JSON.stringify((error as Error).message)}`] : [];
}

/** `promise`, or a rejection saying it hung when it has not settled within `ms`. */
export async function withinDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HangError(`did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export class HangError extends Error {
  override name = "HangError";
}

// ---- The loop ----

/** What one case found: problems (none when it survived), records of the user's lost, and whether it was refused. */
export interface CaseOutcome {
  problems: string[];
  lost: number;
  refused: boolean;
  /** The sentence a refusal (or an accepted input's warning) showed the user. */
  refusal?: string;
}

export interface FuzzTally {
  cases: number;
  refused: number;
  accepted: number;
  problems: string[];
}

/** Runs `run` on each input in order, records each case under `suite`, and sums what they found. */
export async function runCases<T>(
  suite: ReliabilitySuite,
  inputs: readonly T[],
  label: (input: T, index: number) => string,
  run: (input: T, index: number) => Promise<CaseOutcome>,
): Promise<FuzzTally> {
  const tally: FuzzTally = { cases: 0, refused: 0, accepted: 0, problems: [] };
  for (const [index, input] of inputs.entries()) {
    const name = label(input, index);
    const started = performance.now();
    let outcome: CaseOutcome;
    try {
      outcome = await run(input, index);
    } catch (error) {
      outcome = { problems: [`the case itself failed: ${String(error)}`], lost: 0, refused: false };
    }
    tally.cases += 1;
    if (outcome.refused) tally.refused += 1;
    else tally.accepted += 1;
    tally.problems.push(...outcome.problems.map((problem) => `${name}: ${problem}`));
    recordCase(suite, {
      case: name,
      survived: outcome.problems.length === 0 && outcome.lost === 0,
      lost: outcome.lost,
      recoveryMs: Math.round(performance.now() - started),
      detail:
        outcome.problems.length > 0
          ? outcome.problems.join("; ")
          : outcome.refused
            ? `refused: ${outcome.refusal ?? ""}`
            : outcome.refusal
              ? `accepted, saying: ${outcome.refusal}`
              : "accepted",
    });
  }
  return tally;
}
