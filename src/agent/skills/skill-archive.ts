// Reading a skill archive (.skill or .zip) the user installs: every limit and path rule is checked before a byte is
// kept, and sizes are judged from the zip's directory before anything is inflated.
import { SKILL_ARCHIVE_LIMITS } from "../../protocol/skills.ts";
import { formatBytes } from "../../shared/text.ts";
import { canonicalMemberPath, hasZipMagic, quotableName, unzipWithinLimits } from "../../shared/zip-safety.ts";
import { parseSkillMarkdown, type SkillMetadata } from "./skill-frontmatter.ts";
import type { UserFacing } from "../../shared/user-error.ts";

/** Why an archive cannot be installed; `message` is one sentence for the user. */
export class SkillArchiveError extends Error implements UserFacing {
  override readonly name = "SkillArchiveError";
  readonly userFacing = "invalid";
}

/** A skill read from an archive: its metadata and its files by path relative to the skill's root (posix). */
export interface SkillArchive {
  metadata: SkillMetadata;
  files: Record<string, Uint8Array>;
}

const SKILL_FILE = "SKILL.md";

/** Leading bytes of native executables: ELF, PE (MZ), Mach-O (32/64-bit, both byte orders) and fat Mach-O. */
const EXECUTABLE_MAGIC: readonly (readonly number[])[] = [
  [0x7f, 0x45, 0x4c, 0x46],
  [0x4d, 0x5a],
  [0xfe, 0xed, 0xfa, 0xce],
  [0xfe, 0xed, 0xfa, 0xcf],
  [0xce, 0xfa, 0xed, 0xfe],
  [0xcf, 0xfa, 0xed, 0xfe],
  [0xca, 0xfe, 0xba, 0xbe],
];

function fail(message: string): never {
  throw new SkillArchiveError(message);
}

function isExecutable(bytes: Uint8Array): boolean {
  return EXECUTABLE_MAGIC.some((magic) => magic.every((byte, index) => bytes[index] === byte));
}

/** Finder's resource forks: never part of a skill. */
function isMacMetadata(name: string): boolean {
  return name === "__MACOSX" || name.startsWith("__MACOSX/");
}

/**
 * Reads and validates a skill archive. The archive's single top-level folder (ignoring `__MACOSX/` and dotfiles) is
 * the skill's root when every member lives in it; otherwise the archive's root is. Throws SkillArchiveError when the
 * name is not `.skill`/`.zip`, the archive is too big or not a zip, a member has an unsafe path, a file or the total
 * is over SKILL_ARCHIVE_LIMITS, a file is a native executable, SKILL.md is missing at the root or present deeper, or
 * its frontmatter is invalid.
 */
export function readSkillArchive(fileName: string, bytes: Uint8Array): SkillArchive {
  const limits = SKILL_ARCHIVE_LIMITS;
  if (!/\.(skill|zip)$/i.test(fileName))
    fail(`'${fileName}' is not a skill archive: its name must end in .skill or .zip.`);
  if (bytes.length > limits.maxArchiveBytes) {
    fail(
      `'${fileName}' is too large to install (${formatBytes(bytes.length)}; at most ${formatBytes(limits.maxArchiveBytes)}).`,
    );
  }
  if (!hasZipMagic(bytes)) fail(`'${fileName}' is not a valid zip archive.`);

  const members = unzipWithinLimits(
    bytes,
    { maxEntries: limits.maxEntries, maxMemberBytes: limits.maxFileBytes, maxTotalBytes: limits.maxTotalBytes },
    {
      tooManyEntries: `'${fileName}' has more than ${limits.maxEntries} entries.`,
      unsafeName: (name) => `'${fileName}' contains an unsafe path '${name}'.`,
      memberTooLarge: (name, declared) => fileTooLarge(fileName, name, declared),
      totalTooLarge: totalTooLarge(fileName),
      notZip: `'${fileName}' is not a valid zip archive.`,
      duplicateName: (name) => `'${fileName}' holds '${name}' twice.`,
      damaged: (name) => `'${fileName}' is damaged: the bytes of '${name}' do not match the checksum it records.`,
    },
    fail,
    { skip: isMacMetadata },
  );

  let total = 0;
  for (const [name, data] of Object.entries(members)) {
    if (data.length > limits.maxFileBytes) fail(fileTooLarge(fileName, quotableName(name), data.length));
    total += data.length;
    if (total > limits.maxTotalBytes) fail(totalTooLarge(fileName));
    if (isExecutable(data)) {
      fail(`'${fileName}' contains an executable program '${quotableName(name)}', which skills may not ship.`);
    }
  }

  const root = skillRoot(Object.keys(members));
  const files: Record<string, Uint8Array> = {};
  for (const [name, data] of Object.entries(members)) {
    if (!name.startsWith(root)) continue;
    // Stored in the one form a backup writes and reads back (`docs/./a.md` is `docs/a.md`).
    const path = canonicalMemberPath(name.slice(root.length));
    if (path === undefined) fail(`'${fileName}' contains an unsafe path '${quotableName(name)}'.`);
    if (Object.hasOwn(files, path)) fail(`'${fileName}' holds the file '${path}' twice, under two spellings.`);
    files[path] = data;
  }
  const skillFile = files[SKILL_FILE];
  if (!skillFile) fail(`${SKILL_FILE} not found at the root of '${fileName}'.`);
  const nested = Object.keys(files).find((path) => path !== SKILL_FILE && path.endsWith(`/${SKILL_FILE}`));
  if (nested) fail(`'${fileName}' contains a nested ${SKILL_FILE} at '${nested}': an archive holds exactly one skill.`);

  const parsed = parseSkillMarkdown(new TextDecoder().decode(skillFile));
  if (!parsed.ok) fail(`${SKILL_FILE}: ${parsed.message}`);
  return { metadata: parsed.metadata, files };
}

/** `"<dir>/"` when every member (dotfiles and `__MACOSX/` aside) is inside the one top-level folder `<dir>`, else "". */
function skillRoot(names: readonly string[]): string {
  const relevant = names.filter((name) => !name.startsWith("."));
  const [first] = relevant;
  const slash = first?.indexOf("/") ?? -1;
  if (first === undefined || slash <= 0) return "";
  const prefix = first.slice(0, slash + 1);
  return relevant.every((name) => name.startsWith(prefix)) ? prefix : "";
}

function fileTooLarge(fileName: string, member: string, size: number): string {
  const limit = SKILL_ARCHIVE_LIMITS.maxFileBytes;
  return `'${fileName}' contains '${member}', which is too large (${formatBytes(size)} uncompressed; at most ${formatBytes(limit)} per file).`;
}

function totalTooLarge(fileName: string): string {
  return `'${fileName}' is too large once unpacked (more than ${formatBytes(SKILL_ARCHIVE_LIMITS.maxTotalBytes)} in all).`;
}
