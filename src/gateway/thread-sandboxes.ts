// Each thread's sandbox, for the agent's tools and the Terminal: which provider opens it (the browser sandbox, or
// WebContainer once the page has reported on it), when it closes (deleted thread, changed skills or setting) and the
// Terminal's cancellable commands.
import type * as Comlink from "comlink";
import type {
  ChangeNotice,
  PythonHostHandle,
  SandboxCommandRequest,
  SandboxCommandResult,
  SandboxHostHandle,
  SandboxApi,
  SandboxInfo,
  SandboxLogEntry,
  SandboxSettings,
} from "../protocol/index.ts";
import { auditedSandbox } from "../agent/index.ts";
import { DEFAULT_CWD, type Sandbox } from "../sandbox/sandbox.ts";
import { CancellableCommands, OpenSandboxes } from "../sandbox/sandbox-support.ts";
import { IndexedDbThreadFileStore } from "../sandbox/indexed-db-thread-file-store.ts";
import type { ThreadFileStore } from "../sandbox/thread-file-store.ts";
import { openPageSandbox } from "../sandbox/webcontainer/page-sandbox-client.ts";
import type { PageSandboxServer } from "../sandbox/webcontainer/page-sandbox-server.ts";
import type { ThreadFileStorage } from "../storage/index.ts";
import { UserError } from "../shared/user-error.ts";

/** How long a thread waits for the page to report on WebContainer before it uses the browser sandbox. */
export const SANDBOX_HOST_WAIT_MS = 35_000;

/** Opens a thread's browser sandbox (see GatewayOptions.openSandbox) over the thread's stored files. */
export type OpenBrowserSandbox = (
  threadId: string,
  files: ThreadFileStore,
  skills: () => Promise<Record<string, Uint8Array>>,
) => Sandbox | Promise<Sandbox>;

export interface ThreadSandboxesOptions {
  /** The sandbox setting as saved. */
  settings: () => Promise<SandboxSettings>;
  files: ThreadFileStorage;
  /** The enabled skills' files, by path under /mnt/skills, as they are now. */
  skills: () => Promise<Record<string, Uint8Array>>;
  /** Without it, threads have no browser sandbox. */
  openSandbox?: OpenBrowserSandbox | undefined;
  /** Receives the page's Python frames (see attachPythonHost). */
  attachPythonHost?: ((host: PythonHostHandle) => void) | undefined;
  threadExists: (threadId: string) => Promise<boolean>;
  notify: (notice: ChangeNotice) => void;
  /** True while the thread runs a reply: its sandbox is then kept until the run ends. */
  isRunning: (threadId: string) => boolean;
  /** Keeps one entry of the thread's sandbox log (openForAgent's commands); without it nothing is logged. */
  audit?: ((threadId: string, entry: SandboxLogEntry) => Promise<void>) | undefined;
}

export class ThreadSandboxes implements SandboxApi {
  private readonly sandboxes = new OpenSandboxes<Sandbox>();
  /** Threads whose open sandbox mounts skills that changed while they ran: closed when the run ends. */
  private readonly stale = new Set<string>();
  private readonly commands = new CancellableCommands();
  private readonly fileStore: IndexedDbThreadFileStore;
  /** What the page reported about WebContainer; undefined until it has. */
  private hostReport: { host: Comlink.Remote<PageSandboxServer> | null; notice?: string } | undefined;
  private hostWaiters: (() => void)[] = [];

  constructor(private readonly options: ThreadSandboxesOptions) {
    this.fileStore = new IndexedDbThreadFileStore(options.files);
  }

  /** The thread's sandbox, opened on first use and kept while the worker lives. */
  open(threadId: string): Promise<Sandbox> {
    return this.sandboxes.getOrOpen(threadId, () => this.openWith(threadId));
  }

