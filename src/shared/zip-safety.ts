// Checks on a zip archive's members made before anything is inflated, shared by every reader of user-supplied
// archives (skills, backups): names that could escape a folder, the zip signature, a member's declared size, and an
// unzip that refuses an archive over its limits, a name held twice, or a member whose bytes fail their checksum.
import { unzipSync, type UnzipFileInfo } from "fflate";

/**
 * True when a member `name` could leave its folder or means something else on another system. A reader whose names
 * all start with a folder of its own and are then checked by its own path rule may allow ":" (`allowColon`): a drive
 * letter can only come first.
 */
export function isUnsafeMemberName(name: string, { allowColon = false }: { allowColon?: boolean } = {}): boolean {
  return (
    name.startsWith("/") ||
    name.includes("\\") ||
    (!allowColon && name.includes(":")) ||
    name.includes("\0") ||
    name.split("/").some((segment) => segment === "..")
  );
}

/**
 * A relative path inside an archive's folder (a skill's files) in its one canonical form: empty and `.` segments
 * dropped (`docs/./a.md` and `docs//a.md` are `docs/a.md`). Undefined when it names nothing, climbs out (`..`) or
 * could mean something else on another system. Installing, exporting and importing all use it, so whatever is
 * stored exports under a name an import accepts.
 */
export function canonicalMemberPath(path: string): string | undefined {
  if (path.includes("\\") || path.includes(":") || path.includes("\0")) return undefined;
  const segments = path.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.length === 0 || segments.includes("..")) return undefined;
  return segments.join("/");
}

/**
 * A member's name as a sentence may quote it: control characters written as `\uXXXX`, and cut at 80 characters. A
 * damaged directory gives names of binary garbage (NUL, line breaks, the next header's bytes).
 */
export function quotableName(name: string): string {
  const shown = name.replace(
    /[\p{Cc}\u2028\u2029]/gu,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return shown.length > 80 ? `${shown.slice(0, 79)}…` : shown;
}

/** `PK\3\4` (a local file header) or `PK\5\6` (the end record of an empty archive). */
export function hasZipMagic(bytes: Uint8Array): boolean {
  return (
    bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6))
  );
}

/**
 * The most bytes a member can inflate to, from the zip's directory: a stored member's data is `size` bytes whatever
 * it declares; an inflated one is cut at `originalSize` (fflate inflates into a buffer of that length).
 */
export function declaredMemberSize(member: { size: number; originalSize: number; compression: number }): number {
  return Math.max(member.originalSize, member.compression === 0 ? member.size : 0);
}

/** The limits `unzipWithinLimits` holds an archive to. */
export interface ZipLimits {
  /** Members, folders included. */
  maxEntries: number;
  /** Declared unpacked bytes of one file. */
  maxMemberBytes: number;
  /** Declared unpacked bytes of all the files kept. */
  maxTotalBytes: number;
}

/** The sentences `unzipWithinLimits` refuses an archive with, in its reader's words. */
export interface ZipProblems {
  tooManyEntries: string;
  unsafeName: (name: string) => string;
  memberTooLarge: (name: string, declared: number) => string;
  totalTooLarge: string;
  notZip: string;
  /** A file held twice under one name: readers would disagree on which one is meant. */
  duplicateName: (name: string) => string;
  /** A file whose bytes do not match the CRC-32 the archive records for it (damaged, or changed by hand). */
  damaged: (name: string) => string;
}

/** How `unzipWithinLimits` treats names: members to leave out, and whether ":" is allowed (see isUnsafeMemberName). */
export interface ZipNameRules {
  skip?: (name: string) => boolean;
  allowColon?: boolean;
}

/**
 * The archive's files, judged from its directory before anything is inflated: refused through `fail` (which throws
 * the reader's own error) with the first of `problems` that applies. Folders and members `skip` names are not kept.
 */
export function unzipWithinLimits(
  bytes: Uint8Array,
  limits: ZipLimits,
  problems: ZipProblems,
  fail: (message: string) => never,
  { skip = () => false, allowColon = false }: ZipNameRules = {},
): Record<string, Uint8Array> {
  let entries = 0;
  let declaredTotal = 0;
  // The kept files' names by their place in the directory (where their checksums are).
  const kept = new Map<number, string>();
  const names = new Set<string>();
  let refused: string | undefined;
  const refuse = (message: string): never => {
    refused = message;
    throw new Error(message);
  };
  const filter = (member: UnzipFileInfo): boolean => {
    entries += 1;
    if (entries > limits.maxEntries) refuse(problems.tooManyEntries);
    if (isUnsafeMemberName(member.name, { allowColon })) refuse(problems.unsafeName(quotableName(member.name)));
    if (member.name.endsWith("/") || skip(member.name)) return false;
    const declared = declaredMemberSize(member);
    if (declared > limits.maxMemberBytes) refuse(problems.memberTooLarge(quotableName(member.name), declared));
    declaredTotal += declared;
    if (declaredTotal > limits.maxTotalBytes) refuse(problems.totalTooLarge);
    if (names.has(member.name)) refuse(problems.duplicateName(quotableName(member.name)));
    names.add(member.name);
    kept.set(entries - 1, member.name);
    return true;
  };
  try {
    // fflate inflates each member as soon as its filter accepts it: the whole directory is judged first, inflating
    // nothing, so a zip bomb is refused before a byte of it is held.
    unzipSync(bytes, {
      filter: (member) => {
        filter(member);
        return false;
      },
    });
    let position = 0;
    const files = unzipSync(bytes, { filter: () => kept.has(position++) });
    // fflate does not check checksums: a damaged member would be taken as it is.
    const crcs = directoryCrcs(bytes);
    for (const [index, name] of kept) {
      if (crcs[index] !== crc32(files[name] as Uint8Array)) refuse(problems.damaged(quotableName(name)));
    }
    return files;
  } catch {
    return fail(refused ?? problems.notZip);
  }
}

const CRC_TABLE = Int32Array.from({ length: 256 }, (_, byte) => {
  let crc = byte;
  for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  return crc;
});

/** CRC-32 (IEEE), the checksum a zip records for each member. */
export function crc32(bytes: Uint8Array): number {
  let crc = -1;
  for (let index = 0; index < bytes.length; index++) {
    crc = (CRC_TABLE[(crc ^ (bytes[index] as number)) & 0xff] as number) ^ (crc >>> 8);
  }
  return (crc ^ -1) >>> 0;
}

/**
 * Each central directory entry's CRC-32, in the directory's order (the order fflate's `filter` sees them), the
 * directory found as fflate finds it (zip64 end record included). A directory that does not read throws.
 */
function directoryCrcs(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (view.getUint32(end, true) !== 0x06054b50) end--;
  let count = view.getUint16(end + 8, true);
  let offset = view.getUint32(end + 16, true);
  if (end >= 20 && view.getUint32(end - 20, true) === 0x07064b50) {
    const record = view.getUint32(end - 12, true);
    if (view.getUint32(record, true) === 0x06064b50) {
      count = view.getUint32(record + 32, true);
      offset = view.getUint32(record + 48, true);
    }
  }
  const crcs: number[] = [];
  for (let index = 0; index < count; index++) {
    crcs.push(view.getUint32(offset + 16, true));
    offset +=
      46 + view.getUint16(offset + 28, true) + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true);
  }
  return crcs;
}
