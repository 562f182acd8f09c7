// The WebContainer sandbox (docs/architecture.md#d1-sandbox): a thread's files in its own directory of the page's one WebContainer,
// loaded from a ThreadFileStore when opened and saved back after every command; commands run in a `jsh --osc` shell.
import type { DirEnt, FileSystemTree, SpawnOptions, WebContainerProcess } from "@webcontainer/api";
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

/** The part of @webcontainer/api's `FileSystemAPI` this sandbox uses. */
export interface WebContainerFs {
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  readdir(path: string, options: { withFileTypes: true }): Promise<DirEnt<string>[]>;
  mkdir(path: string, options: { recursive: true }): Promise<string>;
  rm(path: string, options?: { force?: boolean; recursive?: boolean }): Promise<void>;
}

/** The part of @webcontainer/api's `WebContainer` this sandbox uses: the real instance and FakeWebContainer fit. */
export interface WebContainerLike {
  /** Absolute path of the working directory; `fs` paths and `spawn`'s `cwd` are relative to it. */
  readonly workdir: string;
  readonly fs: WebContainerFs;
  mount(tree: FileSystemTree, options?: { mountPoint?: string }): Promise<void>;
  spawn(command: string, args: string[], options?: SpawnOptions): Promise<WebContainerProcess>;
}

export interface WebContainerSandboxOptions {
  /** An already booted WebContainer, shared by every thread of the page. */
  container: WebContainerLike;
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
 * A Sandbox for one thread inside a shared WebContainer. Its files live in `threads/<threadId>/mnt/...` of the
 * container; virtual paths are translated in commands and back in their output. WebContainer merges a program's
 * stdout and stderr, so a command's output is all in `stdout`; `stderr` carries only the sandbox's own sentences
 * (why it stopped a command, what it could not save). Commands do not report a `cwd`/`env` afterwards: each one runs
 * in a fresh `bash` under the shell. Folders named node_modules are not saved to the store.
 */
export class WebContainerSandbox extends SandboxBase<KnownFile> {
  readonly kind = "webcontainer" as const;
  private readonly container: WebContainerLike;
  /** The thread's directory, relative to the workdir (for `fs` and `spawn`). */
  private readonly dir: string;
  /** The thread's directory as an absolute container path (for commands). */
  private readonly root: string;
  /** The skills as mounted, to undo a command's changes under /mnt/skills. */
  private readonly skills: ReadonlyMap<string, { bytes: Uint8Array; hash: string }>;
  private readonly openedAt = Date.now();
  private shell: JshSession | undefined;
  private commands = 0;

  private constructor(
    private readonly options: WebContainerSandboxOptions,
    skills: Map<string, { bytes: Uint8Array; hash: string }>,
  ) {
    super(options.threadId, options.store);
    this.container = options.container;
    this.dir = `threads/${options.threadId}`;
    this.root = `${options.container.workdir.replace(/\/+$/, "")}/${this.dir}`;
    this.skills = skills;
  }

  /** Makes the thread's directory afresh and mounts its stored files and the skills into it. */
  static async open(options: WebContainerSandboxOptions): Promise<WebContainerSandbox> {
    if (!/^[\w-]{1,128}$/.test(options.threadId)) {
      throw new Error(`Invalid thread id ${JSON.stringify(options.threadId)}: use letters, digits, "-" and "_".`);
    }
    const skills = new Map<string, { bytes: Uint8Array; hash: string }>();
    for (const [path, bytes] of Object.entries(options.skills ?? {})) {
      if (isUnder(path, SKILLS_ROOT) && path !== SKILLS_ROOT) skills.set(path, { bytes, hash: await digest(bytes) });
    }
    const sandbox = new WebContainerSandbox(options, skills);
    const stored = Object.entries(await options.store.load(options.threadId)).flatMap(([path, file]) =>
      isThreadDataPath(path) ? [[path, file.bytes] as const] : [],
    );
    for (const [path, bytes] of stored.filter(([path]) => isKept(path))) {
      sandbox.known.set(path, { size: bytes.length, hash: await digest(bytes), mtime: sandbox.openedAt });
    }
    const fs = options.container.fs;
    await fs.rm(sandbox.dir, { recursive: true, force: true });
    await fs.mkdir(sandbox.dir, { recursive: true });
    const files = [...stored, ...[...skills].map(([path, skill]) => [path, skill.bytes] as const)];
    const tree = toTree(files, "", [...USER_DATA_DIRS, SKILLS_ROOT, "/.fawn"]);
    await options.container.mount(tree, { mountPoint: sandbox.dir });
    return sandbox;
  }

