// The sandbox domain's contract (`gateway.sandbox`): a thread's Terminal commands, and the page's WebContainer and
// Python hosts handed to the worker.

/** One command line typed into a thread's Terminal. */
export interface SandboxCommandRequest {
  /** Chosen by the caller so it can cancel the command (Ctrl+C). */
  command_id: string;
  thread_id: string;
  command: string;
  /** The terminal's working directory and exported variables, carried from the previous command. */
  cwd?: string;
  env?: Record<string, string>;
}

export interface SandboxCommandResult {
  stdout: string;
  stderr: string;
  exit_code: number;
  /** The working directory and environment after the command, for the next one. */
  cwd: string;
  env: Record<string, string>;
  /** Set when the sandbox ended the command (time limit, execution limits, Ctrl+C). */
  stopped?: "timeout" | "cancelled" | "limit";
}

/** Which sandbox runs the threads' commands (Settings → Sandbox). */
export interface SandboxSettings {
  /** `browser`: just-bash and Pyodide, offline. `webcontainer`: StackBlitz's WebContainer, Node.js and npm, online. */
  provider: "browser" | "webcontainer";
}

/**
 * The page's WebContainer host (src/sandbox/webcontainer/page-sandbox-server.ts `PageSandboxServer`) as a comlink proxy.
 * Opaque here: the protocol carries it, only the worker's sandbox layer uses it.
 */
export type SandboxHostHandle = object;

/**
 * The page's Python frames (src/sandbox/python/page/python-frame-host.ts `PythonFrameHost`) as a comlink proxy: only a
 * page can start the walled-off worker python3 runs in. Opaque here, like SandboxHostHandle.
 */
export type PythonHostHandle = object;

export interface SandboxInfo {
  /** Which provider runs this thread's commands. */
  kind: "browser" | "webcontainer";
  /** Where a new terminal starts. */
  cwd: string;
  /** Shown when the requested provider could not be used (e.g. WebContainer failed to boot). */
  notice?: string;
}

export interface SandboxApi {
  /** Describes the sandbox a thread's commands run in. */
  info(threadId: string): Promise<SandboxInfo>;
  /** Runs one command line in the thread's sandbox; files it writes are kept. Rejects only for a bad request. */
  exec(request: SandboxCommandRequest): Promise<SandboxCommandResult>;
  cancel(commandId: string): Promise<void>;
  /**
   * The page reports how starting WebContainer went: its host (a comlink proxy), or null and the reason it could not
   * start, which threads then show as a notice while they use the browser sandbox.
   */
  attachHost(host: SandboxHostHandle | null, notice?: string): Promise<void>;
  /** The page hands over its Python frames once, at start; python3 waits for them. */
  attachPythonHost(host: PythonHostHandle): Promise<void>;
}
