// The sidebar's thread search as plain logic: the query waits for a pause in typing before it goes to the worker,
// an answer to an older query never replaces a newer one, and while older threads are still being indexed the
// search runs again until they are done. Also: how a text with marked ranges splits into parts.
import type { TextHighlights, ThreadSearchResult } from "../../protocol/index.ts";
import { formatNumber, t, tn } from "../i18n/index.ts";

export interface ThreadSearchState {
  query: string;
  /** The answer to `query`, or to the query before it while this one is on its way. */
  result?: ThreadSearchResult;
  /** A search for `query` is waiting for a pause in typing or for the worker. */
  pending: boolean;
  error?: string;
}

export interface ThreadSearchOptions {
  search: (query: string) => Promise<ThreadSearchResult>;
  onChange: (state: ThreadSearchState) => void;
  /** How long typing must pause before the query is sent. */
  debounceMs?: number;
  /** How soon a search runs again while older threads are still being indexed. */
  indexingRetryMs?: number;
}

export const SEARCH_DEBOUNCE_MS = 150;
const INDEXING_RETRY_MS = 2000;

export interface ThreadSearchController {
  state(): ThreadSearchState;
  /** The user typed: search after a pause (a blank query clears the search at once). */
  setQuery(query: string): void;
  /** Searches for the current query now, skipping the pause; resolves with its answer. */
  searchNow(): Promise<ThreadSearchResult | undefined>;
  /** Threads changed: search again for the same query, after a pause. */
  refresh(): void;
  dispose(): void;
}

export function isActiveQuery(query: string): boolean {
  return query.trim().length > 0;
}

export function createThreadSearch(options: ThreadSearchOptions): ThreadSearchController {
  const debounceMs = options.debounceMs ?? SEARCH_DEBOUNCE_MS;
  const retryMs = options.indexingRetryMs ?? INDEXING_RETRY_MS;
  let state: ThreadSearchState = { query: "", pending: false };
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Numbers each search sent, so only the latest one's answer is shown. */
  let latest = 0;

  const update = (next: ThreadSearchState) => {
    state = next;
    options.onChange(state);
  };
  const cancelTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };

  async function run(): Promise<ThreadSearchResult | undefined> {
    cancelTimer();
    const query = state.query;
    if (!isActiveQuery(query)) return undefined;
    const ticket = ++latest;
    if (!state.pending) update({ ...state, pending: true });
    try {
      const result = await options.search(query);
      if (ticket !== latest) return undefined;
      update({ query, result, pending: false });
      if (result.indexing) schedule(retryMs);
      return result;
    } catch (error) {
      if (ticket !== latest) return undefined;
      const message = error instanceof Error ? error.message : String(error);
      update({ query, ...(state.result && { result: state.result }), pending: false, error: message });
      return undefined;
    }
  }

  function schedule(delay: number): void {
    cancelTimer();
    timer = setTimeout(() => void run(), delay);
  }

  return {
    state: () => state,
    setQuery(query) {
      if (query === state.query) return;
      if (!isActiveQuery(query)) {
        cancelTimer();
        latest++;
        update({ query, pending: false });
        return;
      }
      update({ query, ...(state.result && { result: state.result }), pending: true });
      schedule(debounceMs);
    },
    searchNow: run,
    refresh() {
      if (isActiveQuery(state.query)) schedule(debounceMs);
    },
    dispose() {
      cancelTimer();
      latest++;
    },
  };
}

/** A text cut into plain and marked parts, in order; overlapping or touching ranges become one mark. */
export function highlightParts(text: string, highlights: TextHighlights): { text: string; mark: boolean }[] {
  const ranges = [...highlights]
    .map(([start, end]): [number, number] => [Math.max(0, start), Math.min(text.length, end)])
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  const parts: { text: string; mark: boolean }[] = [];
  let at = 0;
  for (const [start, end] of merged) {
    if (start > at) parts.push({ text: text.slice(at, start), mark: false });
    parts.push({ text: text.slice(start, end), mark: true });
    at = end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), mark: false });
  return parts;
}

/** What the search says about its results, for a status line read by screen readers. */
export function searchStatus(state: ThreadSearchState): string {
  const { result } = state;
  if (state.error) return t("search.failed", { error: state.error });
  if (!result || (state.pending && result.query !== state.query)) return t("search.searching");
  const indexing = result.indexing ? ` ${t("search.indexing")}` : "";
  if (result.total === 0) return `${t("search.none", { query: result.query.trim() })}${indexing}`;
  const shown =
    result.hits.length < result.total
      ? tn("search.showing", result.total, { shown: formatNumber(result.hits.length) })
      : tn("search.matches", result.total);
  return `${shown}${indexing}`;
}
