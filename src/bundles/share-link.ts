// A thread as a share link (docs/architecture.md#d8-bundles): its `.fawn` bundle made as small as it goes and written
// base64url into the URL's fragment, which browsers never send to a server. Reading one back inflates at most a fixed
// amount, then checks the bundle as an import does.
import { deflateSync, Inflate, strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import type { BackupLimits } from "../protocol/index.ts";
import { fromBase64, fromBase64Url, toBase64, toBase64Url } from "../shared/base64.ts";
import { unzipWithinLimits } from "../shared/zip-safety.ts";
import { BackupArchiveError } from "./backup-archive-schema.ts";
import { readThreadBundle, type BundledThread } from "./thread-bundle.ts";

/**
 * The most a link's data (the part after `#share=`) may be, in characters. Browsers take far longer URLs (Chromium
 * 2 MB, Firefox 1 MB), and the fragment never reaches a server, so no server limit applies; the limit is what people
 * can paste where they talk: Slack cuts a message at 40,000 characters and Microsoft Teams at about 28 KB, so 24 KiB
 * leaves room for the address and a sentence. Chat apps with shorter messages (Discord, Telegram) take the `.fawn`
 * file instead.
 */
export const SHARE_LINK_MAX_CHARS = 24 * 1024;

/**
 * What a link's bundle is held to once decoded: a link of at most 24 KiB never needs more than this for a real
 * thread (text compresses about 10:1), and a crafted one cannot make the reader hold more.
 */
export const SHARE_LINK_LIMITS: BackupLimits = {
  maxArchiveBytes: 16 * 1024 * 1024,
  maxTotalBytes: 16 * 1024 * 1024,
  maxEntryBytes: 16 * 1024 * 1024,
  maxEntries: 10_000,
};

/** The data's first two characters say how the bytes after them are packed. */
const ZIP = "z.";
const PACKED = "t.";

/** A link's data, or how big it would be (and the most allowed) when over a limit. */
export type ShareLinkEncoding = { data: string } | { too_big: { size: number; limit: number } };

/**
 * The share link data of a `.fawn` bundle: the smaller of the bundle as it is (`z.`) and of its members packed for a
 * link (`t.`): stored in one zip deflated whole at level 9, so what repeats between members is found too, and with the
 * records' serialized checkpoints and messages as text rather than base64 (`{"$text": …}` for `{"$bytes": …}`),
 * where deflate finds the messages' words again. A bundle larger than SHARE_LINK_LIMITS once unpacked, or data over
 * SHARE_LINK_MAX_CHARS, is too big.
 */
export function encodeShareLink(bundle: Uint8Array): ShareLinkEncoding {
  const members = unzipSync(bundle);
  const unpacked = Object.values(members).reduce((total, data) => total + data.byteLength, 0);
  if (unpacked > SHARE_LINK_LIMITS.maxTotalBytes || bundle.byteLength > SHARE_LINK_LIMITS.maxArchiveBytes) {
    return { too_big: { size: unpacked, limit: SHARE_LINK_LIMITS.maxTotalBytes } };
  }
  const candidates = [ZIP + toBase64Url(bundle)];
  const packed = packMembers(members);
  if (packed) {
    const stored = zipSync(packed, { level: 0 });
    const deflated = deflateSync(stored, { level: 9, mem: 12 });
    // Trusted only when it inflates back to the same bytes (fflate has written streams that do not: backup-archive-writer.ts).
    if (sameBytes(inflateAtMost(deflated, stored.byteLength), stored)) candidates.push(PACKED + toBase64Url(deflated));
  }
  const data = candidates.reduce((smallest, next) => (next.length < smallest.length ? next : smallest));
  if (data.length > SHARE_LINK_MAX_CHARS) return { too_big: { size: data.length, limit: SHARE_LINK_MAX_CHARS } };
  return { data };
}

/** The `.fawn` bundle a link's data holds, not yet checked; throws a BackupArchiveError for damaged data. */
export function decodeShareLink(data: string): Uint8Array {
  if (data.length > SHARE_LINK_MAX_CHARS + ZIP.length) {
    throw new BackupArchiveError("This share link is longer than any link Fawn makes, so it cannot be read.");
  }
  const kind = data.slice(0, 2);
  const bytes = fromBase64Url(data.slice(2));
  if (!bytes || bytes.byteLength === 0 || (kind !== ZIP && kind !== PACKED)) throw damagedLink();
  if (kind === ZIP) return bytes;
  let inflated: Uint8Array | undefined;
  try {
    inflated = inflateAtMost(bytes, SHARE_LINK_LIMITS.maxArchiveBytes);
  } catch {
    throw damagedLink();
  }
  if (!inflated) {
    throw new BackupArchiveError("This share link unpacks to more than a share link may hold, so it was not read.");
  }
  const members = unzipWithinLimits(
    inflated,
    {
      maxEntries: SHARE_LINK_LIMITS.maxEntries,
      maxMemberBytes: SHARE_LINK_LIMITS.maxEntryBytes,
      maxTotalBytes: SHARE_LINK_LIMITS.maxTotalBytes,
    },
    {
      tooManyEntries: "This share link holds more files than a share link may.",
      unsafeName: (name) => `This share link holds an unsafe path ${JSON.stringify(name)}.`,
      memberTooLarge: () => "This share link unpacks to more than a share link may hold, so it was not read.",
      totalTooLarge: "This share link unpacks to more than a share link may hold, so it was not read.",
      notZip: DAMAGED,
      duplicateName: (name) => `This share link holds ${JSON.stringify(name)} twice.`,
      damaged: () => DAMAGED,
    },
    (message) => {
      throw new BackupArchiveError(message);
    },
    // The bundle inside is read as any .fawn is, by the backup's own path rules, which allow ":" in file names.
    { allowColon: true },
  );
  return zipSync(unpackMembers(members), { level: 0 });
}

/** Record files (`thread.json`) whose byte fields are written as text where they are UTF-8 that reads back the same. */
const RECORDS = /(^|\/)thread\.json$/;

/** The members with their records' byte fields as text; undefined when a record already has a `$text` field. */
function packMembers(members: Record<string, Uint8Array>): Record<string, Uint8Array> | undefined {
  const packed: Record<string, Uint8Array> = {};
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let clash = false;
  for (const [name, data] of Object.entries(members)) {
    if (!RECORDS.test(name)) {
      packed[name] = data;
      continue;
    }
    const records: unknown = JSON.parse(strFromU8(data), (_key, item: unknown) => {
      if (!item || typeof item !== "object") return item;
      if (Object.hasOwn(item, "$text")) clash = true;
      const encoded = (item as { $bytes?: unknown }).$bytes;
      if (typeof encoded !== "string" || Object.keys(item).length !== 1) return item;
      const bytes = fromBase64(encoded);
      let text: string;
      try {
        text = decoder.decode(bytes);
      } catch {
        return item;
      }
      return sameBytes(strToU8(text), bytes) ? { $text: text } : item;
    });
    packed[name] = strToU8(JSON.stringify(records));
  }
  return clash ? undefined : packed;
}

/** The members as a bundle holds them: each `{"$text": …}` of a record file back to `{"$bytes": <base64>}`. */
function unpackMembers(members: Record<string, Uint8Array>): Record<string, Uint8Array> {
  const unpacked: Record<string, Uint8Array> = {};
  for (const [name, data] of Object.entries(members)) {
    if (!RECORDS.test(name)) {
      unpacked[name] = data;
      continue;
    }
    let records: unknown;
    try {
      records = JSON.parse(strFromU8(data), (_key, item: unknown) => {
        if (!item || typeof item !== "object" || Object.keys(item).length !== 1) return item;
        const text = (item as { $text?: unknown }).$text;
        return typeof text === "string" ? { $bytes: toBase64(strToU8(text)) } : item;
      });
    } catch {
      throw damagedLink();
    }
    unpacked[name] = strToU8(JSON.stringify(records));
  }
  return unpacked;
}

/**
 * The `.fawn` bundle a link's data holds and its thread, checked whole as an import checks a bundle (within
 * SHARE_LINK_LIMITS). Throws a BackupArchiveError with one sentence.
 */
export function readShareLink(data: string): { bundle: Uint8Array; thread: BundledThread } {
  const bundle = decodeShareLink(data);
  try {
    return { bundle, thread: readThreadBundle(bundle, SHARE_LINK_LIMITS) };
  } catch (error) {
    // Bytes that do not make a zip were changed on their way: the link is what is wrong, not a file.
    if (error instanceof BackupArchiveError && /not a (valid )?zip/.test(error.message)) throw damagedLink();
    throw error;
  }
}

const DAMAGED = "This share link is damaged or incomplete: copy the whole link and open it again.";

function damagedLink(): BackupArchiveError {
  return new BackupArchiveError(DAMAGED);
}

/** `bytes` inflated, or undefined when they inflate to more than `max` bytes (never holding much more than that). */
function inflateAtMost(bytes: Uint8Array, max: number): Uint8Array | undefined {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let over = false;
  const inflater = new Inflate((chunk) => {
    total += chunk.byteLength;
    if (total > max) over = true;
    else chunks.push(chunk);
  });
  // Pushed a little at a time: one push inflates all it is given at once, and 1 KiB inflates to at most ~1 MiB.
  const step = 1024;
  for (let start = 0; start < bytes.byteLength && !over; start += step) {
    inflater.push(bytes.subarray(start, start + step), start + step >= bytes.byteLength);
  }
  if (over) return undefined;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}
