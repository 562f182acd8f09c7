// Thread search in the worker: titles from the thread list, message text from the search index (storage's
// ThreadSearchIndex), which is kept up to date when a run ends or a thread is imported, and filled for any thread
// it misses (older databases, a run cut short by a closed page) before or while a search runs.
import { stripThinking } from "../agent/index.ts";
import {
  CHANGES_CHANNEL,
  contentText,
  isChangeNotice,
  MAX_THREAD_SEARCH_LIMIT,
  type ThreadSearchHit,
  type ThreadSearchResult,
  type ThreadSummary,
  type WireMessage,
} from "../protocol/index.ts";
import {
  findSnippet,
  queryTerms,
  titleHighlights,
  titleMatches,
  type ThreadStorage,
  type SearchIndexStorage,
} from "../storage/index.ts";

export const DEFAULT_THREAD_SEARCH_LIMIT = 50;
/** Up to this many unindexed threads are indexed before a search answers; more are indexed in the background. */
const INDEX_BEFORE_ANSWER = 100;
/** Threads indexed per write transaction while catching up. */
const CATCH_UP_BATCH = 200;
/**
 * The thread list is kept between searches (reading ten thousand summaries costs more than the search itself) and
 * read again after any change notice; this bounds how stale it can be should a notice be missed.
 */
const LIST_TTL_MS = 10_000;
/** The longest query considered. */
const MAX_QUERY_LENGTH = 500;

/**
 * The text search looks in: what the user wrote and what the assistant answered (reasoning, tool calls and tool
 * output left out), one message per line.
 */
export function searchableText(messages: readonly WireMessage[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    if (message.type === "human") lines.push(contentText(message.content));
    else if (message.type === "ai") lines.push(stripThinking(contentText(message.content)));
  }
  return lines.filter((line) => line.trim().length > 0).join("\n");
}

export interface ThreadSearchDependencies {
  threads: ThreadStorage;
  index: SearchIndexStorage;
  /** The thread's messages as the user sees them; undefined when the thread is gone. */
  messages: (threadId: string) => Promise<WireMessage[] | undefined>;
  /** The same for many threads at once (catching up on thousands); threads that are gone are left out. */
  messagesOf?: (threadIds: readonly string[]) => Promise<Map<string, WireMessage[]>>;
}

export class ThreadSearchService {
  private catchingUp: Promise<void> | undefined;
  /** A catch-up too big to wait for is under way: searches answer meanwhile without checking the index again. */
  private catchingUpInBackground = false;
  private listed: { threads: ThreadSummary[]; at: number } | undefined;
  /** Counts thread changes, so a list read while one happened is not kept. */
  private changes = 0;

  constructor(private readonly deps: ThreadSearchDependencies) {}

  /** Threads matching every word of `query`; see ThreadsApi.search. */
  async search(query: string, options: { limit?: number } = {}): Promise<ThreadSearchResult> {
    const text = String(query ?? "").slice(0, MAX_QUERY_LENGTH);
    const limit = Math.min(
      MAX_THREAD_SEARCH_LIMIT,
      Math.max(1, Math.floor(Number(options.limit ?? DEFAULT_THREAD_SEARCH_LIMIT)) || DEFAULT_THREAD_SEARCH_LIMIT),
    );
    const terms = queryTerms(text);
    const indexing = !(await this.prepare());
    if (terms.length === 0) return { query: text, hits: [], total: 0, indexing };
    const textTerms = terms.filter((term) => term.text);
    const [threads, withTerm] = await Promise.all([
      this.threadList(),
      this.deps.index.threadsWithPrefixes(textTerms.map((term) => term.term)),
    ]);
    const withText = new Map(textTerms.map((term, position) => [term.term, withTerm[position]!]));
    const inText = (thread: ThreadSummary) => withTerm.some((ids) => ids.has(thread.thread_id));
    const matches = threads.filter((thread) =>
      terms.every(
        (term) => titleMatches(thread.title, [term]) || (withText.get(term.term)?.has(thread.thread_id) ?? false),
      ),
    );
    const shown = matches.slice(0, limit);
    const texts = await this.deps.index.texts(shown.filter(inText).map((thread) => thread.thread_id));
    const hits = shown.map((thread): ThreadSearchHit => {
      const passage = texts.get(thread.thread_id);
      const snippet = passage === undefined ? undefined : findSnippet(passage, terms);
      return {
        thread,
        title_highlights: titleHighlights(thread.title, terms),
        ...(snippet && { snippet }),
      };
    });
    return { query: text, hits, total: matches.length, indexing };
  }

