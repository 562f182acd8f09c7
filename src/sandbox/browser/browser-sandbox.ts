// The default sandbox (docs/architecture.md#d1-sandbox): just-bash over an in-memory copy of the thread's files, whose source of truth
// is IndexedDB. Every command's changes under /mnt/user-data are written back in one transaction when it ends, so
// a reload (or a killed worker) loses nothing that a finished command wrote. /mnt/skills is mounted read-only.
import { Bash, InMemoryFs, MountableFs, type CustomCommand, type IFileSystem } from "just-bash/browser";
import { threadFilePathProblem } from "../../storage/index.ts";
import { globFiles, grepFiles, type SearchableFiles } from "../file-search.ts";
import {
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_CWD,
  isThreadDataPath,
  isUnder,
  joinPath,
  resolveSandboxPath,
  SandboxFileError,
  SandboxPathError,
  SKILLS_ROOT,
  stoppedMessage,
  USER_DATA_DIRS,
  type CommandResult,
  type GrepMatch,
  type GrepOptions,
  type RunOptions,
  type Sandbox,
  type SandboxEntry,
} from "../sandbox.ts";
import { appendLine, expectFileType, SerialQueue } from "../sandbox-support.ts";
import type { ThreadFileMap, ThreadFileStore } from "../thread-file-store.ts";
import { readOnlyFs } from "./read-only-fs.ts";

export interface BrowserSandboxOptions {
  threadId: string;
  /** The thread's stored files (IndexedDB's, through IndexedDbThreadFileStore). */
  files: ThreadFileStore;
  /** The skills to show read-only under /mnt/skills, by absolute path. */
  skills?: Record<string, Uint8Array>;
  /** Extra commands, e.g. `python3` from ../python/python-command.ts. */
  commands?: CustomCommand[];
  /** Environment every command starts with (HOME, PATH and the like are just-bash's defaults). */
  env?: Record<string, string>;
}

interface KnownFile {
  size: number;
  mtime: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A Sandbox for one thread, running in the calling context (the sandbox worker in the app, Node in tests). */
export class BrowserSandbox implements Sandbox {
  readonly kind = "browser" as const;
  readonly threadId: string;
  private readonly root: IFileSystem;
  /** Bash instances by time limit: just-bash fixes limits at construction, and construction is cheap (~1.5 ms). */
  private readonly shells = new Map<number, Bash>();
  /** What IndexedDB holds for each file under /mnt/user-data, to find what a command changed. */
  private readonly known = new Map<string, KnownFile>();
  /** One operation at a time, so a command's changes are not mixed up with a concurrent write. */
  private readonly queue = new SerialQueue();
  private disposed = false;

  private constructor(
    private readonly options: BrowserSandboxOptions,
    private readonly data: InMemoryFs,
  ) {
    this.threadId = options.threadId;
    const skills = new InMemoryFs(
      Object.fromEntries(
        Object.entries(options.skills ?? {}).map(([path, bytes]) => [path.slice(SKILLS_ROOT.length) || "/", bytes]),
      ),
    );
    this.root = new MountableFs({
      base: data,
      mounts: [{ mountPoint: SKILLS_ROOT, filesystem: readOnlyFs(skills, SKILLS_ROOT) }],
    });
  }

  /** Loads the thread's files from IndexedDB into memory. */
  static async open(options: BrowserSandboxOptions): Promise<BrowserSandbox> {
    const stored = Object.entries(await options.files.load(options.threadId));
    const data = new InMemoryFs(
      Object.fromEntries(stored.map(([path, file]) => [path, { content: file.bytes, mtime: new Date(file.mtime) }])),
    );
    for (const dir of [...USER_DATA_DIRS, "/tmp"]) await data.mkdir(dir, { recursive: true });
    const sandbox = new BrowserSandbox(options, data);
    for (const [path] of stored) {
      const stat = await data.stat(path);
      sandbox.known.set(path, { size: stat.size, mtime: stat.mtime.getTime() });
    }
    return sandbox;
  }

