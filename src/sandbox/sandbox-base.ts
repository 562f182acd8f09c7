// The file API's rules written once for every Sandbox provider: path checks, the errors callers see, one operation at a
// time, and keeping the ThreadFileStore in step with writes and removals. A provider supplies only its primitives over
// its own file system (and the shell). The page bundles this file: it must not import storage/ or any provider.
import { globFiles, grepFiles, type SearchableFiles } from "./file-search.ts";
import {
  isUnder,
  resolveSandboxPath,
  SandboxFileError,
  type CommandResult,
  type GrepMatch,
  type GrepOptions,
  type RunOptions,
  type Sandbox,
  type SandboxEntry,
  type SandboxKind,
} from "./sandbox.ts";
import { SerialQueue } from "../shared/serial-queue.ts";
import { expectFileType } from "./sandbox-support.ts";
import type { ThreadFileMap, ThreadFileStore } from "./thread-file-store.ts";

export type FileType = "file" | "directory";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A Sandbox whose files under /mnt/user-data are kept in a ThreadFileStore. `Known` is what the provider remembers of
 * each file the store holds, to find what a command changed.
 */
export abstract class SandboxBase<Known> implements Sandbox {
  abstract readonly kind: SandboxKind;
  /** What the store holds, by virtual path. */
  protected readonly known = new Map<string, Known>();
  /** One operation at a time, so a command's changes are not mixed up with a concurrent write. */
  protected readonly queue = new SerialQueue();
  protected disposed = false;

  constructor(
    readonly threadId: string,
    protected readonly store: ThreadFileStore,
  ) {}

  run(command: string, options: RunOptions = {}): Promise<CommandResult> {
    return this.queue.run(async () => {
      if (this.disposed) throw new Error("This sandbox was closed.");
      return this.execute(command, options);
    });
  }

  async readFile(path: string): Promise<Uint8Array> {
    const resolved = resolveSandboxPath(path, "read");
    await this.expect(resolved, "file");
    return this.readBytes(resolved);
  }

  async readText(path: string): Promise<string> {
    return decoder.decode(await this.readFile(path));
  }

  async writeFile(path: string, content: string | Uint8Array, options: { append?: boolean } = {}): Promise<void> {
    const resolved = resolveSandboxPath(path, "write");
    this.checkSaveable(path, resolved);
    return this.queue.run(async () => {
      const parent = resolved.slice(0, resolved.lastIndexOf("/"));
      if ((await this.typeOf(parent)) === "file") {
        throw new SandboxFileError(`Cannot write ${resolved}: ${parent} is a file, not a folder.`, "ENOTDIR");
      }
      const existing = await this.typeOf(resolved);
      if (existing === "directory") throw new SandboxFileError(`Cannot write ${resolved}: it is a folder.`, "EISDIR");
      const added = typeof content === "string" ? encoder.encode(content) : content;
      const bytes = await this.putFile(resolved, added, options.append === true && existing === "file");
      if (!this.keeps(resolved)) return;
      await this.store.save(this.threadId, { [resolved]: bytes }, []);
      this.known.set(resolved, await this.knownFile(resolved, bytes));
    });
  }

  async list(path: string): Promise<SandboxEntry[]> {
    const resolved = resolveSandboxPath(path, "read");
    await this.expect(resolved, "directory");
    return this.entries(resolved);
  }

  async stat(path: string): Promise<SandboxEntry | undefined> {
    return this.entry(resolveSandboxPath(path, "read"));
  }

  async remove(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const resolved = resolveSandboxPath(path, "write");
    return this.queue.run(async () => {
      const type = await this.typeOf(resolved);
      if (!type) throw new SandboxFileError(`No such file or folder: ${resolved}`, "ENOENT");
      if (type === "directory" && !options.recursive && (await this.names(resolved)).length > 0) {
        throw new SandboxFileError(`Cannot remove ${resolved}: the folder is not empty.`, "ENOTEMPTY");
      }
      await this.removeTree(resolved);
      const deleted = [...this.known.keys()].filter((known) => isUnder(known, resolved));
      if (deleted.length === 0) return;
      await this.store.save(this.threadId, {}, deleted);
      for (const gone of deleted) this.known.delete(gone);
    });
  }

  async glob(pattern: string, root: string, options?: { includeDirs?: boolean; maxResults?: number }) {
    const resolved = resolveSandboxPath(root, "read");
    await this.expect(resolved, "directory");
    return globFiles(this.searchable(), pattern, resolved, options);
  }

  async grep(pattern: string, root: string, options?: GrepOptions): Promise<GrepMatch[]> {
    const resolved = resolveSandboxPath(root, "read");
    if (!(await this.typeOf(resolved))) throw new SandboxFileError(`No such file or folder: ${resolved}`, "ENOENT");
    return grepFiles(this.searchable(), pattern, resolved, options);
  }

  abstract dispose(): Promise<void>;

  /**
   * Saves `written` and deletes the known files missing from `current` in one call to the store; then `current` is
   * what is known. Nothing is saved, and nothing forgotten, when there is no change (or the store refuses it).
   */
  protected async saveChanges(current: ReadonlyMap<string, Known>, written: ThreadFileMap): Promise<void> {
    const deleted = [...this.known.keys()].filter((path) => !current.has(path));
    if (Object.keys(written).length === 0 && deleted.length === 0) return;
    await this.store.save(this.threadId, written, deleted);
    this.known.clear();
    for (const [path, file] of current) this.known.set(path, file);
  }

  private async expect(path: string, type: FileType): Promise<void> {
    expectFileType(path, type, await this.typeOf(path));
  }

  /** Throws when the store could not keep a file at `resolved` (`path` as the caller gave it); called before a write. */
  protected checkSaveable(_path: string, _resolved: string): void {}

  /** Whether the store keeps a file written at this path (all of them, unless the provider leaves some out). */
  protected keeps(_path: string): boolean {
    return true;
  }

  /** Runs a command, queued after every other operation. */
  protected abstract execute(command: string, options: RunOptions): Promise<CommandResult>;
  /** What is at a virtual path, if anything. */
  protected abstract typeOf(path: string): Promise<FileType | undefined>;
  /** The names of the entries directly inside an existing folder. */
  protected abstract names(dir: string): Promise<string[]>;
  /** The entry at a path (`stat`), the path already checked. */
  protected abstract entry(path: string): Promise<SandboxEntry | undefined>;
  /** The entries directly inside an existing folder, sorted by name (`list`). */
  protected abstract entries(dir: string): Promise<SandboxEntry[]>;
  /** The bytes of an existing file. */
  protected abstract readBytes(path: string): Promise<Uint8Array>;
  /** Writes `bytes` at `path` (after what is there with `append`), making its folders; returns the file's bytes now. */
  protected abstract putFile(path: string, bytes: Uint8Array, append: boolean): Promise<Uint8Array>;
  /** What to remember of a file just saved with these bytes. */
  protected abstract knownFile(path: string, bytes: Uint8Array): Promise<Known>;
  /** Removes a file, or a folder with everything in it. */
  protected abstract removeTree(path: string): Promise<void>;
  /** The view glob and grep search through. */
  protected abstract searchable(): SearchableFiles;
}

/** A SandboxEntry for what is at `path`; a folder's size is 0. */
export function sandboxEntry(path: string, type: FileType, size: number, mtime: number): SandboxEntry {
  return { path, name: path.slice(path.lastIndexOf("/") + 1), type, size: type === "file" ? size : 0, mtime };
}
