// The WebContainer sandbox (docs/architecture.md#d1-sandbox): a thread's files in the page's one WebContainer, which
// holds one thread at a time (webcontainer-slot.ts). They are loaded from a ThreadFileStore when the thread takes the
// container and saved back after every command and when it hands the container over; commands run in a `jsh --osc`
// shell.
import type { DirEnt, FileSystemTree } from "@webcontainer/api";
import type { SearchableFiles } from "../file-search.ts";
import {
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_CWD,
  isThreadDataPath,
  isUnder,
  joinPath,
  resolveSandboxPath,
  SKILLS_ROOT,
  stoppedMessage,
  USER_DATA_DIRS,
  USER_DATA_ROOT,
  type CommandResult,
  type RunOptions,
  type SandboxEntry,
} from "../sandbox.ts";
import { SandboxBase, sandboxEntry, type FileType } from "../sandbox-base.ts";
import { appendLine } from "../sandbox-support.ts";
import type { ThreadFileMap, ThreadFileStore } from "../thread-file-store.ts";
import { JshSession, terminalText } from "./jsh-session.ts";
import type { SlotTenant, WebContainerLike, WebContainerSlot } from "./webcontainer-slot.ts";

export type { WebContainerFs, WebContainerLike } from "./webcontainer-slot.ts";

export interface WebContainerSandboxOptions {
  /** The page's WebContainer, which every thread of the page takes in turn. */
  slot: WebContainerSlot;
  threadId: string;
  store: ThreadFileStore;
  /** The skills to show read-only under /mnt/skills, by absolute path. */
  skills?: ThreadFileMap;
  /** Size of the shell's terminal (programs wrap their output to it). */
  terminal?: { cols: number; rows: number };
}

interface KnownFile {
  size: number;
  hash: string;
  mtime: number;
}

/** Folders no thread keeps: `npm install` refills them, and reading them after every command would be slow. */
const UNKEPT_DIRS = new Set(["node_modules"]);
const DEFAULT_TERMINAL = { cols: 200, rows: 40 };
const BEGIN_MARKER = "__FAWN_BEGIN_";
const decoder = new TextDecoder();

/**
 * A Sandbox for one thread in the page's WebContainer. While the thread holds the container (its first operation
 * takes it, from whichever thread held it), its files live in `threads/<threadId>/mnt/...` and nothing of another
 * thread's is there; virtual paths are translated in commands and back in their output. WebContainer merges a
 * program's stdout and stderr, so a command's output is all in `stdout`; `stderr` carries only the sandbox's own
 * sentences (why it stopped a command, what it could not save). Commands do not report a `cwd`/`env` afterwards:
 * each one runs in a fresh `bash` under the shell. Folders named node_modules are not saved to the store, so they
 * are gone once another thread has had the container, as is everything outside /mnt/user-data and every process.
 */
export class WebContainerSandbox extends SandboxBase<KnownFile> implements SlotTenant {
  readonly kind = "webcontainer" as const;
  private readonly slot: WebContainerSlot;
  /** The thread's directory, relative to the workdir (for `fs` and `spawn`). */
  private readonly dir: string;
  /** The thread's directory as an absolute container path (for commands), set when the thread takes the container. */
  private root = "";
  /** The skills as mounted, to undo a command's changes under /mnt/skills. */
  private readonly skills: ReadonlyMap<string, { bytes: Uint8Array; hash: string }>;
  private readonly openedAt = Date.now();
  /** The thread's shell in the container it holds; gone with that container. */
  private shell: JshSession | undefined;
  private commands = 0;

  private constructor(
    private readonly options: WebContainerSandboxOptions,
    skills: Map<string, { bytes: Uint8Array; hash: string }>,
  ) {
    super(options.threadId, options.store);
    this.slot = options.slot;
    this.dir = `threads/${options.threadId}`;
    this.skills = skills;
  }

