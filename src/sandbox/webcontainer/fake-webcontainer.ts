// An in-memory twin of the @webcontainer/api surface Fawn uses (STYLE.md 2), since a real WebContainer cannot boot
// without stackblitz.com: the fs API, mount, spawn of a `jsh --osc` shell that runs each line with just-bash, and
// teardown. Like the real one, it is one file system and one set of processes for everything spawned in it.
import type { DirEnt, FileSystemTree, SpawnOptions, WebContainerProcess } from "@webcontainer/api";
import { Bash, defineCommand, InMemoryFs } from "just-bash/browser";
import { joinPath } from "../sandbox.ts";
import { WebContainerSlot, type WebContainerFs, type WebContainerLike } from "./webcontainer-slot.ts";

export interface FakeWebContainerOptions {
  /** The working directory is /home/<workdirName>, as in WebContainer.boot. */
  workdirName?: string;
  /** Splits everything a shell prints into chunks of this many characters, as a terminal stream may. */
  outputChunkSize?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An Error shaped like WebContainer's (Node's) file system errors: `ENOENT: no such file or directory, open 'x'`. */
function fsError(code: string, description: string, syscall: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${description}, ${syscall} '${path}'`), { code });
}

/** WebContainer's `fs`: paths are relative to the workdir, and a leading "/" means the workdir itself. */
export class FakeFileSystem implements WebContainerFs {
  /** @internal */
  constructor(
    private readonly files: InMemoryFs,
    private readonly workdir: string,
    private readonly assertUsable: () => void,
  ) {}

  readFile(path: string): Promise<Uint8Array>;
  readFile(path: string, encoding: "utf8" | "utf-8"): Promise<string>;
  async readFile(path: string, encoding?: "utf8" | "utf-8"): Promise<Uint8Array | string> {
    const absolute = this.resolve(path);
    const stat = await this.files.stat(absolute).catch(() => undefined);
    if (!stat) throw fsError("ENOENT", "no such file or directory", "open", path);
    if (stat.isDirectory) throw fsError("EISDIR", "illegal operation on a directory", "read", path);
    const bytes = await this.files.readFileBuffer(absolute);
    return encoding ? decoder.decode(bytes) : bytes;
  }

  /** Like Node (unlike just-bash's InMemoryFs), refuses to write into a folder that does not exist. */
  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    const absolute = this.resolve(path);
    const parent = await this.files.stat(absolute.slice(0, absolute.lastIndexOf("/")) || "/").catch(() => undefined);
    if (!parent?.isDirectory) throw fsError("ENOENT", "no such file or directory", "open", path);
    if ((await this.files.stat(absolute).catch(() => undefined))?.isDirectory) {
      throw fsError("EISDIR", "illegal operation on a directory", "open", path);
    }
    await this.files.writeFile(absolute, typeof data === "string" ? encoder.encode(data) : data);
  }

  readdir(path: string): Promise<string[]>;
  readdir(path: string, options: { withFileTypes: true }): Promise<DirEnt<string>[]>;
  async readdir(path: string, options?: { withFileTypes: true }): Promise<string[] | DirEnt<string>[]> {
    const absolute = this.resolve(path);
    const stat = await this.files.stat(absolute).catch(() => undefined);
    if (!stat) throw fsError("ENOENT", "no such file or directory", "scandir", path);
    if (!stat.isDirectory) throw fsError("ENOTDIR", "not a directory", "scandir", path);
    const entries = await this.files.readdirWithFileTypes(absolute);
    if (!options?.withFileTypes) return entries.map((entry) => entry.name);
    return entries.map((entry) => ({
      name: entry.name,
      isFile: () => entry.isFile,
      isDirectory: () => entry.isDirectory,
    }));
  }

  mkdir(path: string, options?: { recursive?: false }): Promise<void>;
  mkdir(path: string, options: { recursive: true }): Promise<string>;
  async mkdir(path: string, options?: { recursive?: boolean }): Promise<string | void> {
    const absolute = this.resolve(path);
    if (options?.recursive) {
      await this.files.mkdir(absolute, { recursive: true });
      return absolute;
    }
    const parent = await this.files.stat(absolute.slice(0, absolute.lastIndexOf("/")) || "/").catch(() => undefined);
    if (!parent?.isDirectory) throw fsError("ENOENT", "no such file or directory", "mkdir", path);
    if (await this.files.exists(absolute)) throw fsError("EEXIST", "file already exists", "mkdir", path);
    await this.files.mkdir(absolute);
  }

  async rm(path: string, options: { force?: boolean; recursive?: boolean } = {}): Promise<void> {
    const absolute = this.resolve(path);
    const stat = await this.files.stat(absolute).catch(() => undefined);
    if (!stat) {
      if (options.force) return;
      throw fsError("ENOENT", "no such file or directory", "rm", path);
    }
    if (stat.isDirectory && !options.recursive) throw fsError("EISDIR", "is a directory", "rm", path);
    await this.files.rm(absolute, { recursive: true, force: true });
  }

  async rename(oldPath: string, newPath: string): Promise<void> {
    if (!(await this.files.exists(this.resolve(oldPath)))) {
      throw fsError("ENOENT", "no such file or directory", "rename", oldPath);
    }
    await this.files.mv(this.resolve(oldPath), this.resolve(newPath));
  }

  /** @internal The absolute container path of a workdir-relative path; throws once the container is torn down. */
  resolve(path: string): string {
    this.assertUsable();
    return joinPath(this.workdir, path.replace(/^\/+/, ""));
  }
}

/** A process of the container: a shell, or a job `nohup` left running. */
interface FakeProcess {
  kill(): void;
}

/**
 * A WebContainer in memory. As in the real one, every process sees the whole container file system (the workdir is
 * not a boundary), a process started in the background outlives the shell that started it, and `teardown()` ends
 * every process and makes the instance unusable. Differences: commands are just-bash's (no node or npm), `nohup
 * <command>` stands for a background process (just-bash runs `&` in the foreground): it runs its arguments as a job
 * that outlives the command and its shell, until it ends or the container is torn down. A command's stdout comes
 * before its stderr instead of interleaved, a line is echoed whole instead of keystroke by keystroke, and a command
 * that hits just-bash's execution limits is treated as one that never ends (it waits for Ctrl-C), because a real
 * container has no such limits.
 */
export class FakeWebContainer implements WebContainerLike {
  readonly workdir: string;
  readonly fs: FakeFileSystem;
  /** The whole container file system by absolute path, shared by `fs`, every shell and every background job. */
  private readonly files = new InMemoryFs();
  /** Every process still running: shells and background jobs. */
  private readonly processes = new Set<FakeProcess>();
  private tornDown = false;
  private pids = 1;

  private constructor(private readonly options: FakeWebContainerOptions) {
    this.workdir = `/home/${options.workdirName ?? "project"}`;
    this.fs = new FakeFileSystem(this.files, this.workdir, () => this.assertUsable());
  }

  /** True once `teardown()` was called. */
  get isTornDown(): boolean {
    return this.tornDown;
  }

  /** How many processes (shells and background jobs) are running. */
  get runningProcesses(): number {
    return this.processes.size;
  }

  /** Ends every process and makes the instance, its `fs` and its processes unusable, as WebContainer's does. */
  teardown(): void {
    if (this.tornDown) throw new Error("WebContainer already torn down");
    this.tornDown = true;
    for (const process of [...this.processes]) process.kill();
    this.processes.clear();
  }

  /** Boots a fake container (cheap: tests may boot one each). */
  static async boot(options: FakeWebContainerOptions = {}): Promise<FakeWebContainer> {
    const container = new FakeWebContainer(options);
    await container.files.mkdir(container.workdir, { recursive: true });
    return container;
  }

  /** Writes `tree` into `mountPoint` (relative to the workdir), which must exist. */
  async mount(tree: FileSystemTree, options: { mountPoint?: string } = {}): Promise<void> {
    this.assertUsable();
    const base = this.fs.resolve(options.mountPoint ?? "");
    if (!(await this.files.stat(base).catch(() => undefined))?.isDirectory) {
      throw fsError("ENOENT", "no such file or directory", "mount", options.mountPoint ?? "");
    }
    const write = async (dir: string, entries: FileSystemTree): Promise<void> => {
      for (const [name, node] of Object.entries(entries)) {
        const path = `${dir}/${name}`;
        if ("directory" in node) {
          await this.files.mkdir(path, { recursive: true });
          await write(path, node.directory);
        } else if ("contents" in node.file) {
          const { contents } = node.file;
          await this.files.writeFile(path, typeof contents === "string" ? encoder.encode(contents) : contents);
        } else {
          throw new Error(`FakeWebContainer does not model symlinks (${path}).`);
        }
      }
    };
    await write(base, tree);
  }

  /** Starts `jsh` (with `--osc`, it speaks WebContainer's OSC 654 protocol); other programs are not modelled. */
  async spawn(command: string, args: string[] = [], options: SpawnOptions = {}): Promise<WebContainerProcess> {
    this.assertUsable();
    if (command !== "jsh" && command !== "/bin/jsh") {
      throw new Error(`FakeWebContainer only spawns jsh, not ${JSON.stringify(command)}.`);
    }
    const env = Object.fromEntries(Object.entries(options.env ?? {}).map(([name, value]) => [name, String(value)]));
    const bash = this.bash(this.workdir, { HOME: this.workdir, ...env });
    const shell = new FakeShell(bash, {
      cwd: this.fs.resolve(options.cwd ?? ""),
      workdir: this.workdir,
      osc: args.includes("--osc"),
      nextPid: () => this.pids++,
      chunkSize: this.options.outputChunkSize,
    });
    this.processes.add(shell);
    void shell.process.exit.then(() => this.processes.delete(shell));
    return shell.process;
  }

  /** A just-bash on the container's files, with `nohup` starting a background job. */
  private bash(cwd: string, env: Record<string, string>): Bash {
    const nohup = defineCommand("nohup", async (args, context) => {
      if (this.tornDown) return { stdout: "", stderr: "nohup: the container is gone\n", exitCode: 126 };
      this.background(args, context.cwd, Object.fromEntries(context.env));
      return { stdout: "", stderr: "", exitCode: 0 };
    });
    return new Bash({ fs: this.files, cwd, env, customCommands: [nohup] });
  }

  /** Runs `args` as a process of its own that neither its command nor its shell waits for or ends. */
  private background(args: string[], cwd: string, env: Record<string, string>): void {
    const controller = new AbortController();
    const job: FakeProcess = { kill: () => controller.abort() };
    this.processes.add(job);
    const line = args.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(" ");
    void this.bash(cwd, env)
      .exec(line, { cwd, signal: controller.signal })
      .catch(() => undefined)
      .finally(() => this.processes.delete(job));
  }

  private assertUsable(): void {
    if (this.tornDown) throw new Error("This WebContainer was torn down: boot a new one.");
  }
}

/**
 * A page's WebContainer slot over fake containers, booted as `WebContainer.boot` allows: a new one only once the last
 * one is torn down. `booted` lists every container booted so far, the live one last.
 */
export async function bootFakeSlot(
  options: FakeWebContainerOptions = {},
): Promise<{ slot: WebContainerSlot; booted: FakeWebContainer[] }> {
  const booted: FakeWebContainer[] = [];
  const boot = async () => {
    if (booted.some((container) => !container.isTornDown)) {
      throw new Error("Only a single WebContainer instance can be booted");
    }
    const container = await FakeWebContainer.boot(options);
    booted.push(container);
    return container;
  };
  return { slot: new WebContainerSlot(boot, await boot()), booted };
}

interface FakeShellOptions {
  cwd: string;
  workdir: string;
  osc: boolean;
  nextPid: () => number;
  chunkSize: number | undefined;
}

/** jsh as its terminal shows it: a prompt, the typed line echoed, the output with CRLF, OSC 654 markers. */
class FakeShell implements FakeProcess {
  readonly process: WebContainerProcess;
  private output!: ReadableStreamDefaultController<string>;
  private typed = "";
  private readonly lines: string[] = [];
  private running: AbortController | undefined;
  private cwd: string;
  private env: Record<string, string> | undefined;
  private closed = false;
  private exited!: (code: number) => void;

  constructor(
    private readonly bash: Bash,
    private readonly options: FakeShellOptions,
  ) {
    this.cwd = options.cwd;
    const output = new ReadableStream<string>({ start: (controller) => void (this.output = controller) });
    const input = new WritableStream<string>({ write: (chunk) => this.type(chunk) });
    const exit = new Promise<number>((resolve) => (this.exited = resolve));
    this.process = {
      input,
      output,
      exit,
      kill: () => this.kill(),
      resize: () => undefined,
    };
    queueMicrotask(() => {
      if (options.osc) this.print("\x1b]654;interactive\x07");
      this.prompt();
    });
  }

  /** Keystrokes: Ctrl-C interrupts, Enter runs the line; lines typed while a command runs wait their turn. */
  private type(chunk: string): void {
    for (const char of chunk.replace(/\r\n?/g, "\n")) {
      if (char === "\x03") {
        this.typed = "";
        this.print("^C\n");
        if (this.running) this.running.abort();
        else this.prompt();
      } else if (char === "\n") {
        this.lines.push(this.typed);
        this.typed = "";
        void this.next();
      } else {
        this.typed += char;
      }
    }
  }

  private async next(): Promise<void> {
    if (this.running || this.closed) return;
    const line = this.lines.shift();
    if (line === undefined) return;
    this.print(`${line}\n`);
    if (line.trim() === "") {
      this.prompt();
      return void this.next();
    }
    const controller = new AbortController();
    this.running = controller;
    const result = await this.bash
      .exec(line, { cwd: this.cwd, signal: controller.signal, ...(this.env && { env: this.env, replaceEnv: true }) })
      .catch((error: unknown) => ({ stdout: "", stderr: `jsh: ${String(error)}\n`, exitCode: 1, env: undefined }));
    const endless = result.exitCode === 126 && /executionLimits\./.test(result.stderr);
    this.print(result.stdout);
    if (endless && !controller.signal.aborted) {
      await new Promise((resolve) => controller.signal.addEventListener("abort", resolve, { once: true }));
    }
    if (this.closed) return;
    if (!controller.signal.aborted && !endless) this.print(result.stderr);
    this.cwd = result.env?.PWD ?? this.cwd;
    this.env = result.env ?? this.env;
    this.running = undefined;
    const code = controller.signal.aborted ? 130 : result.exitCode;
    if (this.options.osc) this.print(`\x1b]654;exit=${this.options.nextPid()}:${code}\x07`);
    this.prompt();
    void this.next();
  }

  private prompt(): void {
    if (this.closed) return;
    const { workdir } = this.options;
    const shown =
      this.cwd === workdir ? "~" : this.cwd.startsWith(`${workdir}/`) ? `~${this.cwd.slice(workdir.length)}` : this.cwd;
    this.print(`${this.options.osc ? "\x1b]654;prompt\x07" : ""}\x1b[01;34m${shown}\x1b[00m\n\x1b[01;32m❯\x1b[00m `);
  }

  /** Writes to the terminal, which turns LF into CRLF. */
  private print(text: string): void {
    if (this.closed || text === "") return;
    const shown = text.replace(/\n/g, "\r\n");
    const size = this.options.chunkSize ?? shown.length;
    for (let at = 0; at < shown.length; at += size) this.output.enqueue(shown.slice(at, at + size));
  }

  kill(): void {
    if (this.closed) return;
    this.closed = true;
    this.running?.abort();
    this.output.close();
    this.exited(137);
  }
}
