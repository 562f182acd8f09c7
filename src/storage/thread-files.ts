// The files of each thread (its workspace, uploads and outputs) in Fawn's IndexedDB (docs/architecture.md#d2-storage).
// Bytes live in `thread_files`, their meta in `thread_file_meta`; both are written in one transaction, so a listing
// reads only the meta and never a file's bytes. A write of many files is one transaction: all of them are stored, or
// none.
import type { FawnDb, ThreadFileMeta, ThreadFileMetaRecord, ThreadFileRecord } from "./fawn-db.ts";
import type { ThreadFileStorage } from "./contracts.ts";

export type { ThreadFileMeta } from "./fawn-db.ts";

export interface ThreadFileInput {
  path: string;
  bytes: Uint8Array;
  /** Guessed from the extension when absent. */
  mimeType?: string;
}

export interface ThreadFile {
  bytes: Uint8Array;
  meta: ThreadFileMeta;
}

/** Every file path starts with this, then one of `THREAD_FILE_AREAS`. */
export const THREAD_FILES_ROOT = "/mnt/user-data/";
export const THREAD_FILE_AREAS = ["workspace", "uploads", "outputs"] as const;
export const MAX_THREAD_FILE_PATH = 1024;

const MIME_TYPES: Readonly<Record<string, string>> = {
  md: "text/markdown",
  txt: "text/plain",
  csv: "text/csv",
  json: "application/json",
  html: "text/html",
  css: "text/css",
  js: "text/javascript",
  ts: "text/typescript",
  py: "text/x-python",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  svg: "image/svg+xml",
  webp: "image/webp",
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  zip: "application/zip",
};

export const DEFAULT_MIME_TYPE = "application/octet-stream";

/** The MIME type for a path's extension (case-insensitive), or application/octet-stream. */
export function guessMimeType(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return DEFAULT_MIME_TYPE;
  return MIME_TYPES[name.slice(dot + 1).toLowerCase()] ?? DEFAULT_MIME_TYPE;
}

/** Why `path` may not be written, or undefined when it may. */
export function threadFilePathProblem(path: unknown): string | undefined {
  if (typeof path !== "string") return "a path must be a string";
  if (path.length > MAX_THREAD_FILE_PATH) return `a path may have at most ${MAX_THREAD_FILE_PATH} characters`;
  if (path.includes("\\")) return "a path may not contain backslashes";
  if (path.includes("\0")) return "a path may not contain NUL characters";
  // A lone surrogate has no UTF-8 form: an archive would hold another name than the one stored.
  if (/\p{Cs}/u.test(path)) return "a path must be valid Unicode text";
  if (!THREAD_FILE_AREAS.some((area) => path.startsWith(`${THREAD_FILES_ROOT}${area}/`))) {
    return `a path must start with ${THREAD_FILE_AREAS.map((area) => `${THREAD_FILES_ROOT}${area}/`).join(", ")}`;
  }
  const segments = path.slice(1).split("/");
  if (segments.some((segment) => segment === "")) return "a path may not have empty segments (// or a trailing /)";
  if (segments.some((segment) => segment === "." || segment === "..")) {
    return 'a path may not have "." or ".." segments';
  }
  return undefined;
}

/** Throws an Error naming the path and the rule it breaks. */
export function assertThreadFilePath(path: unknown): asserts path is string {
  const problem = threadFilePathProblem(path);
  if (problem !== undefined) throw new Error(`Invalid file path ${JSON.stringify(path)}: ${problem}.`);
}

export function assertThreadId(threadId: unknown): asserts threadId is string {
  if (typeof threadId !== "string" || threadId === "") throw new Error("A thread id must be a non-empty string.");
}

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** SHA-256 of the bytes, lowercase hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", ownBytes(bytes)));
}

/**
 * The bytes in an ArrayBuffer of their own: storing a view of a larger buffer would store the whole buffer (the
 * structured clone copies a view's entire buffer).
 */
function ownBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  if (bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) {
    return bytes as Uint8Array<ArrayBuffer>;
  }
  return bytes.slice() as Uint8Array<ArrayBuffer>;
}

/** Every key [threadId, path] with `path` starting with `prefix` ("" for the whole thread). */
function pathRange(threadId: string, prefix = ""): IDBKeyRange {
  if (prefix === "") return IDBKeyRange.bound([threadId], [threadId, []]);
  const last = prefix.charCodeAt(prefix.length - 1);
  // Strings starting with `prefix` are exactly those in [prefix, prefix with its last code unit incremented).
  if (last < 0xffff) {
    return IDBKeyRange.bound(
      [threadId, prefix],
      [threadId, prefix.slice(0, -1) + String.fromCharCode(last + 1)],
      false,
      true,
    );
  }
  return IDBKeyRange.bound([threadId, prefix], [threadId, []]);
}

function toMeta({ path, size, sha256, mimeType, mtime }: ThreadFileMetaRecord): ThreadFileMeta {
  return { path, size, sha256, mimeType, mtime };
}

export class ThreadFiles implements ThreadFileStorage {
  constructor(private readonly db: FawnDb) {}

  /** The file's bytes and meta, read in one transaction; undefined when there is no such file. */
  async read(threadId: string, path: string): Promise<ThreadFile | undefined> {
    const tx = this.db.transaction(["thread_files", "thread_file_meta"], "readonly");
    const [file, meta] = await Promise.all([
      tx.objectStore("thread_files").get([threadId, path]),
      tx.objectStore("thread_file_meta").get([threadId, path]),
      tx.done,
    ]);
    if (!file || !meta) return undefined;
    return { bytes: file.bytes, meta: toMeta(meta) };
  }