  /** A sandbox for the thread; its stored files are mounted when it first needs the container. */
  static async open(options: WebContainerSandboxOptions): Promise<WebContainerSandbox> {
    if (!/^[\w-]{1,128}$/.test(options.threadId)) {
      throw new Error(`Invalid thread id ${JSON.stringify(options.threadId)}: use letters, digits, "-" and "_".`);
    }
    const skills = new Map<string, { bytes: Uint8Array; hash: string }>();
    for (const [path, bytes] of Object.entries(options.skills ?? {})) {
      if (isUnder(path, SKILLS_ROOT) && path !== SKILLS_ROOT) skills.set(path, { bytes, hash: await digest(bytes) });
    }
    return new WebContainerSandbox(options, skills);
  }

  /**
   * Takes a container that holds nothing of another thread (the slot guarantees it): makes the thread's directory
   * and mounts its stored files and the skills into it. What is known is what the store holds.
   */
  async moveIn(container: WebContainerLike): Promise<void> {
    if (this.disposed) throw new Error("This sandbox was closed.");
    this.shell = undefined;
    this.root = `${container.workdir.replace(/\/+$/, "")}/${this.dir}`;
    const loaded = Object.entries(await this.store.load(this.threadId)).filter(([path]) => isThreadDataPath(path));
    const stored = loaded.map(([path, file]) => [path, file.bytes] as const);
    this.known.clear();
    for (const [path, file] of loaded.filter(([path]) => isKept(path))) {
      this.known.set(path, { size: file.bytes.length, hash: await digest(file.bytes), mtime: file.mtime });
    }
    await container.fs.rm(this.dir, { recursive: true, force: true });
    await container.fs.mkdir(this.dir, { recursive: true });
    const files = [...stored, ...[...this.skills].map(([path, skill]) => [path, skill.bytes] as const)];
    const tree = toTree(files, "", [...USER_DATA_DIRS, SKILLS_ROOT, "/.fawn"]);
    await container.mount(tree, { mountPoint: this.dir });
  }

  /**
   * Hands the container to another thread: the shell is killed, and what the thread's processes changed under
   * /mnt/user-data since its last command is saved; the slot then tears the container down.
   */
  async moveOut(container: WebContainerLike): Promise<void> {
    this.shell?.kill();
    this.shell = undefined;
    if (!this.disposed) await this.persist(container);
  }