  /** A thread was created, changed or deleted (here or in another tab): the list is read again at the next search. */
  threadsChanged(): void {
    this.changes++;
    this.listed = undefined;
  }

  private async threadList(): Promise<ThreadSummary[]> {
    if (this.listed && Date.now() - this.listed.at < LIST_TTL_MS) return this.listed.threads;
    const changes = this.changes;
    const threads = await this.deps.threads.list();
    if (changes === this.changes) this.listed = { threads, at: Date.now() };
    return threads;
  }

  /** Indexes the thread's messages as they are now (after a run, an import). */
  async index(threadId: string): Promise<void> {
    const messages = await this.deps.messages(threadId);
    if (messages) await this.deps.index.put([{ threadId, text: searchableText(messages) }]);
    // A catch-up under way may have read the thread before this change and write after it: index it again then.
    void this.catchingUp?.then(() => this.index(threadId)).catch(() => undefined);
  }

  /**
   * Marks the thread's entry out of date (a run is about to change it): the run's end indexes it again, and if the
   * run never ends (the page closed), the next search does.
   */
  async invalidate(threadId: string): Promise<void> {
    await this.deps.index.remove([threadId]);
  }

  /** Indexes every thread the index misses and drops entries of threads that are gone; one pass at a time. */
  catchUp(): Promise<void> {
    this.catchingUp ??= this.runCatchUp().finally(() => (this.catchingUp = undefined));
    return this.catchingUp;
  }

  /**
   * Brings the index up to date before a search when little is missing; otherwise starts doing so in the background.
   * True when the index is complete.
   */
  private async prepare(): Promise<boolean> {
    if (this.catchingUp && this.catchingUpInBackground) return false;
    if (!this.catchingUp && (await this.deps.index.isComplete())) return true;
    const { missing } = await this.deps.index.differences();
    const running = this.catchUp();
    if (missing.length > INDEX_BEFORE_ANSWER) {
      this.catchingUpInBackground = true;
      running.catch(() => undefined).finally(() => (this.catchingUpInBackground = false));
      return false;
    }
    await running;
    return true;
  }

  private async runCatchUp(): Promise<void> {
    const { missing, orphans } = await this.deps.index.differences();
    await this.deps.index.remove(orphans);
    for (let start = 0; start < missing.length; start += CATCH_UP_BATCH) {
      const batch = missing.slice(start, start + CATCH_UP_BATCH);
      const found = this.deps.messagesOf
        ? await this.deps.messagesOf(batch)
        : new Map(
            (await Promise.all(batch.map(async (id) => [id, await this.deps.messages(id)] as const))).filter(
              (pair): pair is readonly [string, WireMessage[]] => pair[1] !== undefined,
            ),
          );
      await this.deps.index.put(
        [...found].map(([threadId, messages]) => ({ threadId, text: searchableText(messages) })),
      );
    }
  }
}

/** Calls `onChange` for every change notice of any tab (this worker's own included); a no-op without BroadcastChannel. */
export function listenForThreadChanges(onChange: () => void): void {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(CHANGES_CHANNEL);
  // In Node (tests) an open channel would keep the process alive.
  (channel as { unref?: () => void }).unref?.();
  channel.onmessage = (event: MessageEvent<unknown>) => {
    if (isChangeNotice(event.data) && event.data.type !== "memory-changed" && event.data.type !== "settings-changed") {
      onChange();
    }
  };
}
