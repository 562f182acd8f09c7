// The page's one WebContainer (docs/architecture.md#where-code-runs, #d1-sandbox), booted on demand and booted again
// each time it passes from one thread to another (webcontainer-slot.ts); page-sandbox-server.ts serves its per-thread
// sandboxes to the agent worker.
import type { BootOptions } from "@webcontainer/api";
import { WebContainerSlot, type WebContainerLike } from "./webcontainer-slot.ts";

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

/**
 * The page's WebContainer as a slot the threads take in turn: booted now (so a failure shows before any thread uses
 * it), and booted afresh after each teardown, when it passes to another thread.
 */
export async function openWebContainerSlot(options: BootWebContainerOptions = {}): Promise<WebContainerSlot> {
  const first = await bootWebContainer(options);
  return new WebContainerSlot(async () => {
    // The slot tore the last container down: the next boot is a new instance, not the one remembered.
    booting = undefined;
    return bootWebContainer(options);
  }, first);
}

async function bootFromApi(options: BootOptions): Promise<WebContainerLike> {
  const { WebContainer } = await import("@webcontainer/api");
  return WebContainer.boot(options);
}