  /** Ends the thread's shell and tears down the container if the thread holds it; the store keeps its files. */
  override async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.shell?.kill();
    await this.queue.idle();
    await this.slot.leave(this);
  }

  /** Runs `work` on the container while this thread holds it (taking it over from another thread if need be). */
  private holding<T>(work: (container: WebContainerLike) => Promise<T>): Promise<T> {
    if (this.disposed) return Promise.reject(new Error("This sandbox was closed."));
    return this.slot.use(this, work);
  }

  protected override execute(command: string, options: RunOptions): Promise<CommandResult> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    const cwd = resolveSandboxPath(options.cwd ?? DEFAULT_CWD, "read");
    if (options.signal?.aborted) return Promise.resolve(stoppedResult("cancelled", "", timeoutMs));
    return this.holding((container) => this.executeIn(container, command, cwd, timeoutMs, options));
  }

  private async executeIn(
    container: WebContainerLike,
    command: string,
    cwd: string,
    timeoutMs: number,
    options: RunOptions,
  ): Promise<CommandResult> {
    const fs = container.fs;
    await fs.writeFile(`${this.dir}/.fawn/command.sh`, this.script(command, options.env ?? {}));
    await fs.writeFile(`${this.dir}/.fawn/stdin`, options.stdin ?? "");
    await fs.rm(`${this.dir}/.fawn/cwd`, { force: true });
    const id = ++this.commands;
    const line =
      `echo ${BEGIN_MARKER}'${id}'__; cd ${quote(this.root + cwd)} && ` +
      `bash ${quote(`${this.root}/.fawn/command.sh`)} < ${quote(`${this.root}/.fawn/stdin`)}`;
    this.shell = this.shell?.alive ? this.shell : await JshSession.start(container, this.dir, this.terminal());
    // Taking the container over from another thread takes a while: the command may have been cancelled meanwhile.
    if (options.signal?.aborted) return stoppedResult("cancelled", "", timeoutMs);
    const outcome = await this.shell.run(line, `${BEGIN_MARKER}${id}__`, { timeoutMs, signal: options.signal });
    const output = toVirtualPaths(terminalText(outcome.output), this.root);
    const result: CommandResult = outcome.stopped
      ? stoppedResult(outcome.stopped, output, timeoutMs)
      : { stdout: output, stderr: "", exitCode: outcome.exitCode, cwd: (await this.lastCwd(container)) ?? cwd };
    if (outcome.ended && !outcome.stopped) {
      result.stderr = appendLine(
        result.stderr,
        "The shell ended during the command; the next command starts a new one.",
      );
    }
    const skillsChanged = await this.restoreSkills(container);
    if (skillsChanged.length > 0) {
      result.exitCode ||= 1;
      result.stderr = appendLine(
        result.stderr,
        `${SKILLS_ROOT} is read-only: the command's changes there were undone (${skillsChanged.join(", ")}).`,
      );
    }
    for (const note of await this.persist(container)) result.stderr = appendLine(result.stderr, note);
    return result;
  }

  /** The command as a script: `env` exported first, virtual paths turned into container paths. */
  private script(command: string, env: Record<string, string>): string {
    const exports = Object.entries(env).map(([name, value]) => {
      if (!/^[A-Za-z_]\w*$/.test(name)) throw new Error(`Invalid environment variable name ${JSON.stringify(name)}.`);
      return `export ${name}=${quote(toContainerPaths(value, this.root))}\n`;
    });
    // The last line records where the command left the shell, for a terminal's next command (it is skipped when
    // the command exits early, and the terminal then stays where it was).
    const trailer = `__fawn_status=$?\npwd > ${quote(`${this.root}/.fawn/cwd`)}\nexit $__fawn_status\n`;
    return `${exports.join("")}${toContainerPaths(command, this.root)}\n${trailer}`;
  }

  /** Where the last command left the shell, as a virtual path, when it is inside the sandbox. */
  private async lastCwd(container: WebContainerLike): Promise<string | undefined> {
    const bytes = await container.fs.readFile(`${this.dir}/.fawn/cwd`).catch(() => undefined);
    const written = bytes && decoder.decode(bytes);
    if (!written) return undefined;
    try {
      return resolveSandboxPath(toVirtualPaths(written.trim(), this.root), "read");
    } catch {
      return undefined;
    }
  }

  /**
   * Saves what changed under /mnt/user-data since the last save, in one call to the store. Returns sentences for
   * stderr about what could not be saved; the next save tries again.
   */
  private async persist(container: WebContainerLike): Promise<string[]> {
    const current = new Map<string, KnownFile>();
    const written: ThreadFileMap = {};
    const notes: string[] = [];
    for (const path of await this.files(container, USER_DATA_ROOT, true)) {
      if (!isKept(path)) continue;
      try {
        resolveSandboxPath(path, "write");
      } catch (error) {
        notes.push(`Not saved: ${path} (${(error as Error).message})`);
        continue;
      }
      // A link whose target is missing (or outside what the thread holds) lists as a file but cannot be read.
      const bytes = await container.fs.readFile(this.fsPath(path)).catch((error: unknown) => {
        notes.push(`Not saved: ${path} (it cannot be read: ${(error as Error).message})`);
        return undefined;
      });
      if (!bytes) continue;
      const hash = await digest(bytes);
      const before = this.known.get(path);
      if (before && before.size === bytes.length && before.hash === hash) {
        current.set(path, before);
      } else {
        written[path] = bytes;
        current.set(path, { size: bytes.length, hash, mtime: Date.now() });
      }
    }
    try {
      await this.saveChanges(current, written);
    } catch (error) {
      return [...notes, `Not saved: the thread's files could not be stored (${(error as Error).message}).`];
    }
    return notes;
  }

  /** Puts the skills back as they were mounted if a command changed them; returns the paths it changed. */
  private async restoreSkills(container: WebContainerLike): Promise<string[]> {
    const changed: string[] = [];
    const found = new Set(await this.files(container, SKILLS_ROOT, false));
    for (const path of found) {
      const skill = this.skills.get(path);
      if (!skill || skill.hash !== (await digest(await container.fs.readFile(this.fsPath(path))))) {
        changed.push(path);
      }
    }
    for (const path of this.skills.keys()) if (!found.has(path)) changed.push(path);
    if (changed.length === 0) return [];
    const skillsDir = this.fsPath(SKILLS_ROOT);
    await container.fs.rm(skillsDir, { recursive: true, force: true });
    await container.fs.mkdir(skillsDir, { recursive: true });
    const files = [...this.skills].map(([path, skill]) => [path, skill.bytes] as const);
    await container.mount(toTree(files, SKILLS_ROOT), { mountPoint: skillsDir });
    return changed.sort();
  }

  /** Virtual paths of the files under `dir`; with `keptOnly`, not looking into folders no thread keeps. */
  private async files(container: WebContainerLike, dir: string, keptOnly: boolean): Promise<string[]> {
    const found: string[] = [];
    const pending = [dir];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      for (const entry of await this.readdir(container, next).catch(() => [])) {
        const path = joinPath(next, entry.name);
        if (!entry.isDirectory()) found.push(path);
        else if (!keptOnly || !UNKEPT_DIRS.has(entry.name)) pending.push(path);
      }
    }
    return found;
  }

  protected override keeps(path: string): boolean {
    return isKept(path);
  }

  /** What is at a virtual path, found in its parent's listing (WebContainer's fs has no stat). */
  protected override typeOf(path: string): Promise<FileType | undefined> {
    return this.holding((container) => this.typeIn(container, path));
  }

  protected override names(dir: string): Promise<string[]> {
    return this.holding(async (container) => (await this.readdir(container, dir)).map((entry) => entry.name));
  }

  protected override entry(path: string): Promise<SandboxEntry | undefined> {
    return this.holding(async (container) => {
      const type = await this.typeIn(container, path);
      return type && this.describe(container, path, type);
    });
  }

  protected override entries(dir: string): Promise<SandboxEntry[]> {
    return this.holding(async (container) => {
      const entries = (await this.readdir(container, dir)).sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
      );
      return Promise.all(
        entries.map((entry) =>
          this.describe(container, joinPath(dir, entry.name), entry.isDirectory() ? "directory" : "file"),
        ),
      );
    });
  }

  protected override readBytes(path: string): Promise<Uint8Array> {
    return this.holding((container) => container.fs.readFile(this.fsPath(path)));
  }

  protected override putFile(path: string, added: Uint8Array, append: boolean): Promise<Uint8Array> {
    return this.holding(async (container) => {
      const bytes = append ? concat(await container.fs.readFile(this.fsPath(path)), added) : added;
      await container.fs.mkdir(this.fsPath(path.slice(0, path.lastIndexOf("/"))), { recursive: true });
      await container.fs.writeFile(this.fsPath(path), bytes);
      return bytes;
    });
  }

  protected override async knownFile(_path: string, bytes: Uint8Array): Promise<KnownFile> {
    return { size: bytes.length, hash: await digest(bytes), mtime: Date.now() };
  }

  protected override removeTree(path: string): Promise<void> {
    return this.holding((container) => container.fs.rm(this.fsPath(path), { recursive: true, force: true }));
  }

  protected override searchable(): SearchableFiles {
    const types = new Map<string, FileType>();
    return {
      list: (dir) =>
        this.holding(async (container) =>
          (await this.readdir(container, dir)).map((entry) => {
            const path = joinPath(dir, entry.name);
            types.set(path, entry.isDirectory() ? "directory" : "file");
            return path;
          }),
        ),
      stat: (path) =>
        this.holding(async (container) => {
          const type = types.get(path) ?? (await this.typeIn(container, path));
          return type && { type, size: type === "file" ? await this.size(container, path) : 0 };
        }),
      read: (path) => this.readBytes(path),
    };
  }

  private async typeIn(container: WebContainerLike, path: string): Promise<FileType | undefined> {
    const slash = path.lastIndexOf("/");
    const entries = await this.readdir(container, path.slice(0, slash) || "/").catch(() => []);
    const entry = entries.find((candidate) => candidate.name === path.slice(slash + 1));
    return entry && (entry.isDirectory() ? "directory" : "file");
  }

  private async describe(container: WebContainerLike, path: string, type: FileType): Promise<SandboxEntry> {
    const size = type === "file" ? await this.size(container, path) : 0;
    return sandboxEntry(path, type, size, this.known.get(path)?.mtime ?? this.openedAt);
  }

  /** WebContainer's fs has no stat: the size is known from the last save, or read. */
  private async size(container: WebContainerLike, path: string): Promise<number> {
    const known = this.known.get(path)?.size ?? this.skills.get(path)?.bytes.length;
    return known ?? (await container.fs.readFile(this.fsPath(path))).length;
  }

  private readdir(container: WebContainerLike, path: string): Promise<DirEnt<string>[]> {
    return container.fs.readdir(this.fsPath(path), { withFileTypes: true });
  }

  /** A virtual path as an `fs` path (relative to the workdir). */
  private fsPath(path: string): string {
    return path === "/" ? this.dir : `${this.dir}${path}`;
  }

  private terminal(): { cols: number; rows: number } {
    return this.options.terminal ?? DEFAULT_TERMINAL;
  }
}

