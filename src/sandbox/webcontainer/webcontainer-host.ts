// The page's side of the WebContainer sandbox (DESIGN.md §1, D1): boots the page's one WebContainer, and serves a
// WebContainerSandbox per thread to the agent worker over comlink (the worker's side is ../remote-sandbox.ts).
import type { BootOptions } from "@webcontainer/api";
import { releaseProxy } from "comlink";
import type { CommandResult, GrepMatch, GrepOptions, SandboxEntry } from "../sandbox.ts";
import { CancellableCommands, settle, type RemoteResult, type RemoteRunOptions } from "../sandbox-support.ts";
import type { ThreadFileMap, ThreadFileStore } from "./thread-file-store.ts";
import { WebContainerSandbox, type WebContainerLike } from "./webcontainer-sandbox.ts";

export const WEBCONTAINER_BOOT_TIMEOUT_MS = 30_000;

export interface BootWebContainerOptions {
  /** How long booting may take before the caller is told to fall back to the browser sandbox. */
  timeoutMs?: number;
  /** Defaults to @webcontainer/api's `WebContainer.boot`, loaded on first use. */
  boot?: (options: BootOptions) => Promise<WebContainerLike>;
}

let booting: Promise<WebContainerLike> | undefined;

/**
 * The page's WebContainer, booted on the first call (COEP `credentialless`, workdir `/home/fawn`) and shared by
 * every later one. Rejects at once when the page is not cross-origin isolated, and after `timeoutMs` when the boot
 * (which loads from stackblitz.com) has not finished; a later call waits for that same boot again.
 */
export async function bootWebContainer(options: BootWebContainerOptions = {}): Promise<WebContainerLike> {
  const { timeoutMs = WEBCONTAINER_BOOT_TIMEOUT_MS, boot = bootFromApi } = options;
  if (!globalThis.crossOriginIsolated) {
    throw new Error(
      "WebContainer needs a cross-origin isolated page (headers Cross-Origin-Opener-Policy: same-origin and " +
        "Cross-Origin-Embedder-Policy: credentialless), and this page is not. Reload once Fawn's service worker " +
        "controls the page, or serve Fawn with those headers.",
    );
  }
  if (!booting) {
    const started = boot({ coep: "credentialless", workdirName: "fawn" });
    booting = started;
    started.catch(() => {
      if (booting === started) booting = undefined;
    });
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `WebContainer did not start within ${timeoutMs / 1000} s. It loads from stackblitz.com: check the ` +
              "connection, and that third-party cookies and scripts from stackblitz.com are not blocked.",
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([booting, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function bootFromApi(options: BootOptions): Promise<WebContainerLike> {
  const { WebContainer } = await import("@webcontainer/api");
  return WebContainer.boot(options);
}

/**
 * The WebContainer sandboxes of every thread, for the agent worker (expose it with comlink). The worker opens a
 * thread with a proxy of its ThreadFileStore, so the page never touches IndexedDB; every call names the thread.
 */
export class SandboxHost {
  private readonly sandboxes = new Map<string, { sandbox: Promise<WebContainerSandbox>; store: ThreadFileStore }>();
  private readonly commands = new CancellableCommands();

  constructor(
    private readonly container: WebContainerLike,
    private readonly terminal?: { cols: number; rows: number },
  ) {}

  /** Loads the thread's files into the container; opening an open thread again starts it afresh from the store. */
  open(threadId: string, store: ThreadFileStore, skills?: ThreadFileMap): Promise<RemoteResult<void>> {
    return settle(async () => {
      await this.close(threadId);
      const opening = WebContainerSandbox.open({
        container: this.container,
        threadId,
        store,
        ...(skills && { skills }),
        ...(this.terminal && { terminal: this.terminal }),
      });
      const entry = { sandbox: opening, store };
      this.sandboxes.set(threadId, entry);
      opening.catch(() => {
        if (this.sandboxes.get(threadId) === entry) this.sandboxes.delete(threadId);
      });
      await opening;
    });
  }

  /** Runs a command; `cancel(commandId)` stops it. */
  run(
    threadId: string,
    commandId: string,
    command: string,
    options: RemoteRunOptions = {},
  ): Promise<RemoteResult<CommandResult>> {
    return settle<CommandResult>(() =>
      this.commands.run(commandId, async (signal) =>
        (await this.sandbox(threadId)).run(command, { ...options, signal }),
      ),
    );
  }

  cancel(commandId: string): void {
    this.commands.cancel(commandId);
  }

  readFile(threadId: string, path: string): Promise<RemoteResult<Uint8Array>> {
    return settle(async () => (await this.sandbox(threadId)).readFile(path));
  }

  writeFile(
    threadId: string,
    path: string,
    content: string | Uint8Array,
    options?: { append?: boolean },
  ): Promise<RemoteResult<void>> {
    return settle(async () => (await this.sandbox(threadId)).writeFile(path, content, options));
  }

  list(threadId: string, path: string): Promise<RemoteResult<SandboxEntry[]>> {
    return settle(async () => (await this.sandbox(threadId)).list(path));
  }

  stat(threadId: string, path: string): Promise<RemoteResult<SandboxEntry | undefined>> {
    return settle(async () => (await this.sandbox(threadId)).stat(path));
  }

  remove(threadId: string, path: string, options?: { recursive?: boolean }): Promise<RemoteResult<void>> {
    return settle(async () => (await this.sandbox(threadId)).remove(path, options));
  }

  glob(
    threadId: string,
    pattern: string,
    root: string,
    options?: { includeDirs?: boolean; maxResults?: number },
  ): Promise<RemoteResult<string[]>> {
    return settle(async () => (await this.sandbox(threadId)).glob(pattern, root, options));
  }

  grep(threadId: string, pattern: string, root: string, options?: GrepOptions): Promise<RemoteResult<GrepMatch[]>> {
    return settle(async () => (await this.sandbox(threadId)).grep(pattern, root, options));
  }

  /** Closes the thread's sandbox (its shell and its directory in the container); its files stay in the store. */
  dispose(threadId: string): Promise<RemoteResult<void>> {
    return settle(() => this.close(threadId));
  }

  private async close(threadId: string): Promise<void> {
    const entry = this.sandboxes.get(threadId);
    this.sandboxes.delete(threadId);
    await (await entry?.sandbox.catch(() => undefined))?.dispose();
    // The store is a comlink proxy of the worker's: free its channel.
    (entry?.store as { [releaseProxy]?: () => void } | undefined)?.[releaseProxy]?.();
  }

  private async sandbox(threadId: string): Promise<WebContainerSandbox> {
    const entry = this.sandboxes.get(threadId);
    if (!entry) throw new Error(`The thread ${threadId} is not open in the WebContainer: open it first.`);
    return entry.sandbox;
  }
}
