// Each thread's sandbox, opened on first use and kept while the worker lives: the provider the settings choose (the
// page's WebContainer once it reports, else the browser sandbox), the Terminal's commands, and when to reopen.
import type * as Comlink from "comlink";
import type {
  ChangeNotice,
  PythonHostHandle,
  SandboxCommandRequest,
  SandboxCommandResult,
  SandboxHostHandle,
  SandboxInfo,
  SandboxSettings,
} from "../protocol/index.ts";
import { RemoteSandbox } from "../sandbox/remote-sandbox.ts";
import { DEFAULT_CWD, type Sandbox } from "../sandbox/sandbox.ts";
import { CancellableCommands } from "../sandbox/sandbox-support.ts";
import type { ThreadFileMap, ThreadFileStore } from "../sandbox/webcontainer/thread-file-store.ts";
import type { SandboxHost } from "../sandbox/webcontainer/webcontainer-host.ts";
import { UserError } from "../shared/user-error.ts";
import type { ThreadFiles } from "../storage/index.ts";

/** How long a thread waits for the page to report on WebContainer before it uses the browser sandbox. */
export const SANDBOX_HOST_WAIT_MS = 35_000;

/** Opens a thread's browser sandbox (in a worker of its own in the app; in-process in tests). */
export type OpenSandbox = (
  threadId: string,
  files: ThreadFiles,
  skills: () => Promise<Record<string, Uint8Array>>,
) => Sandbox | Promise<Sandbox>;

export interface ThreadSandboxesOptions {
  files: ThreadFiles;
  /** The enabled skills' files, mounted read-only at /mnt/skills. */
  skills: () => Promise<Record<string, Uint8Array>>;
  /** The provider Settings → Sandbox chooses. */
  settings: () => Promise<SandboxSettings>;
  /** Without it, threads have no browser sandbox (and the agent no sandbox tools). */
  openSandbox?: OpenSandbox;
  /** Receives the page's Python frames; the agent worker passes them to its sandboxes. */
  attachPythonHost?: (host: PythonHostHandle) => void;
  threadExists: (threadId: string) => Promise<boolean>;
  /** Whether a reply is running on the thread (its sandbox stays open until the run ends). */
  isRunning: (threadId: string) => boolean;
  notify: (notice: ChangeNotice) => void;
}

export class ThreadSandboxes {
  private readonly sandboxes = new Map<string, Promise<Sandbox>>();
  /** Threads whose open sandbox mounts skills or settings that changed while they ran: closed when the run ends. */
  private readonly stale = new Set<string>();
  private readonly commands = new CancellableCommands();
  /** What the page reported about WebContainer; undefined until it has. */
  private hostReport: { host: Comlink.Remote<SandboxHost> | null; notice?: string } | undefined;
  private hostWaiters: (() => void)[] = [];

  constructor(private readonly options: ThreadSandboxesOptions) {}

  /** The thread's sandbox, opened on first use. */
  get(threadId: string): Promise<Sandbox> {
    let sandbox = this.sandboxes.get(threadId);
    if (!sandbox) {
      sandbox = this.open(threadId);
      sandbox.catch(() => this.sandboxes.delete(threadId));
      this.sandboxes.set(threadId, sandbox);
    }
    return sandbox;
  }

  async info(threadId: string): Promise<SandboxInfo> {
    const [sandbox, settings] = await Promise.all([this.get(threadId), this.options.settings()]);
    const notice =
      settings.provider === "webcontainer" && sandbox.kind !== "webcontainer"
        ? (this.hostReport?.notice ?? "WebContainer is not running; this thread uses the browser sandbox.")
        : undefined;
    return { kind: sandbox.kind, cwd: DEFAULT_CWD, ...(notice && { notice }) };
  }

  /** One Terminal command line; a refused working directory and the like come back as a failed command. */
  exec(request: SandboxCommandRequest): Promise<SandboxCommandResult> {
    if (typeof request?.command !== "string") return Promise.reject(new UserError("A command must be a string."));
    return this.commands.run(request.command_id, (signal) => this.execCommand(request, signal));
  }