  run(command: string, options: RunOptions = {}): Promise<CommandResult> {
    return this.queue.run(() => this.execute(command, options));
  }

  async readFile(path: string): Promise<Uint8Array> {
    const resolved = resolveSandboxPath(path, "read");
    await this.expect(resolved, "file");
    return this.root.readFileBuffer(resolved);
  }

  async readText(path: string): Promise<string> {
    return decoder.decode(await this.readFile(path));
  }

  async writeFile(path: string, content: string | Uint8Array, options: { append?: boolean } = {}): Promise<void> {
    const resolved = resolveSandboxPath(path, "write");
    const problem = threadFilePathProblem(resolved);
    if (problem !== undefined) throw new SandboxPathError(`Refused path ${JSON.stringify(path)}: ${problem}.`);
    return this.queue.run(async () => {
      const parent = resolved.slice(0, resolved.lastIndexOf("/"));
      const parentStat = await this.statOrUndefined(parent);
      if (parentStat && !parentStat.isDirectory) {
        throw new SandboxFileError(`Cannot write ${resolved}: ${parent} is a file, not a folder.`, "ENOTDIR");
      }
      const existing = await this.statOrUndefined(resolved);
      if (existing?.isDirectory) throw new SandboxFileError(`Cannot write ${resolved}: it is a folder.`, "EISDIR");
      await this.data.mkdir(parent, { recursive: true });
      const bytes = typeof content === "string" ? encoder.encode(content) : content;
      if (options.append && existing) await this.data.appendFile(resolved, bytes);
      else await this.data.writeFile(resolved, bytes);
      await this.options.files.save(this.threadId, { [resolved]: await this.data.readFileBuffer(resolved) }, []);
      const stat = await this.data.stat(resolved);
      this.known.set(resolved, { size: stat.size, mtime: stat.mtime.getTime() });
    });
  }

  async list(path: string): Promise<SandboxEntry[]> {
    const resolved = resolveSandboxPath(path, "read");
    await this.expect(resolved, "directory");
    const names = (await this.root.readdir(resolved)).sort();
    const entries = await Promise.all(names.map((name) => this.stat(joinPath(resolved, name))));
    return entries.filter((entry): entry is SandboxEntry => entry !== undefined);
  }

  async stat(path: string): Promise<SandboxEntry | undefined> {
    const resolved = resolveSandboxPath(path, "read");
    const stat = await this.statOrUndefined(resolved);
    if (!stat) return undefined;
    return {
      path: resolved,
      name: resolved.slice(resolved.lastIndexOf("/") + 1),
      type: stat.isDirectory ? "directory" : "file",
      size: stat.isDirectory ? 0 : stat.size,
      mtime: stat.mtime.getTime(),
    };
  }

