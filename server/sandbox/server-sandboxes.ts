// Each thread's sandbox on the server: the browser's own BrowserSandbox (just-bash over an in-memory copy of the
// thread's files, saved to the thread's storage after every command, /mnt/skills read-only) with python3 from
// Pyodide in a walled-off child process (node-python-runner.ts). Neither reaches the host's shell, files or
// environment: just-bash has only its in-memory file system, and Python's child runs under Node's permission model.
import { BrowserSandbox } from "../../src/sandbox/browser/browser-sandbox.ts";
import { createPythonCommands } from "../../src/sandbox/browser/python-command.ts";
import { PerThreadPythonRunners } from "../../src/sandbox/python/frame-python-runners.ts";
import type { ServerSandboxProvider, OpenServerSandbox } from "./sandbox-provider.ts";
import { NodePythonRunner } from "./node-python-runner.ts";

export interface ServerSandboxesOptions {
  /** How many sandboxes keep a warm Python interpreter (each a child process holding a Pyodide, ~100 MB). */
  warmInterpreters?: number;
  /** Environment every command starts with. */
  env?: Record<string, string>;
}

/** The built-in provider (see the module comment); one per process, shared by every user's Gateway. */
export class ServerSandboxes implements ServerSandboxProvider {
  readonly name = "browser";
  private readonly python: PerThreadPythonRunners;
  /** Interpreters are keyed by the opened sandbox, not the thread id: two users may well name a thread alike. */
  private opened = 0;

  constructor(private readonly options: ServerSandboxesOptions = {}) {
    this.python = new PerThreadPythonRunners(() => new NodePythonRunner(), options.warmInterpreters);
  }

  readonly open: OpenServerSandbox = async (threadId, files, skills) => {
    const key = `${threadId}#${++this.opened}`;
    const sandbox = await BrowserSandbox.open({
      threadId,
      files,
      skills: await skills(),
      commands: createPythonCommands(this.python.forThread(key)),
      ...(this.options.env && { env: this.options.env }),
    });
    const dispose = sandbox.dispose.bind(sandbox);
    sandbox.dispose = async () => {
      try {
        await dispose();
      } finally {
        this.python.release(key);
      }
    };
    return sandbox;
  };

  async close(): Promise<void> {
    this.python.dispose();
  }
}
