// The page's one WebContainer, lent to one thread at a time (docs/architecture.md#d1-sandbox). Every process in a
// WebContainer sees its whole file system, and a process a command leaves running outlives its shell, so threads
// cannot share one: when another thread needs the container, the one holding it saves its files, the container is
// torn down (ending every process in it and dropping every file, /tmp and $HOME included) and a fresh one is booted
// for the next thread.
import type { DirEnt, FileSystemTree, SpawnOptions, WebContainerProcess } from "@webcontainer/api";
import { SerialQueue } from "../../shared/serial-queue.ts";

/** The part of @webcontainer/api's `FileSystemAPI` the sandbox uses. */
export interface WebContainerFs {
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  readdir(path: string, options: { withFileTypes: true }): Promise<DirEnt<string>[]>;
  mkdir(path: string, options: { recursive: true }): Promise<string>;
  rm(path: string, options?: { force?: boolean; recursive?: boolean }): Promise<void>;
}

/** The part of @webcontainer/api's `WebContainer` the sandbox uses: the real instance and FakeWebContainer fit. */
export interface WebContainerLike {
  /** Absolute path of the working directory; `fs` paths and `spawn`'s `cwd` are relative to it. */
  readonly workdir: string;
  readonly fs: WebContainerFs;
  mount(tree: FileSystemTree, options?: { mountPoint?: string }): Promise<void>;
  spawn(command: string, args: string[], options?: SpawnOptions): Promise<WebContainerProcess>;
  /** Ends every process and makes the instance unusable; a new one can then be booted. */
  teardown(): void;
}

/** A thread that takes the container in turn. */
export interface SlotTenant {
  /** Puts the thread's files into a container that holds nothing of any other thread. */
  moveIn(container: WebContainerLike): Promise<void>;
  /** Saves what the thread must keep, just before the container is torn down under it. */
  moveOut(container: WebContainerLike): Promise<void>;
}

export class WebContainerSlot {
  /** The live container, if any: fresh (never lent) while `tenant` is undefined. */
  private container: WebContainerLike | undefined;
  private tenant: SlotTenant | undefined;
  /** Handovers, and uses that wait for one, in order. */
  private readonly queue = new SerialQueue();
  /** The tenant's uses in progress: a handover waits for them before tearing the container down. */
  private readonly inUse = new Set<Promise<unknown>>();
  /** Uses waiting in the queue: while there are any, the tenant's new uses wait behind them. */
  private waiting = 0;

  /**
   * @param boot boots a new container (after the previous one was torn down).
   * @param first an already booted container that no thread has used.
   */
  constructor(
    private readonly boot: () => Promise<WebContainerLike>,
    first?: WebContainerLike,
  ) {
    this.container = first;
  }

  /**
   * Runs `work` on a container that holds `tenant`'s files and nothing of another thread's. The tenant's own uses
   * run side by side; another thread's use waits for them to finish, then takes the container over, and the
   * tenant's uses asked for after it wait their turn.
   */
  use<T>(tenant: SlotTenant, work: (container: WebContainerLike) => Promise<T>): Promise<T> {
    if (this.tenant === tenant && this.container && this.waiting === 0) return this.track(work(this.container));
    this.waiting++;
    return this.queue.run(async () => {
      let container: WebContainerLike;
      try {
        container = await this.holding(tenant);
      } finally {
        this.waiting--;
      }
      return this.track(work(container));
    });
  }

  /** The tenant is gone for good (its thread closed): the container it holds is torn down without saving. */
  leave(tenant: SlotTenant): Promise<void> {
    return this.queue.run(async () => {
      if (this.tenant !== tenant) return;
      await this.settled();
      this.tearDown();
    });
  }

  private async holding(tenant: SlotTenant): Promise<WebContainerLike> {
    if (this.tenant === tenant && this.container) return this.container;
    await this.settled();
    const previous = this.tenant;
    if (previous && this.container) {
      try {
        await previous.moveOut(this.container);
      } catch {
        // What the previous thread changed since its last command is lost; that command's changes were saved.
      } finally {
        this.tearDown();
      }
    }
    const container = (this.container ??= await this.boot());
    this.tenant = tenant;
    try {
      await tenant.moveIn(container);
    } catch (error) {
      this.tearDown();
      throw error;
    }
    return container;
  }

  /** Ends the container and everything running in it. */
  private tearDown(): void {
    const container = this.container;
    this.container = undefined;
    this.tenant = undefined;
    try {
      container?.teardown();
    } catch {
      // Already torn down: nothing of it is left to end.
    }
  }

  private async settled(): Promise<void> {
    while (this.inUse.size > 0) await Promise.allSettled([...this.inUse]);
  }

  private track<T>(use: Promise<T>): Promise<T> {
    this.inUse.add(use);
    void use.then(
      () => this.inUse.delete(use),
      () => this.inUse.delete(use),
    );
    return use;
  }
}
