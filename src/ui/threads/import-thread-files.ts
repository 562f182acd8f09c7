// What "Import thread" sends the Gateway, from what the user picked: a Fawn bundle, or a DeerFlow thread (its folder
// with thread.json beside its user-data/, a .zip of that folder, or thread.json with loose files). What a file is, is
// read from its bytes, not its name: an export imports back under whatever name it was saved. The Gateway checks
// everything again before it writes; the checks here only spare reading a choice it would refuse.
import { DEERFLOW_IMPORT_LIMITS, tooLargeImport, tooManyImportFiles } from "../../protocol/index.ts";
import { formatBytes } from "../../shared/text.ts";
import { t } from "../i18n/index.ts";

const IMPORT_MAX_FILES = DEERFLOW_IMPORT_LIMITS.max_files;
const IMPORT_MAX_BYTES = DEERFLOW_IMPORT_LIMITS.max_total_size;
/** thread.json is parsed on the page: a larger one is not a thread anyone exported. */
export const THREAD_JSON_MAX_BYTES = 64 * 1024 * 1024;

export interface ThreadImportInput {
  thread: unknown;
  /** By their path in the thread's folder: `user-data/outputs/report.md`. */
  files: { path: string; bytes: Uint8Array }[];
}

/** A refusal meant for the user, one sentence. */
export class ThreadImportPickError extends Error {
  override name = "ThreadImportPickError";
}

/** One picked entry: its path within what was picked (folder or zip) and how to read it. */
interface Entry {
  path: string;
  size: number;
  read: () => Promise<Uint8Array>;
}

const THREAD_JSON = "thread.json";
const USER_DATA = "user-data/";

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Files an OS adds beside the user's: Finder's .DS_Store and AppleDouble `._x`, a zip's `__MACOSX/`. */
function isOsClutter(path: string): boolean {
  const name = baseName(path);
  return name === ".DS_Store" || name.startsWith("._") || path.startsWith("__MACOSX/") || path.includes("/__MACOSX/");
}

function isZip(file: File): boolean {
  return /\.zip$/i.test(file.name) || file.type === "application/zip" || file.type === "application/x-zip-compressed";
}

const tooLarge = (total: number) => new ThreadImportPickError(tooLargeImport(total));
const tooMany = (count: number) => new ThreadImportPickError(tooManyImportFiles(count));

/** The entries of a .zip, read whole once its listing has been checked against the limits. */
async function zipEntries(file: File): Promise<Entry[]> {
  const { unzipSync } = await import("fflate");
  const bytes = new Uint8Array(await file.arrayBuffer());
  let total = 0;
  let count = 0;
  let unzipped: Record<string, Uint8Array>;
  try {
    unzipped = unzipSync(bytes, {
      filter: (entry) => {
        if (entry.name.endsWith("/") || isOsClutter(entry.name)) return false;
        total += entry.originalSize;
        count += 1;
        if (count > IMPORT_MAX_FILES + 1) throw tooMany(count);
        if (total > IMPORT_MAX_BYTES + THREAD_JSON_MAX_BYTES) throw tooLarge(total);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof ThreadImportPickError) throw error;
    throw new ThreadImportPickError(`${file.name} is not a .zip archive that can be read.`);
  }
  return Object.entries(unzipped).map(([path, data]) => ({ path, size: data.byteLength, read: async () => data }));
}

function pickedEntries(files: readonly File[]): Entry[] {
  return files
    .map((file) => ({
      path: file.webkitRelativePath || file.name,
      size: file.size,
      read: async () => new Uint8Array(await file.arrayBuffer()),
    }))
    .filter((entry) => !isOsClutter(entry.path));
}

/** A thread.json under another name: Fawn's DeerFlow JSON export saves as `<title>.thread.json`. */
const RENAMED_THREAD_JSON = /\.thread(?: ?\(\d+\))?\.json$/i;

/** The one thread.json nearest the top of what was picked (a `….thread.json` when there is no thread.json). */
function findThreadJson(entries: readonly Entry[]): Entry {
  const exact = entries.filter((entry) => baseName(entry.path) === THREAD_JSON);
  const candidates =
    exact.length > 0 ? exact : entries.filter((entry) => RENAMED_THREAD_JSON.test(baseName(entry.path)));
  const depth = (entry: Entry) => entry.path.split("/").length;
  const shallowest = Math.min(...candidates.map(depth));
  const top = candidates.filter((entry) => depth(entry) === shallowest);
  if (top.length === 0) {
    throw new ThreadImportPickError(
      "There is no thread.json here: choose a DeerFlow thread's folder, a .zip of it, or its thread.json.",
    );
  }
  if (top.length > 1) {
    throw new ThreadImportPickError(`Choose one thread at a time: there are ${top.length} thread.json files here.`);
  }
  return top[0] as Entry;
}

async function parseThreadJson(entry: Entry): Promise<unknown> {
  if (entry.size > THREAD_JSON_MAX_BYTES) {
    throw new ThreadImportPickError(
      `thread.json is ${formatBytes(entry.size)}; a thread.json may have at most ${formatBytes(THREAD_JSON_MAX_BYTES)}.`,
    );
  }
  const text = new TextDecoder().decode(await entry.read());
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ThreadImportPickError(`thread.json is not valid JSON${whereJsonBreaks(text, error)}.`);
  }
}

/**
 * " (at line L, column C)" where JSON.parse stopped, when its message says (V8 and WebKit give a position for most
 * errors, Firefox a line and column), else "". The parser's own words are left out: they can quote the file, line
 * breaks included.
 */
function whereJsonBreaks(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return ` (at line ${lineColumn[1]}, column ${lineColumn[2]})`;
  const position = /position (\d+)/.exec(message);
  if (!position) return "";
  const before = text.slice(0, Number(position[1]));
  const line = before.split("\n").length;
  return ` (at line ${line}, column ${before.length - before.lastIndexOf("\n")})`;
}

/** Where loose files go: the presented file or upload of the same name, else outputs. */
function loosePaths(thread: unknown): Map<string, string> {
  const values = (thread as { values?: Record<string, unknown> } | null)?.values ?? thread;
  const { artifacts, uploaded_files: uploads } = (values ?? {}) as Record<string, unknown>;
  const paths = [
    ...(Array.isArray(artifacts) ? artifacts : []),
    ...(Array.isArray(uploads) ? uploads.map((upload: unknown) => (upload as { path?: unknown } | null)?.path) : []),
  ].filter((path): path is string => typeof path === "string" && path.startsWith("/mnt/user-data/"));
  const byName = new Map<string, string>();
  for (const path of paths) if (!byName.has(baseName(path))) byName.set(baseName(path), path.slice("/mnt/".length));
  return byName;
}

/**
 * Reads what the user picked into the Gateway's import input. From a folder or a .zip, the files under the
 * user-data/ beside thread.json are taken with their paths; loose files picked with thread.json go where the thread
 * presented or uploaded a file of that name, else to outputs. Throws a ThreadImportPickError for a choice without
 * exactly one top thread.json, or over the limits.
 */
export async function readThreadImport(picked: readonly File[]): Promise<ThreadImportInput> {
  const zip = picked.length === 1 && picked[0] && isZip(picked[0]) ? picked[0] : undefined;
  const entries = zip ? await zipEntries(zip) : pickedEntries(picked);
  return threadImportOf(entries, findThreadJson(entries));
}

async function threadImportOf(entries: readonly Entry[], threadJson: Entry): Promise<ThreadImportInput> {
  const root = threadJson.path.slice(0, threadJson.path.length - baseName(threadJson.path).length);
  const thread = await parseThreadJson(threadJson);

  // Files picked one by one come without their folders.
  const loose = entries.every((entry) => !entry.path.includes("/")) ? loosePaths(thread) : undefined;
  const chosen: { path: string; entry: Entry }[] = [];
  for (const entry of entries) {
    if (entry === threadJson) continue;
    if (loose) chosen.push({ path: loose.get(entry.path) ?? `${USER_DATA}outputs/${entry.path}`, entry });
    else if (entry.path.startsWith(`${root}${USER_DATA}`)) chosen.push({ path: entry.path.slice(root.length), entry });
  }
  if (chosen.length > IMPORT_MAX_FILES) throw tooMany(chosen.length);
  const total = chosen.reduce((sum, { entry }) => sum + entry.size, 0);
  if (total > IMPORT_MAX_BYTES) throw tooLarge(total);
  const files = await Promise.all(chosen.map(async ({ path, entry }) => ({ path, bytes: await entry.read() })));
  return { thread, files };
}

/** What the user picked, read: a Fawn bundle to import as it is, or a DeerFlow thread's import input. */
export type ThreadPick = { kind: "bundle"; file: File } | { kind: "deerflow"; input: ThreadImportInput };

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const MANIFEST = "manifest.json";

async function startsWithZipMagic(file: File): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, ZIP_MAGIC.length).arrayBuffer());
  return ZIP_MAGIC.every((byte, index) => head[index] === byte);
}

