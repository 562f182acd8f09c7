// The default sandbox (docs/architecture.md#d1-sandbox): just-bash over an in-memory copy of the thread's files, whose source of truth
// is IndexedDB. Every command's changes under /mnt/user-data are written back in one transaction when it ends, so
// a reload (or a killed worker) loses nothing that a finished command wrote. /mnt/skills is mounted read-only.
import { Bash, InMemoryFs, MountableFs, type CustomCommand, type IFileSystem } from "just-bash/browser";
import { threadFilePathProblem } from "../../storage/index.ts";
import type { SearchableFiles } from "../file-search.ts";
import {
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_CWD,
  isThreadDataPath,
  joinPath,
  resolveSandboxPath,
  SandboxPathError,
  SKILLS_ROOT,
  stoppedMessage,
  USER_DATA_DIRS,
  type CommandResult,
  type RunOptions,
  type SandboxEntry,
} from "../sandbox.ts";
import { SandboxBase, sandboxEntry } from "../sandbox-base.ts";
import { appendLine } from "../sandbox-support.ts";
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

/** A Sandbox for one thread, running in the calling context (the sandbox worker in the app, Node in tests). */
export class BrowserSandbox extends SandboxBase<KnownFile> {
  readonly kind = "browser" as const;
  private readonly root: IFileSystem;
  /** Bash instances by time limit: just-bash fixes limits at construction, and construction is cheap (~1.5 ms). */
  private readonly shells = new Map<number, Bash>();

  private constructor(
    private readonly options: BrowserSandboxOptions,
    private readonly data: InMemoryFs,
  ) {
    super(options.threadId, options.files);
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

  override async dispose(): Promise<void> {
    this.disposed = true;
    this.shells.clear();
    await this.queue.idle();
  }

  protected override async execute(command: string, options: RunOptions): Promise<CommandResult> {
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
    await this.saveChanges(current, changed);
    return notSaved;
  }

  protected override checkSaveable(path: string, resolved: string): void {
    const problem = threadFilePathProblem(resolved);
    if (problem !== undefined) throw new SandboxPathError(`Refused path ${JSON.stringify(path)}: ${problem}.`);
  }

  protected override async typeOf(path: string) {
    const stat = await this.statOrUndefined(path);
    return stat && (stat.isDirectory ? "directory" : "file");
  }

  protected override names(dir: string): Promise<string[]> {
    return this.root.readdir(dir);
  }

  protected override async entry(path: string): Promise<SandboxEntry | undefined> {
    const stat = await this.statOrUndefined(path);
    return stat && sandboxEntry(path, stat.isDirectory ? "directory" : "file", stat.size, stat.mtime.getTime());
  }

  protected override async entries(dir: string): Promise<SandboxEntry[]> {
    // Each entry through `stat`, so its path is checked as a caller's would be.
    const names = (await this.names(dir)).sort();
    const entries = await Promise.all(names.map((name) => this.stat(joinPath(dir, name))));
    return entries.filter((entry): entry is SandboxEntry => entry !== undefined);
  }

  protected override readBytes(path: string): Promise<Uint8Array> {
    return this.root.readFileBuffer(path);
  }

  protected override async putFile(path: string, bytes: Uint8Array, append: boolean): Promise<Uint8Array> {
    await this.data.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    if (append) await this.data.appendFile(path, bytes);
    else await this.data.writeFile(path, bytes);
    return this.data.readFileBuffer(path);
  }

  protected override async knownFile(path: string): Promise<KnownFile> {
    const stat = await this.data.stat(path);
    return { size: stat.size, mtime: stat.mtime.getTime() };
  }

  protected override removeTree(path: string): Promise<void> {
    return this.data.rm(path, { recursive: true });
  }

  protected override searchable(): SearchableFiles {
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
}
