// The service worker's side of the lazy groups (src/protocol/lazy-parts.ts): files the install download leaves out,
// served cache-first from their own cache once fetched, cached all at once when the page asks in idle time, and
// removed once a new build no longer lists them.
import {
  FIRST_USE_ONLY_GROUPS,
  LAZY_CACHE,
  LAZY_GROUPS,
  type LazyGroup,
  type LazyPartsStatus,
  type ManifestEntry,
} from "../src/protocol/lazy-parts.ts";

/** How many lazy files are fetched at once while caching them all: a few, so the page's own requests go first. */
const PARALLEL_FETCHES = 2;

interface LazyFile {
  url: string;
  group: LazyGroup;
  /** Where the file's response is cached: its URL, with the build's revision when its name does not change with it. */
  key: string;
  /**
   * A file whose name does not change with its content is fetched past the HTTP cache, as workbox's precache does: a
   * host's `max-age` would otherwise hand the previous build's copy to the new one.
   */
  reload: boolean;
}

/** What LazyParts needs of the service worker's global scope (Cache Storage and fetch), a fake in unit tests. */
export interface LazyPartsHost {
  caches: Pick<CacheStorage, "open">;
  fetch: (url: string, init?: RequestInit) => Promise<Response>;
}

export class LazyParts {
  private readonly files = new Map<string, LazyFile>();
  /** Files being written to the cache, by URL (resolving to whether they were kept): each is fetched once at a time. */
  private readonly pending = new Map<string, Promise<boolean>>();

  /** @param entries The build's manifest; only the entries marked `lazy` count. @param base What their URLs are relative to. */
  constructor(
    entries: ManifestEntry[],
    base: string,
    private readonly host: LazyPartsHost,
  ) {
    for (const entry of entries) {
      if (entry.lazy === undefined) continue;
      const url = new URL(entry.url, base).href;
      const key = entry.revision === null ? url : `${url}?__WB_REVISION__=${encodeURIComponent(entry.revision)}`;
      this.files.set(url, { url, group: entry.lazy, key, reload: entry.revision !== null });
    }
  }

  /** Whether `url` (its query and fragment aside) is a lazy file of this build. */
  has(url: string): boolean {
    return this.files.has(withoutQuery(url));
  }

  /**
   * The lazy file at `url`: from the cache when there, else from the network, kept when it answers 200 (`waitUntil`
   * gets the write, which goes on while the response streams to the page).
   */
  async respond(url: string, waitUntil: (done: Promise<unknown>) => void = () => {}): Promise<Response> {
    const file = this.files.get(withoutQuery(url));
    if (file === undefined) return this.host.fetch(url);
    const cache = await this.host.caches.open(LAZY_CACHE);
    const cached = await cache.match(file.key);
    if (cached) return cached;
    const pending = this.pending.get(file.url);
    if (pending) {
      const kept = (await pending) ? await cache.match(file.key) : undefined;
      return kept ?? this.fetch(file);
    }
    const response = this.fetch(file);
    // The copy is taken before the page reads the response (this reaction comes first).
    waitUntil(
      this.keep(
        file,
        response.then((answer) => this.put(cache, file, answer, { copy: true })),
      ),
    );
    return response;
  }

  /** Caches every lazy file not cached yet (the page asks in idle time) and says how many each group has. */
  async cacheAll(): Promise<LazyPartsStatus> {
    const cache = await this.host.caches.open(LAZY_CACHE);
    const queue: LazyFile[] = [];
    for (const file of this.files.values()) {
      if (FIRST_USE_ONLY_GROUPS.includes(file.group)) continue;
      if ((await cache.match(file.key)) === undefined) queue.push(file);
    }
    let failed = 0;
    const fetchNext = async (): Promise<void> => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        const kept = await (this.pending.get(file.url) ??
          this.keep(
            file,
            this.fetch(file).then((answer) => this.put(cache, file, answer)),
          ));
        if (!kept) failed += 1;
      }
    };
    await Promise.all(Array.from({ length: PARALLEL_FETCHES }, fetchNext));
    return this.status(failed);
  }

  /** Each group's count of files and of those cached now. */
  async status(failed = 0): Promise<LazyPartsStatus> {
    const cache = await this.host.caches.open(LAZY_CACHE);
    const groups = Object.fromEntries(LAZY_GROUPS.map((group) => [group, { files: 0, cached: 0 }])) as Record<
      LazyGroup,
      { files: number; cached: number }
    >;
    for (const file of this.files.values()) {
      groups[file.group].files += 1;
      if ((await cache.match(file.key)) !== undefined) groups[file.group].cached += 1;
    }
    return { type: "LAZY_PARTS_CACHED", groups, failed };
  }

  /** Deletes what an earlier build cached that this one does not list (a changed file has a new key). */
  async removeOutdated(): Promise<void> {
    const cache = await this.host.caches.open(LAZY_CACHE);
    const keys = new Set([...this.files.values()].map((file) => file.key));
    for (const request of await cache.keys()) if (!keys.has(request.url)) await cache.delete(request);
  }

  private fetch(file: LazyFile): Promise<Response> {
    return file.reload ? this.host.fetch(file.url, { cache: "reload" }) : this.host.fetch(file.url);
  }

  /** Keeps a 200 answer (or a `copy` of it) only: no redirect, error page or partial answer is kept for good. */
  private async put(cache: Cache, file: LazyFile, answer: Response, { copy = false } = {}): Promise<void> {
    if (answer.status !== 200) throw new Error(`${file.url} answered ${answer.status}`);
    await cache.put(file.key, copy ? answer.clone() : answer);
  }

  /** Notes `writing` as `file`'s write under way until it settles; resolves to whether it was kept. */
  private keep(file: LazyFile, writing: Promise<unknown>): Promise<boolean> {
    const kept = writing.then(
      () => true,
      () => false,
    );
    this.pending.set(file.url, kept);
    void kept.then(() => {
      if (this.pending.get(file.url) === kept) this.pending.delete(file.url);
    });
    return kept;
  }
}

function withoutQuery(url: string): string {
  const parsed = new URL(url);
  parsed.search = "";
  parsed.hash = "";
  return parsed.href;
}