/** Whether a zip holds a Fawn archive (its manifest.json at the top) rather than a DeerFlow thread's folder. */
async function isFawnBundle(file: File): Promise<boolean> {
  if (/\.fawn$/i.test(file.name)) return true;
  const { unzipSync } = await import("fflate");
  const names: string[] = [];
  try {
    // Lists the members without inflating any.
    unzipSync(new Uint8Array(await file.arrayBuffer()), {
      filter: (entry) => {
        names.push(entry.name);
        return false;
      },
    });
  } catch {
    return false;
  }
  return names.includes(MANIFEST) && !names.some((name) => baseName(name) === THREAD_JSON);
}

/** The first characters of a text file, its byte-order mark left out. */
async function textStart(file: File): Promise<string> {
  return new TextDecoder().decode(await file.slice(0, 256).arrayBuffer()).replace(/^\uFEFF/, "");
}

/**
 * Reads what "Import thread" was given, telling kinds apart by their bytes: a zip holding a manifest.json (a `.fawn`,
 * whatever it is called now) is a Fawn bundle; one file holding JSON is a DeerFlow thread.json (Fawn's DeerFlow JSON
 * export, saved as `<title>.thread.json` or renamed); a Markdown transcript is refused with a sentence saying it is for
 * reading; anything else goes to readThreadImport (a folder, a DeerFlow .zip, thread.json with its files).
 */
export async function readThreadPick(picked: readonly File[]): Promise<ThreadPick> {
  const [only] = picked;
  if (picked.length === 1 && only) {
    if (/\.fawn$/i.test(only.name) || ((await startsWithZipMagic(only)) && (await isFawnBundle(only)))) {
      return { kind: "bundle", file: only };
    }
    if (!(await startsWithZipMagic(only))) {
      const start = (await textStart(only)).trimStart();
      if (start.startsWith("{")) {
        const [entry] = pickedEntries([only]);
        if (entry) return { kind: "deerflow", input: await threadImportOf([entry], entry) };
      }
      if (/\.(md|markdown)$/i.test(only.name) || start.startsWith("#")) {
        throw new ThreadImportPickError(t("import.markdownNotImportable"));
      }
    }
  } else if (picked.length > 1 && picked.every((file) => /\.(md|markdown)$/i.test(file.name))) {
    throw new ThreadImportPickError(t("import.markdownNotImportable"));
  }
  return { kind: "deerflow", input: await readThreadImport(picked) };
}
