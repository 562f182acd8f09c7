// A thread's uploads (DeerFlow's `routers/uploads.py`): files the user attaches land in /mnt/user-data/uploads, with
// DeerFlow's names, limits and dedup; PDF, DOCX, XLSX and PPTX files get a Markdown companion beside them. An upload
// is checked whole first and written in one ThreadFiles transaction: all of it is stored, or none.
import { UPLOADS_DIR } from "../../sandbox/sandbox.ts";
import {
  UPLOAD_LIMITS,
  type UploadedFileInfo,
  type UploadLimits,
  type UploadListEntry,
  type UploadResult,
} from "../../protocol/index.ts";
import type { ThreadFileStorage } from "../../storage/index.ts";
import { isQuotaError, STORAGE_FULL_MESSAGE } from "../../storage/index.ts";
import { convertToMarkdown, isConvertible } from "./convert-document.ts";
import {
  checkUploadLimits,
  claimUniqueFilename,
  markdownCompanionName,
  normalizeFilename,
  splitExtension,
  UploadError,
} from "./upload-rules.ts";

export interface UploadInput {
  /** The name the user's file has (a path is reduced to its last segment). */
  name: string;
  bytes: Uint8Array;
}

/**
 * Turns a document into Markdown (see convertToMarkdown); rejects with a readable reason. `signal` aborts when the
 * conversion is given up: a converter stops what it can (a PDF's parser worker).
 */
export type ConvertDocument = (filename: string, bytes: Uint8Array, signal?: AbortSignal) => Promise<string>;

/** How long a document's conversion may take before the upload is stored without its Markdown. */
export const CONVERSION_TIMEOUT_MS = 60_000;

export interface UploadsServiceOptions {
  /** Converts documents to Markdown companions; defaults to convertToMarkdown, `false` turns conversion off. */
  convert?: ConvertDocument | false;
  limits?: UploadLimits;
  /** CONVERSION_TIMEOUT_MS unless given (tests shorten it). */
  conversionTimeoutMs?: number;
}

/** Files a staged upload leaves behind while it is written; never listed (DeerFlow's `.upload-*.part`). */
const STAGING_FILE = /^\.upload-.*\.part$/;