  /** Ends the thread's shell and removes its directory from the container; the store keeps its files. */
  override async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.shell?.kill();
    await this.queue.idle();
    await this.container.fs.rm(this.dir, { recursive: true, force: true });
  }

  protected override async execute(command: string, options: RunOptions): Promise<CommandResult> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    const cwd = resolveSandboxPath(options.cwd ?? DEFAULT_CWD, "read");
    if (options.signal?.aborted) return stoppedResult("cancelled", "", timeoutMs);
    const fs = this.container.fs;
    await fs.writeFile(`${this.dir}/.fawn/command.sh`, this.script(command, options.env ?? {}));
    await fs.writeFile(`${this.dir}/.fawn/stdin`, options.stdin ?? "");
    await fs.rm(`${this.dir}/.fawn/cwd`, { force: true });
    const id = ++this.commands;
    const line =
      `echo ${BEGIN_MARKER}'${id}'__; cd ${quote(this.root + cwd)} && ` +
      `bash ${quote(`${this.root}/.fawn/command.sh`)} < ${quote(`${this.root}/.fawn/stdin`)}`;
    this.shell = this.shell?.alive ? this.shell : await JshSession.start(this.container, this.dir, this.terminal());
    const outcome = await this.shell.run(line, `${BEGIN_MARKER}${id}__`, { timeoutMs, signal: options.signal });
    const output = toVirtualPaths(terminalText(outcome.output), this.root);
    const result: CommandResult = outcome.stopped
      ? stoppedResult(outcome.stopped, output, timeoutMs)
      : { stdout: output, stderr: "", exitCode: outcome.exitCode, cwd: (await this.lastCwd()) ?? cwd };
    if (outcome.ended && !outcome.stopped) {
      result.stderr = appendLine(
        result.stderr,
        "The shell ended during the command; the next command starts a new one.",
      );
    }
    const skillsChanged = await this.restoreSkills();
    if (skillsChanged.length > 0) {
      result.exitCode ||= 1;
      result.stderr = appendLine(
        result.stderr,
        `${SKILLS_ROOT} is read-only: the command's changes there were undone (${skillsChanged.join(", ")}).`,
      );
    }
    for (const note of await this.persist()) result.stderr = appendLine(result.stderr, note);
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
  private async lastCwd(): Promise<string | undefined> {
    const bytes = await this.container.fs.readFile(`${this.dir}/.fawn/cwd`).catch(() => undefined);
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
  private async persist(): Promise<string[]> {
    const current = new Map<string, KnownFile>();
    const written: ThreadFileMap = {};
    const notes: string[] = [];
    for (const path of await this.files(USER_DATA_ROOT, true)) {
      if (!isKept(path)) continue;
      try {
        resolveSandboxPath(path, "write");
      } catch (error) {
        notes.push(`Not saved: ${path} (${(error as Error).message})`);
        continue;
      }
      const bytes = await this.container.fs.readFile(this.fsPath(path));
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
  private async restoreSkills(): Promise<string[]> {
    const changed: string[] = [];
    const found = new Set(await this.files(SKILLS_ROOT, false));
    for (const path of found) {
      const skill = this.skills.get(path);
      if (!skill || skill.hash !== (await digest(await this.container.fs.readFile(this.fsPath(path))))) {
        changed.push(path);
      }
    }
    for (const path of this.skills.keys()) if (!found.has(path)) changed.push(path);
    if (changed.length === 0) return [];
    const skillsDir = this.fsPath(SKILLS_ROOT);
    await this.container.fs.rm(skillsDir, { recursive: true, force: true });
    await this.container.fs.mkdir(skillsDir, { recursive: true });
    const files = [...this.skills].map(([path, skill]) => [path, skill.bytes] as const);
    await this.container.mount(toTree(files, SKILLS_ROOT), { mountPoint: skillsDir });
    return changed.sort();
  }

  /** Virtual paths of the files under `dir`; with `keptOnly`, not looking into folders no thread keeps. */
  private async files(dir: string, keptOnly: boolean): Promise<string[]> {
    const found: string[] = [];
    const pending = [dir];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      for (const entry of await this.readdir(next).catch(() => [])) {
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
  protected override async typeOf(path: string): Promise<FileType | undefined> {
    const slash = path.lastIndexOf("/");
    const entries = await this.readdir(path.slice(0, slash) || "/").catch(() => []);
    const entry = entries.find((candidate) => candidate.name === path.slice(slash + 1));
    return entry && (entry.isDirectory() ? "directory" : "file");
  }

  protected override async names(dir: string): Promise<string[]> {
    return (await this.readdir(dir)).map((entry) => entry.name);
  }

  protected override async entry(path: string): Promise<SandboxEntry | undefined> {
    const type = await this.typeOf(path);
    return type && this.describe(path, type);
  }

  protected override async entries(dir: string): Promise<SandboxEntry[]> {
    const entries = (await this.readdir(dir)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return Promise.all(
      entries.map((entry) => this.describe(joinPath(dir, entry.name), entry.isDirectory() ? "directory" : "file")),
    );
  }

  protected override readBytes(path: string): Promise<Uint8Array> {
    return this.container.fs.readFile(this.fsPath(path));
  }

  protected override async putFile(path: string, added: Uint8Array, append: boolean): Promise<Uint8Array> {
    const bytes = append ? concat(await this.readBytes(path), added) : added;
    await this.container.fs.mkdir(this.fsPath(path.slice(0, path.lastIndexOf("/"))), { recursive: true });
    await this.container.fs.writeFile(this.fsPath(path), bytes);
    return bytes;
  }

  protected override async knownFile(_path: string, bytes: Uint8Array): Promise<KnownFile> {
    return { size: bytes.length, hash: await digest(bytes), mtime: Date.now() };
  }

  protected override removeTree(path: string): Promise<void> {
    return this.container.fs.rm(this.fsPath(path), { recursive: true, force: true });
  }

  protected override searchable(): SearchableFiles {
    const types = new Map<string, FileType>();
    return {
      list: async (dir) =>
        (await this.readdir(dir)).map((entry) => {
          const path = joinPath(dir, entry.name);
          types.set(path, entry.isDirectory() ? "directory" : "file");
          return path;
        }),
      stat: async (path) => {
        const type = types.get(path) ?? (await this.typeOf(path));
        return type && { type, size: type === "file" ? await this.size(path) : 0 };
      },
      read: (path) => this.readBytes(path),
    };
  }

  private async describe(path: string, type: FileType): Promise<SandboxEntry> {
    const size = type === "file" ? await this.size(path) : 0;
    return sandboxEntry(path, type, size, this.known.get(path)?.mtime ?? this.openedAt);
  }

  /** WebContainer's fs has no stat: the size is known from the last save, or read. */
  private async size(path: string): Promise<number> {
    const known = this.known.get(path)?.size ?? this.skills.get(path)?.bytes.length;
    return known ?? (await this.container.fs.readFile(this.fsPath(path))).length;
  }

  private readdir(path: string): Promise<DirEnt<string>[]> {
    return this.container.fs.readdir(this.fsPath(path), { withFileTypes: true });
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