  cancel(commandId: string): void {
    this.commands.cancel(commandId);
  }

  attachPythonHost(host: PythonHostHandle): void {
    this.options.attachPythonHost?.(host);
  }

  attachHost(host: SandboxHostHandle | null, notice?: string): void {
    this.hostReport = { host: host as Comlink.Remote<SandboxHost> | null, ...(notice && { notice }) };
    for (const wake of this.hostWaiters.splice(0)) wake();
    this.sandboxes.clear();
  }

  /** Threads follow a new provider at their next command (a command under way finishes where it is). */
  providerChanged(settings: SandboxSettings): void {
    if (settings.provider === "browser") this.hostReport = undefined;
    this.sandboxes.clear();
  }

  /** Closes the thread's sandbox, if open; its files stay stored and load again at the next command. */
  async close(threadId: string): Promise<void> {
    const sandbox = this.sandboxes.get(threadId);
    this.sandboxes.delete(threadId);
    await (await sandbox?.catch(() => undefined))?.dispose();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sandboxes.keys()].map((threadId) => this.close(threadId)));
  }

  /** Closes the sandboxes of threads not running; a running one closes when its run ends (see runEnded). */
  async closeIdle(): Promise<void> {
    for (const threadId of [...this.sandboxes.keys()]) {
      if (this.options.isRunning(threadId)) this.stale.add(threadId);
      else await this.close(threadId);
    }
  }

  async runEnded(threadId: string): Promise<void> {
    if (this.stale.delete(threadId)) await this.close(threadId);
  }

  private async execCommand(request: SandboxCommandRequest, signal: AbortSignal): Promise<SandboxCommandResult> {
    if (!(await this.options.threadExists(request.thread_id))) {
      throw new UserError(`There is no thread with id ${request.thread_id}.`);
    }
    try {
      const sandbox = await this.get(request.thread_id);
      const result = await sandbox.run(request.command, {
        ...(request.cwd !== undefined && { cwd: request.cwd }),
        ...(request.env !== undefined && { env: request.env }),
        signal,
      });
      this.options.notify({ type: "thread-changed", thread_id: request.thread_id });
      return {
        stdout: result.stdout,
        stderr: result.stderr,
        exit_code: result.exitCode,
        cwd: result.cwd ?? request.cwd ?? DEFAULT_CWD,
        env: result.env ?? request.env ?? {},
        ...(result.stopped && { stopped: result.stopped }),
      };
    } catch (error) {
      return {
        stdout: "",
        stderr: `${error instanceof Error ? error.message : String(error)}\n`,
        exit_code: 1,
        cwd: DEFAULT_CWD,
        env: request.env ?? {},
      };
    }
  }

  /** The page's WebContainer host once it has reported, or null when it could not start or took too long. */
  private async webContainerHost(): Promise<Comlink.Remote<SandboxHost> | null> {
    if (!this.hostReport) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, SANDBOX_HOST_WAIT_MS);
        this.hostWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.hostReport?.host ?? null;
  }

  /** The thread's files in IndexedDB, for a WebContainer on the page (which never opens the database itself). */
  private fileStore(): ThreadFileStore {
    const { files } = this.options;
    return {
      load: async (threadId) =>
        Object.fromEntries((await files.readAll(threadId)).map((file) => [file.meta.path, file.bytes])),
      save: async (threadId, written: ThreadFileMap, deleted) => {
        await files.apply(threadId, {
          write: Object.entries(written).map(([path, bytes]) => ({ path, bytes })),
          delete: deleted,
        });
      },
    };
  }

  private async open(threadId: string): Promise<Sandbox> {
    if ((await this.options.settings()).provider === "webcontainer") {
      const host = await this.webContainerHost();
      if (host) return RemoteSandbox.open(host, threadId, this.fileStore(), await this.options.skills());
    }
    const open = this.options.openSandbox;
    if (!open) throw new UserError("This Fawn has no sandbox.");
    return open(threadId, this.options.files, this.options.skills);
  }
}
