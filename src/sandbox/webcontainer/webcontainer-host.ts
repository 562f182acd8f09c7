// The page's one WebContainer (docs/architecture.md#where-code-runs, #d1-sandbox), booted on demand; page-sandbox-server.ts serves its per-thread
// sandboxes to the agent worker.
import type { BootOptions } from "@webcontainer/api";
import type { WebContainerLike } from "./webcontainer-sandbox.ts";

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