  async remove(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const resolved = resolveSandboxPath(path, "write");
    return this.queue.run(async () => {
      const stat = await this.statOrUndefined(resolved);
      if (!stat) throw new SandboxFileError(`No such file or folder: ${resolved}`, "ENOENT");
      if (stat.isDirectory && !options.recursive && (await this.data.readdir(resolved)).length > 0) {
        throw new SandboxFileError(`Cannot remove ${resolved}: the folder is not empty.`, "ENOTEMPTY");
      }
      await this.data.rm(resolved, { recursive: true });
      const deleted = [...this.known.keys()].filter((known) => isUnder(known, resolved));
      if (deleted.length === 0) return;
      await this.options.files.save(this.threadId, {}, deleted);
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
    if (!(await this.statOrUndefined(resolved))) {
      throw new SandboxFileError(`No such file or folder: ${resolved}`, "ENOENT");
    }
    return grepFiles(this.searchable(), pattern, resolved, options);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.shells.clear();
    await this.queue.idle();
  }

  private async execute(command: string, options: RunOptions): Promise<CommandResult> {
    if (this.disposed) throw new Error("This sandbox was closed.");
    const timeoutMs = options.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    const cwd = resolveSandboxPath(options.cwd ?? DEFAULT_CWD, "read");
    const started = Date.now();
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(), timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal;
    let result: CommandResult;
    try {
      const output = await this.shell(timeoutMs)
        .exec(command, {
          cwd,
          env: { ...this.options.env, ...options.env },
          ...(options.stdin !== undefined && { stdin: options.stdin }),
          signal,
        })
        // just-bash lets a file system error in a redirection (`> /mnt/skills/x`) escape exec: report it as bash would.
        .catch((error: unknown) => ({
          stdout: "",
          stderr: `bash: ${error instanceof Error ? error.message : String(error)}\n`,
          exitCode: 1,
          env: { PWD: cwd },
        }));
      const stopped = options.signal?.aborted
        ? "cancelled"
        : timer.signal.aborted || /execution deadline/.test(output.stderr)
          ? "timeout"
          : output.exitCode === 126 && /executionLimits|too many|exceeded/i.test(output.stderr)
            ? "limit"
            : undefined;
      result = {
        stdout: output.stdout,
        stderr: stopped ? appendLine(output.stderr, stoppedMessage(stopped, timeoutMs)) : output.stderr,
        exitCode: stopped === "cancelled" ? 130 : output.exitCode,
        ...(stopped && { stopped }),
        cwd: output.env.PWD ?? cwd,
        env: output.env,
      };
    } finally {
      clearTimeout(timeout);
    }
    const notSaved = await this.persist(started);
    if (notSaved.length > 0) result.stderr = appendLine(result.stderr, notSaved.join("\n"));
    return result;
  }

  private shell(timeoutMs: number): Bash {
    let shell = this.shells.get(timeoutMs);
    if (!shell) {
      shell = new Bash({
        fs: this.root,
        cwd: DEFAULT_CWD,
        env: { HOME: DEFAULT_CWD, ...this.options.env },
        executionLimits: { maxExecutionTimeMs: timeoutMs },
        ...(this.options.commands && { customCommands: this.options.commands }),
      });
      this.shells.set(timeoutMs, shell);
    }
    return shell;
  }

  /**
   * After a command: writes what changed under /mnt/user-data since `since` (ms) to IndexedDB in one transaction. Returns one line
   * per file that could not be kept (a name IndexedDB's path rules refuse), for the command's stderr.
   */
  private async persist(since: number): Promise<string[]> {
    const current = new Map<string, KnownFile>();
    const changed: ThreadFileMap = {};
    const notSaved: string[] = [];
    for (const path of this.data.getAllPaths()) {
      if (!isThreadDataPath(path)) continue;
      const stat = await this.data.stat(path).catch(() => undefined);
      if (!stat?.isFile) continue;
      const problem = threadFilePathProblem(path);
      if (problem !== undefined) {
        notSaved.push(`Not saved: ${path} (${problem}).`);
        continue;
      }
      const now = { size: stat.size, mtime: stat.mtime.getTime() };
      current.set(path, now);
      const before = this.known.get(path);
      if (!before || before.size !== now.size || before.mtime !== now.mtime || now.mtime >= since) {
        changed[path] = await this.data.readFileBuffer(path);
      }
    }
    const deleted = [...this.known.keys()].filter((path) => !current.has(path));
    if (Object.keys(changed).length > 0 || deleted.length > 0) {
      await this.options.files.save(this.threadId, changed, deleted);
    }
    this.known.clear();
    for (const [path, file] of current) this.known.set(path, file);
    return notSaved;
  }

  private searchable(): SearchableFiles {
    return {
      list: async (dir) => (await this.root.readdir(dir)).map((name) => joinPath(dir, name)),
      stat: async (path) => {
        const stat = await this.statOrUndefined(path);
        return stat && { type: stat.isDirectory ? "directory" : "file", size: stat.size };
      },
      read: (path) => this.root.readFileBuffer(path),
    };
  }

  private async statOrUndefined(path: string) {
    return this.root.stat(path).catch(() => undefined);
  }

  private async expect(path: string, type: "file" | "directory"): Promise<void> {
    const stat = await this.statOrUndefined(path);
    expectFileType(path, type, stat && (stat.isDirectory ? "directory" : "file"));
  }
}
