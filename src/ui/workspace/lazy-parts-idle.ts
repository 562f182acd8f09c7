// After a visit has loaded, once the page is idle, asks the service worker to cache the lazy groups (diagrams, PDF
// reading, Python: src/protocol/lazy-parts.ts) the install download leaves out, so each works offline without having
// been used. Only online and on a connection that suits a download the user did not ask for; each visit asks again,
// and the service worker fetches only what it has not cached yet (nothing, once done).
import { CACHE_LAZY_PARTS, LAZY_PARTS_CACHED_MARK, type LazyPartsStatus } from "../../protocol/index.ts";

/** How long after the page's load event the request waits (then for an idle moment): the first screen's downloads go first. */
const AFTER_LOAD_MS = 3000;

/** The Network Information API's fields read here (Chromium's; other browsers have none, and count as suitable). */
interface Connection {
  saveData?: boolean;
  type?: string;
  effectiveType?: string;
}

/** Whether the connection suits a download the user did not ask for: online, no Save-Data, not cellular, not 2G. */
export function suitsPrefetch(nav: { onLine: boolean; connection?: Connection }): boolean {
  const connection = nav.connection;
  if (!nav.onLine || connection?.saveData === true || connection?.type === "cellular") return false;
  return !/2g$/.test(connection?.effectiveType ?? "");
}

/** Starts the wait: once the page has loaded and AFTER_LOAD_MS passed, at the next idle moment, asks once. */
export function cacheLazyPartsWhenIdle(): void {
  if (!("serviceWorker" in navigator)) return;
  const idle = (run: () => void) =>
    "requestIdleCallback" in window ? requestIdleCallback(run, { timeout: 10_000 }) : setTimeout(run, 0);
  const start = () => setTimeout(() => idle(() => void askServiceWorker()), AFTER_LOAD_MS);
  if (document.readyState === "complete") start();
  else addEventListener("load", start, { once: true });
}

/** Asks the active service worker to cache what is missing; marks LAZY_PARTS_CACHED_MARK when all of it is cached. */
async function askServiceWorker(): Promise<void> {
  if (!suitsPrefetch(navigator as Navigator & { connection?: Connection })) return;
  const worker = (await navigator.serviceWorker.ready).active;
  if (!worker) return;
  const status = await new Promise<LazyPartsStatus>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(event.data as LazyPartsStatus);
    worker.postMessage({ type: CACHE_LAZY_PARTS }, [channel.port2]);
  });
  if (status.failed === 0) performance.mark(LAZY_PARTS_CACHED_MARK, { detail: status });
}