/** /mnt, /mnt/user-data… and /mnt/skills… where a path starts; not /mnt/user-data-backup or /x/mnt/user-data. */
const VIRTUAL_PATH = /(?<![\w.~/-])\/mnt(?:\/(?:user-data|skills)(?![\w.-])|\/?(?![\w./-]))/g;

/** Rewrites the virtual paths in a command to the thread's directory `root` in the container. */
export function toContainerPaths(text: string, root: string): string {
  return text.replace(VIRTUAL_PATH, (path) => `${root}${path}`);
}

/** Rewrites the thread's container paths in a command's output back to virtual ones. */
export function toVirtualPaths(text: string, root: string): string {
  const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return text.replace(new RegExp(`(?<![\\w.~/-])${escaped}(?=/mnt(?![\\w.-]))`, "g"), "");
}

function stoppedResult(reason: "timeout" | "cancelled", stdout: string, timeoutMs: number): CommandResult {
  return {
    stdout,
    stderr: `${stoppedMessage(reason, timeoutMs)}\n`,
    exitCode: reason === "timeout" ? 124 : 130,
    stopped: reason,
  };
}

function isKept(path: string): boolean {
  return isThreadDataPath(path) && !path.split("/").some((segment) => UNKEPT_DIRS.has(segment));
}

