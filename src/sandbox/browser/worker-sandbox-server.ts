// The browser sandboxes of every thread, served from the sandbox worker (workers/sandbox.worker.ts) to the agent
// worker's WorkerSandboxClient (worker-sandbox-client.ts). A thread's sandbox opens at its first call.
import type { CustomCommand } from "just-bash/browser";
import { SandboxServer } from "../sandbox-server.ts";
import type { ThreadFileStore } from "../thread-file-store.ts";
import { BrowserSandbox } from "./browser-sandbox.ts";

export interface WorkerSandboxServerOptions {
  files: ThreadFileStore;
  /** Read-only files under /mnt/skills, by absolute path. */
  skills?: () => Promise<Record<string, Uint8Array>>;
  /** Extra commands of a thread's shell (python3 gets a runner of the thread's own). */
  commands?: (threadId: string) => CustomCommand[];
  env?: Record<string, string>;
  /** Receives the page's Python frames broker (see attachPython). */
  attachPython?: (port: MessagePort) => void;
  /** Called when a thread's sandbox closes, so its python3 interpreter can go too. */
  onClose?: (threadId: string) => void;
}

export class WorkerSandboxServer extends SandboxServer<BrowserSandbox> {
  constructor(private readonly options: WorkerSandboxServerOptions) {
    super();
  }

  /** The agent worker hands over a broker port on the page's Python frames (PythonFrames, over comlink). */
  attachPython(port: MessagePort): void {
    this.options.attachPython?.(port);
  }

  protected sandbox(threadId: string): Promise<BrowserSandbox> {
    return this.sandboxes.getOrOpen(threadId, async () =>
      BrowserSandbox.open({
        threadId,
        files: this.options.files,
        ...(this.options.skills && { skills: await this.options.skills() }),
        ...(this.options.commands && { commands: this.options.commands(threadId) }),
        ...(this.options.env && { env: this.options.env }),
      }),
    );
  }

  protected override closeThread(threadId: string): Promise<void> {
    this.options.onClose?.(threadId);
    return super.closeThread(threadId);
  }
}
