// The WebContainer sandboxes of every thread, served from the page to the agent worker's page-sandbox-client.ts over
// comlink. The worker opens a thread with a proxy of its ThreadFileStore, so the page never touches IndexedDB.
import { releaseProxy } from "comlink";
import { SandboxServer } from "../sandbox-server.ts";
import { settle, type RemoteResult } from "../sandbox-support.ts";
import type { ThreadFileMap, ThreadFileStore } from "../thread-file-store.ts";
import { WebContainerSandbox } from "./webcontainer-sandbox.ts";
import type { WebContainerSlot } from "./webcontainer-slot.ts";

export class PageSandboxServer extends SandboxServer<WebContainerSandbox> {
  /** Each open thread's store: a comlink proxy of the worker's, whose channel is freed when the thread closes. */
  private readonly stores = new Map<string, ThreadFileStore>();

  constructor(
    /** The page's WebContainer, which the threads take in turn: it never holds two threads' files at once. */
    private readonly slot: WebContainerSlot,
    private readonly terminal?: { cols: number; rows: number },
  ) {
    super();
  }

  /**
   * Opens the thread's sandbox; its files are loaded into the container when it first needs it. Opening an open
   * thread again starts it afresh from the store.
   */
  open(threadId: string, store: ThreadFileStore, skills?: ThreadFileMap): Promise<RemoteResult<void>> {
    return settle(async () => {
      await this.closeThread(threadId);
      this.stores.set(threadId, store);
      await this.sandboxes.set(
        threadId,
        WebContainerSandbox.open({
          slot: this.slot,
          threadId,
          store,
          ...(skills && { skills }),
          ...(this.terminal && { terminal: this.terminal }),
        }),
      );
    });
  }

  protected async sandbox(threadId: string): Promise<WebContainerSandbox> {
    const sandbox = this.sandboxes.get(threadId);
    if (!sandbox) throw new Error(`The thread ${threadId} is not open in the WebContainer: open it first.`);
    return sandbox;
  }

  protected override async closeThread(threadId: string): Promise<void> {
    const store = this.stores.get(threadId);
    this.stores.delete(threadId);
    await super.closeThread(threadId);
    (store as { [releaseProxy]?: () => void } | undefined)?.[releaseProxy]?.();
  }
}