/**
 * A mount tree of `files` (by virtual path) and empty `dirs`, relative to the virtual directory `base` ("" for the
 * thread's directory). Bytes are copied: mount() may transfer what it is given.
 */
function toTree(files: Iterable<readonly [string, Uint8Array]>, base: string, dirs: string[] = []): FileSystemTree {
  const tree: FileSystemTree = {};
  const directory = (names: string[]): FileSystemTree | undefined => {
    let dir: FileSystemTree | undefined = tree;
    for (const name of names) {
      const node: FileSystemTree[string] = (dir[name] ??= { directory: {} });
      if (!("directory" in node)) return undefined;
      dir = node.directory;
    }
    return dir;
  };
  const names = (path: string) =>
    path
      .slice(base.length)
      .split("/")
      .filter((name) => name !== "");
  for (const dir of dirs) directory(names(dir));
  for (const [path, bytes] of files) {
    const parts = names(path);
    const file = parts.pop();
    const dir = directory(parts);
    if (file !== undefined && dir) dir[file] = { file: { contents: bytes.slice() } };
  }
  return tree;
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(first.length + second.length);
  bytes.set(first);
  bytes.set(second, first.length);
  return bytes;
}

async function digest(bytes: Uint8Array): Promise<string> {
  // digest() refuses views of a SharedArrayBuffer, which a cross-origin isolated page may hand out: copy those.
  const data = bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
