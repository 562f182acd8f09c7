// Parts of the app most users never need, left out of the service worker's install download (docs/architecture.md#d9-pwa):
// the service worker caches each on first use, and all of them when the page asks it to in idle time after a visit.

/**
 * The lazy groups: diagrams (mermaid and its chunks), PDF reading (pdfjs-dist), Python (everything under pyodide/),
 * and the on-device model runtime (wllama: llama.cpp's WebAssembly).
 */
export const LAZY_GROUPS = ["diagrams", "pdf", "python", "on-device"] as const;
export type LazyGroup = (typeof LAZY_GROUPS)[number];

/**
 * Groups cached only on first use, never in idle time: the on-device runtime (10 MB) serves only users who pick that
 * provider, and they use it (so cache it) before they could want it offline.
 */
export const FIRST_USE_ONLY_GROUPS: readonly LazyGroup[] = ["on-device"];

/**
 * A precache manifest entry as the build injects it into the service worker (`self.__WB_MANIFEST`): `lazy` marks an
 * entry of a lazy group, which is not precached.
 */
export interface ManifestEntry {
  url: string;
  revision: string | null;
  lazy?: LazyGroup;
}

/** The Cache Storage cache of the lazy groups' files, keyed by URL and revision like the precache. */
export const LAZY_CACHE = "fawn-lazy-parts";

/** The page's request to the active service worker: cache every lazy file not cached yet, then answer on `port`. */
export const CACHE_LAZY_PARTS = "CACHE_LAZY_PARTS";

/** The service worker's answer: each group's files cached, and those it could not fetch (0 when done). */
export interface LazyPartsStatus {
  type: "LAZY_PARTS_CACHED";
  groups: Record<LazyGroup, { files: number; cached: number }>;
  failed: number;
}

/** The performance mark the page sets once the service worker reports every lazy file cached. */
export const LAZY_PARTS_CACHED_MARK = "fawn:lazy-parts-cached";
