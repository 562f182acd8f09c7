// DeerFlow's upload rules (deerflow/uploads/manager.py): safe file names, unique names within one upload, and the
// count and size limits that refuse an upload whole.
import { UPLOAD_LIMITS, uploadLimitProblem, type UploadLimits } from "../../protocol/index.ts";
import type { UserFacing } from "../../shared/user-error.ts";

/** The longest file name, in UTF-8 bytes (what most file systems allow). */
export const MAX_FILENAME_BYTES = 255;

/**
 * An upload request the user has to change. `message` is a sentence for the user; `status` is the HTTP status
 * DeerFlow answers with: 400 for a bad name, 404 for a missing upload, 413 for an upload over a limit, 507 when the
 * browser's storage is full.
 */
export class UploadError extends Error implements UserFacing {
  override name = "UploadError";
  readonly userFacing = "invalid";

  constructor(
    message: string,
    readonly status: 400 | 404 | 413 | 507 = 400,
  ) {
    super(message);
  }
}

// Control characters (C0, DEL and C1): they hide in listings and break shells.
const CONTROL_CHARACTERS = /\p{Cc}/u;

/**
 * The safe name to store a file under: only its last path segment (`"../../etc/passwd"` → `"passwd"`,
 * `"C:\\docs\\a.txt"` → `"a.txt"`). Throws an UploadError for a name that is empty, `.` or `..`, longer than 255 UTF-8
 * bytes, or contains control characters.
 */
export function normalizeFilename(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? "";
  if (base.trim() === "") throw new UploadError(`The file name ${JSON.stringify(name)} is empty.`);
  if (base === "." || base === "..") throw new UploadError(`The file name ${JSON.stringify(name)} is unsafe.`);
  if (CONTROL_CHARACTERS.test(base)) {
    throw new UploadError(`The file name ${JSON.stringify(name)} contains control characters.`);
  }
  if (new TextEncoder().encode(base).byteLength > MAX_FILENAME_BYTES) {
    throw new UploadError(`The file name ${JSON.stringify(name)} is longer than ${MAX_FILENAME_BYTES} bytes.`);
  }
  return base;
}

/** The name without its last extension and the extension with its dot: `"a.tar.gz"` → `["a.tar", ".gz"]`. */
export function splitExtension(name: string): [stem: string, extension: string] {
  const dot = name.lastIndexOf(".");
  // A leading dot starts a hidden name, not an extension (".env" has none), as in Python's PurePath.suffix.
  if (dot <= 0 || dot === name.length - 1) return [name, ""];
  return [name.slice(0, dot), name.slice(dot)];
}

/**
 * `name` if no file in this upload has it yet, else the first free `stem_1.ext`, `stem_2.ext`, …; the name returned
 * is added to `seen`. Delete it from `seen` to give it back.
 */
export function claimUniqueFilename(name: string, seen: Set<string>): string {
  let claimed = name;
  if (seen.has(claimed)) {
    const [stem, extension] = splitExtension(name);
    for (let counter = 1; seen.has(claimed); counter++) claimed = `${stem}_${counter}${extension}`;
  }
  seen.add(claimed);
  return claimed;
}

/** The name of the Markdown made from a document: `"notes.docx"` → `"notes.md"`. */
export function markdownCompanionName(filename: string): string {
  return `${splitExtension(filename)[0]}.md`;
}

/**
 * Throws an UploadError (status 413) naming the first limit the upload breaks (see `uploadLimitProblem`), before any
 * file is read or written. Throws status 400 when there is no file at all.
 */
export function checkUploadLimits(
  files: readonly { name: string; size: number }[],
  limits: UploadLimits = UPLOAD_LIMITS,
): void {
  if (files.length === 0) throw new UploadError("Choose at least one file to upload.");
  const problem = uploadLimitProblem(files, limits);
  if (problem) throw new UploadError(problem, 413);
}
