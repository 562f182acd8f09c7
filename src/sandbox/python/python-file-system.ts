// The run's files in Pyodide's memory file system: the thread's files mirrored in at their virtual paths, wiped
// before and after each run, and what the program changed under /mnt/user-data read back.
import { SKILLS_ROOT, USER_DATA_DIRS, USER_DATA_ROOT } from "../sandbox.ts";
import type { PythonRunRequest, PythonRunResult } from "./python-runner.ts";

/** The part of Emscripten's FS that the core uses. */
export interface PyodideFileSystem {
  analyzePath(path: string): { exists: boolean };
  lstat(path: string): { mode: number };
  isDir(mode: number): boolean;
  isFile(mode: number): boolean;
  readdir(path: string): string[];
  readFile(path: string): Uint8Array;
  writeFile(path: string, data: Uint8Array): void;
  mkdirTree(path: string): void;
  unlink(path: string): void;
  rmdir(path: string): void;
}

/** Wiped before every run, so one thread's files never reach another's program. */
const SCRATCH_ROOTS = [USER_DATA_ROOT, SKILLS_ROOT, "/tmp"];

/** Empties the scratch roots. */
export function clearScratch(FS: PyodideFileSystem): void {
  for (const root of SCRATCH_ROOTS) {
    if (FS.analyzePath(root).exists) for (const name of entries(FS, root)) remove(FS, `${root}/${name}`);
  }
}

/** Empties the scratch roots, then writes the request's directories and files at their virtual paths. */
export function prepareFileSystem(FS: PyodideFileSystem, request: PythonRunRequest): void {
  clearScratch(FS);
  for (const dir of [...USER_DATA_DIRS, SKILLS_ROOT, "/tmp", ...(request.directories ?? []).filter(isMirrored)]) {
    FS.mkdirTree(dir);
  }
  for (const [path, bytes] of Object.entries(request.files)) {
    if (!isMirrored(path)) continue;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")) || "/");
    FS.writeFile(path, bytes);
  }
  FS.mkdirTree(request.cwd);
}

/** Only the sandbox's virtual areas are mirrored: a request can never overwrite the interpreter's own files. */
function isMirrored(path: string): boolean {
  return path.startsWith(`${USER_DATA_ROOT}/`) || path.startsWith(`${SKILLS_ROOT}/`);
}

export function entries(FS: PyodideFileSystem, dir: string): string[] {
  return FS.readdir(dir).filter((name) => name !== "." && name !== "..");
}

function remove(FS: PyodideFileSystem, path: string): void {
  if (FS.isDir(FS.lstat(path).mode)) {
    for (const name of entries(FS, path)) remove(FS, `${path}/${name}`);
    FS.rmdir(path);
  } else {
    FS.unlink(path);
  }
}

export interface Tree {
  files: Set<string>;
  dirs: Set<string>;
}

/** Every regular file and directory under `root`; symbolic links are skipped. */
export function walk(FS: PyodideFileSystem, root: string): Tree {
  const tree: Tree = { files: new Set(), dirs: new Set() };
  const visit = (dir: string) => {
    for (const name of entries(FS, dir)) {
      const path = `${dir}/${name}`;
      const { mode } = FS.lstat(path);
      if (FS.isDir(mode)) {
        tree.dirs.add(path);
        visit(path);
      } else if (FS.isFile(mode)) {
        tree.files.add(path);
      }
    }
  };
  visit(root);
  return tree;
}

/** What the program changed under /mnt/user-data: files by content, directories by existence. */
export function diff(
  FS: PyodideFileSystem,
  request: PythonRunRequest,
  before: Tree,
  after: Tree,
): Pick<PythonRunResult, "written" | "deleted" | "createdDirectories" | "deletedDirectories"> {
  const written: Record<string, Uint8Array> = {};
  for (const path of after.files) {
    const bytes = FS.readFile(path);
    const original = request.files[path];
    if (original === undefined || !sameBytes(original, bytes)) written[path] = bytes;
  }
  return {
    written,
    deleted: [...before.files].filter((path) => !after.files.has(path)),
    createdDirectories: [...after.dirs].filter((dir) => !before.dirs.has(dir)),
    deletedDirectories: [...before.dirs].filter((dir) => !after.dirs.has(dir)),
  };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