  /**
   * Writes (creates or replaces) the files in one transaction and returns their meta. Every path is checked first:
   * one invalid path rejects the whole write and nothing is stored. When a path appears twice, the later one wins.
   */
  async write(threadId: string, files: readonly ThreadFileInput[]): Promise<ThreadFileMeta[]> {
    return this.apply(threadId, { write: files });
  }

  /**
   * Writes some files and deletes others in one transaction (a sandbox command's changes): all of it is stored or
   * none. Paths are checked first, as for `write`; deleting a path that does not exist is not an error.
   */
  async apply(
    threadId: string,
    changes: { write?: readonly ThreadFileInput[]; delete?: readonly string[] },
  ): Promise<ThreadFileMeta[]> {
    assertThreadId(threadId);
    const files = changes.write ?? [];
    const deleted = changes.delete ?? [];
    for (const file of files) assertThreadFilePath(file.path);
    // Hash before the transaction opens: it would commit while we awaited crypto.subtle.
    const prepared = await fileRecords(threadId, files);
    const tx = this.db.transaction(["thread_files", "thread_file_meta"], "readwrite");
    const done = tx.done;
    done.catch(() => undefined);
    const fileStore = tx.objectStore("thread_files");
    const metaStore = tx.objectStore("thread_file_meta");
    try {
      await Promise.all([
        ...deleted.flatMap((path) => [fileStore.delete([threadId, path]), metaStore.delete([threadId, path])]),
        ...prepared.flatMap(([file, meta]) => [fileStore.put(file), metaStore.put(meta)]),
      ]);
    } catch (error) {
      if (!tx.error) tx.abort();
      throw error;
    }
    await done;
    const written = new Map(prepared.map(([, meta]) => [meta.path, toMeta(meta)]));
    return [...written.values()];
  }

  /** Every file of the thread with its bytes, read in one transaction (a sandbox loads a thread with this). */
  async readAll(threadId: string): Promise<ThreadFile[]> {
    const tx = this.db.transaction(["thread_files", "thread_file_meta"], "readonly");
    const [files, metas] = await Promise.all([
      tx.objectStore("thread_files").getAll(pathRange(threadId)),
      tx.objectStore("thread_file_meta").getAll(pathRange(threadId)),
      tx.done,
    ]);
    const bytesByPath = new Map(files.map((file) => [file.path, file.bytes]));
    return metas.flatMap((meta) => {
      const bytes = bytesByPath.get(meta.path);
      return bytes ? [{ bytes, meta: toMeta(meta) }] : [];
    });
  }

  /**
   * The meta of the thread's files, by path, without reading their bytes. With `dirPrefix`, only the files below
   * that directory (at any depth); a missing trailing "/" is added, so "/mnt/user-data/out" matches no outputs.
   */
  async list(threadId: string, dirPrefix?: string): Promise<ThreadFileMeta[]> {
    const prefix = dirPrefix === undefined || dirPrefix === "" || dirPrefix.endsWith("/") ? dirPrefix : `${dirPrefix}/`;
    const records = await this.db.getAll("thread_file_meta", pathRange(threadId, prefix));
    return records.filter((record) => prefix === undefined || record.path.startsWith(prefix)).map(toMeta);
  }

  async stat(threadId: string, path: string): Promise<ThreadFileMeta | undefined> {
    const meta = await this.db.get("thread_file_meta", [threadId, path]);
    return meta && toMeta(meta);
  }

  /** Deletes the files (paths that do not exist are skipped), in one transaction. */
  async delete(threadId: string, paths: readonly string[]): Promise<void> {
    const tx = this.db.transaction(["thread_files", "thread_file_meta"], "readwrite");
    await Promise.all([
      ...paths.flatMap((path) => [
        tx.objectStore("thread_files").delete([threadId, path]),
        tx.objectStore("thread_file_meta").delete([threadId, path]),
      ]),
      tx.done,
    ]);
  }

  /** Deletes every file of the thread, in one transaction. */
  async deleteThread(threadId: string): Promise<void> {
    const tx = this.db.transaction(["thread_files", "thread_file_meta"], "readwrite");
    await Promise.all([
      tx.objectStore("thread_files").delete(pathRange(threadId)),
      tx.objectStore("thread_file_meta").delete(pathRange(threadId)),
      tx.done,
    ]);
  }
}

/**
 * The `thread_files` and `thread_file_meta` records of `files` (bytes copied into buffers of their own, hashed).
 * Await it before opening the transaction that stores them: hashing would let an open transaction commit.
 */
export function fileRecords(
  threadId: string,
  files: readonly ThreadFileInput[],
): Promise<[ThreadFileRecord, ThreadFileMetaRecord][]> {
  const mtime = Date.now();
  return Promise.all(
    files.map(async (file): Promise<[ThreadFileRecord, ThreadFileMetaRecord]> => {
      const bytes = ownBytes(file.bytes);
      const meta: ThreadFileMetaRecord = {
        thread_id: threadId,
        path: file.path,
        size: bytes.byteLength,
        sha256: await sha256Hex(bytes),
        mimeType: file.mimeType ?? guessMimeType(file.path),
        mtime,
      };
      return [{ thread_id: threadId, path: file.path, bytes }, meta];
    }),
  );
}
