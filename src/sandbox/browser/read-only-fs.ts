// A just-bash file system that can be read and never written: /mnt/skills is mounted through it, so
// `echo x > /mnt/skills/a` fails in a command the way a read-only mount fails on Linux.
import type { IFileSystem } from "just-bash/browser";

type Reads = Pick<
  IFileSystem,
  "readFile" | "readFileBuffer" | "exists" | "stat" | "readdir" | "resolvePath" | "getAllPaths" | "lstat" | "realpath"
>;

/** Wraps `inner`, mounted at `mountPoint`: reads pass through, every write throws EROFS naming the full path. */
export function readOnlyFs(inner: IFileSystem, mountPoint: string): IFileSystem {
  const refuse = (path: string): never => {
    const error = new Error(
      `EROFS: read-only file system, '${mountPoint}${path === "/" ? "" : path}' cannot be changed`,
    );
    Object.assign(error, { code: "EROFS" });
    throw error;
  };
  const reads: Reads = {
    readFile: (path, options) => inner.readFile(path, options),
    readFileBuffer: (path) => inner.readFileBuffer(path),
    exists: (path) => inner.exists(path),
    stat: (path) => inner.stat(path),
    lstat: (path) => inner.lstat(path),
    readdir: (path) => inner.readdir(path),
    realpath: (path) => inner.realpath(path),
    resolvePath: (base, path) => inner.resolvePath(base, path),
    getAllPaths: () => inner.getAllPaths(),
  };
  return {
    ...reads,
    ...(inner.readdirWithFileTypes && { readdirWithFileTypes: (path: string) => inner.readdirWithFileTypes!(path) }),
    readlink: (path) => inner.readlink(path),
    writeFile: async (path) => refuse(path),
    appendFile: async (path) => refuse(path),
    mkdir: async (path) => refuse(path),
    rm: async (path) => refuse(path),
    cp: async (_src, dest) => refuse(dest),
    mv: async (src) => refuse(src),
    chmod: async (path) => refuse(path),
    symlink: async (_target, linkPath) => refuse(linkPath),
    link: async (_existing, newPath) => refuse(newPath),
    utimes: async (path) => refuse(path),
  };
}