  /**
   * The thread's sandbox as the agent's tools use it: each command is logged in the thread's sandbox log, with the
   * files it changed (the Terminal's commands, the user's own, are not).
   */
  async openForAgent(threadId: string): Promise<Sandbox> {
    const sandbox = await this.open(threadId);
    const audit = this.options.audit;
    if (!audit) return sandbox;
    return auditedSandbox(sandbox, {
      files: () => this.options.files.list(threadId),
      record: (entry) => audit(threadId, entry),
    });
  }

  /** Closes the thread's sandbox, if open; its files stay stored and load again at the next command. */
  close(threadId: string): Promise<void> {
    return this.sandboxes.close(threadId);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sandboxes.threadIds()].map((threadId) => this.close(threadId)));
  }

  /** Closes the sandboxes of threads not running (a running one closes when its run ends). */
  async closeIdle(): Promise<void> {
    for (const threadId of this.sandboxes.threadIds()) {
      if (this.options.isRunning(threadId)) this.stale.add(threadId);
      else await this.close(threadId);
    }
  }

  /** Closes the thread's sandbox if closeIdle found it running. */
  async runEnded(threadId: string): Promise<void> {
    if (this.stale.delete(threadId)) await this.close(threadId);
  }

  /** The provider setting changed: threads open their sandbox again at their next command. */
  providerChanged(provider: SandboxSettings["provider"]): void {
    if (provider === "browser") this.hostReport = undefined;
    this.sandboxes.forgetAll();
  }

  async info(threadId: string): Promise<SandboxInfo> {
    const sandbox = await this.open(threadId);
    const wanted = (await this.options.settings()).provider;
    const notice =
      wanted === "webcontainer" && sandbox.kind !== "webcontainer"
        ? (this.hostReport?.notice ?? "WebContainer is not running; this thread uses the browser sandbox.")
        : undefined;
    return { kind: sandbox.kind, cwd: DEFAULT_CWD, ...(notice && { notice }) };
  }

  async attachPythonHost(host: PythonHostHandle): Promise<void> {
    this.options.attachPythonHost?.(host);
  }

  /** The page's report on WebContainer: its server, or null and why not. Threads open their sandbox again. */
  async attachHost(host: SandboxHostHandle | null, notice?: string): Promise<void> {
    this.hostReport = { host: host as Comlink.Remote<PageSandboxServer> | null, ...(notice && { notice }) };
    for (const wake of this.hostWaiters.splice(0)) wake();
    this.sandboxes.forgetAll();
  }

  /** A Terminal command; `cancel(request.command_id)` stops it. */
  async exec(request: SandboxCommandRequest): Promise<SandboxCommandResult> {
    if (typeof request.command !== "string") throw new UserError("A command must be a string.");
    return this.commands.run(request.command_id, (signal) => this.execute(request, signal));
  }

  async cancel(commandId: string): Promise<void> {
    this.commands.cancel(commandId);
  }

  private async execute(request: SandboxCommandRequest, signal: AbortSignal): Promise<SandboxCommandResult> {
    if (!(await this.options.threadExists(request.thread_id))) {
      throw new UserError(`There is no thread with id ${request.thread_id}.`);
    }
    try {
      const sandbox = await this.open(request.thread_id);
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
      // A refused working directory and the like: the terminal shows it like a failed command.
      return {
        stdout: "",
        stderr: `${error instanceof Error ? error.message : String(error)}\n`,
        exit_code: 1,
        cwd: DEFAULT_CWD,
        env: request.env ?? {},
      };
    }
  }

  private async openWith(threadId: string): Promise<Sandbox> {
    if ((await this.options.settings()).provider === "webcontainer") {
      const host = await this.pageServer();
      if (host) return openPageSandbox(host, threadId, this.fileStore, await this.options.skills());
    }
    const open = this.options.openSandbox;
    if (!open) throw new UserError("This Fawn has no sandbox.");
    return open(threadId, this.fileStore, this.options.skills);
  }

  /** The page's WebContainer server once it has reported, or null when it could not start or took too long. */
  private async pageServer(): Promise<Comlink.Remote<PageSandboxServer> | null> {
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
}