function uploadPath(filename: string): string {
  return `${UPLOADS_DIR}/${filename}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** An error's message as the end of a sentence (libraries end some with a period, Fawn adds its own). */
function reasonOf(error: unknown): string {
  const reason = error instanceof Error && error.message !== "" ? error.message : String(error);
  return reason.trim().replace(/[.?!]+$/, "");
}

export class UploadsService {
  readonly #files: ThreadFileStorage;
  readonly #convert: ConvertDocument | false;
  readonly #limits: UploadLimits;
  readonly #conversionTimeoutMs: number;

  constructor(files: ThreadFileStorage, options: UploadsServiceOptions = {}) {
    this.#files = files;
    this.#convert = options.convert ?? convertToMarkdown;
    this.#limits = options.limits ?? UPLOAD_LIMITS;
    this.#conversionTimeoutMs = options.conversionTimeoutMs ?? CONVERSION_TIMEOUT_MS;
  }

  /**
   * Stores the files in the thread's uploads. Throws an UploadError and writes nothing when the upload breaks a limit
   * or has a file whose name is unsafe (both checked before anything else), or when the browser's storage is full.
   * Names keep their last path segment only; within one upload, a name already taken gets `_1`, `_2`… before its
   * extension, and a file named like an earlier upload of the thread replaces it. Each convertible document gets a
   * `<stem>.md` companion, whose name is claimed like the others' in file order; a document that cannot be converted
   * is stored without one, with a `warning`.
   */
  async upload(threadId: string, files: readonly UploadInput[]): Promise<UploadResult> {
    checkUploadLimits(
      files.map((file) => ({ name: file.name, size: file.bytes.byteLength })),
      this.#limits,
    );
    // DeerFlow skips a file with an unsafe name and stores the rest; Fawn refuses the upload, as for a limit.
    const safeNames = files.map((file) => normalizeFilename(file.name));
    const seen = new Set<string>();
    const uploaded: UploadedFileInfo[] = [];
    const writes: { path: string; bytes: Uint8Array }[] = [];
    for (const [index, file] of files.entries()) {
      const safeName = safeNames[index]!;
      const filename = claimUniqueFilename(safeName, seen);
      const entry: UploadedFileInfo = { filename, size: file.bytes.byteLength, virtual_path: uploadPath(filename) };
      if (filename !== safeName) entry.original_filename = safeName;
      writes.push({ path: entry.virtual_path, bytes: file.bytes });
      if (this.#convert && isConvertible(filename)) {
        const markdownName = claimUniqueFilename(markdownCompanionName(filename), seen);
        try {
          const markdown = await this.#convertWithin(this.#convert, filename, file.bytes);
          writes.push({ path: uploadPath(markdownName), bytes: new TextEncoder().encode(markdown) });
          entry.markdown_file = markdownName;
          entry.markdown_virtual_path = uploadPath(markdownName);
        } catch (error) {
          seen.delete(markdownName);
          entry.warning = `${filename} was uploaded, but it could not be converted to Markdown: ${reasonOf(error)}.`;
        }
      }
      uploaded.push(entry);
    }
    try {
      await this.#files.apply(threadId, { write: writes });
    } catch (error) {
      if (isQuotaError(error)) throw new UploadError(STORAGE_FULL_MESSAGE, 507);
      throw error;
    }
    return { files: uploaded, message: message(uploaded) };
  }

  /** The document's Markdown, or a rejection saying it took too long (the converter is told to stop). */
  async #convertWithin(convert: ConvertDocument, filename: string, bytes: Uint8Array): Promise<string> {
    const giveUp = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const seconds = Math.round(this.#conversionTimeoutMs / 100) / 10;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new Error(`the conversion took longer than ${seconds} seconds`));
        giveUp.abort();
      }, this.#conversionTimeoutMs);
    });
    try {
      return await Promise.race([convert(filename, bytes, giveUp.signal), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The thread's uploads, sorted by name; subfolders and staging files are left out. */
  async list(threadId: string): Promise<UploadListEntry[]> {
    const metas = await this.#files.list(threadId, UPLOADS_DIR);
    return metas
      .map((meta) => ({ meta, filename: meta.path.slice(UPLOADS_DIR.length + 1) }))
      .filter(({ filename }) => !filename.includes("/") && !STAGING_FILE.test(filename))
      .sort((a, b) => (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0))
      .map(({ meta, filename }) => ({
        filename,
        size: meta.size,
        virtual_path: meta.path,
        extension: splitExtension(filename)[1],
        modified: meta.mtime / 1000,
      }));
  }

  /**
   * Deletes an upload, and for a PDF, DOCX, XLSX or PPTX its `<stem>.md` companion, in one transaction. Throws an
   * UploadError: 400 when `filename` is not a plain file name (a path, `..`), 404 when there is no such upload.
   */
  async delete(threadId: string, filename: string): Promise<void> {
    let safeName: string | undefined;
    try {
      safeName = normalizeFilename(filename);
    } catch {
      safeName = undefined;
    }
    if (safeName !== filename) {
      throw new UploadError(`${JSON.stringify(filename)} is not the name of a file in the uploads folder.`);
    }
    const path = uploadPath(filename);
    if (!(await this.#files.stat(threadId, path))) {
      throw new UploadError(`There is no upload named ${filename} in this thread.`, 404);
    }
    const paths = [path];
    if (isConvertible(filename)) paths.push(uploadPath(markdownCompanionName(filename)));
    await this.#files.apply(threadId, { delete: paths });
  }
}

function message(uploaded: readonly UploadedFileInfo[]): string {
  const sentences = [`Uploaded ${plural(uploaded.length, "file")}.`];
  const unconverted = uploaded.filter((file) => file.warning !== undefined).length;
  if (unconverted > 0) sentences.push(`${plural(unconverted, "document")} could not be converted to Markdown.`);
  return sentences.join(" ");
}
