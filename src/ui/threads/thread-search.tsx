// Thread search in the sidebar: the "Search threads" box and, while it holds a query, the matching threads with the
// passage where their messages match. Escape or "Clear search" goes back to the list; Enter opens the first match,
// the down arrow moves into the results.
import { For, Show } from "solid-js";
import type { TextHighlights, ThreadSearchHit } from "../../protocol/index.ts";
import { keyTarget } from "./thread-list-keys.ts";
import {
  highlightParts,
  searchStatus,
  type ThreadSearchController,
  type ThreadSearchState,
} from "./thread-search-controller.ts";
import { t } from "../i18n/index.ts";

function Highlighted(props: { text: string; highlights: TextHighlights }) {
  return (
    <For each={highlightParts(props.text, props.highlights)}>
      {(part) => (part.mark ? <mark>{part.text}</mark> : part.text)}
    </For>
  );
}

export function ThreadSearchBox(props: {
  search: ThreadSearchController;
  state: ThreadSearchState;
  /** Called when the box first gets focus: the worker can start indexing older threads. */
  onFirstFocus?: () => void;
  /** Enter: the search has answered; open its first match. */
  onOpenFirst: () => void;
  /** Moves focus to the first result. */
  onFocusResults: () => void;
}) {
  let input: HTMLInputElement | undefined;
  let focused = false;
  const clear = () => {
    props.search.setQuery("");
    input?.focus();
  };
  const onKeyDown = async (event: KeyboardEvent) => {
    if (event.key === "Escape" && props.state.query) {
      // Only the search is cleared: on a phone, the thread list stays open.
      event.preventDefault();
      event.stopPropagation();
      clear();
    } else if (event.key === "Enter") {
      event.preventDefault();
      await props.search.searchNow();
      props.onOpenFirst();
    } else if (event.key === "ArrowDown" && props.state.result?.hits.length) {
      event.preventDefault();
      props.onFocusResults();
    }
  };
  return (
    <div class="thread-search" role="search">
      <input
        ref={input}
        type="search"
        aria-label={t("search.box")}
        placeholder={t("search.box")}
        autocomplete="off"
        spellcheck={false}
        value={props.state.query}
        onInput={(event) => props.search.setQuery(event.currentTarget.value)}
        onKeyDown={(event) => void onKeyDown(event)}
        onFocus={() => {
          if (focused) return;
          focused = true;
          props.onFirstFocus?.();
        }}
      />
      <Show when={props.state.query}>
        <button
          type="button"
          class="ghost thread-search-clear"
          aria-label={t("search.clear")}
          title={t("search.clearTitle")}
          onClick={(event) => {
            // Not a choice of thread: the phone's thread list stays open.
            event.stopPropagation();
            clear();
          }}
        >
          ×
        </button>
      </Show>
    </div>
  );
}

export function ThreadSearchResults(props: {
  state: ThreadSearchState;
  currentId: string | undefined;
  onOpen: (threadId: string) => void;
  /** Back to the search box (Escape, or up from the first result). */
  onFocusBox: () => void;
  ref?: (element: HTMLUListElement) => void;
}) {
  const hits = (): ThreadSearchHit[] => props.state.result?.hits ?? [];
  const onKeyDown = (event: KeyboardEvent) => {
    const link = (event.target as HTMLElement).closest<HTMLElement>("a[data-result]");
    if (!link) return;
    const index = Number(link.dataset.result);
    if (event.key === "Escape" || (event.key === "ArrowUp" && index === 0)) {
      event.preventDefault();
      event.stopPropagation();
      props.onFocusBox();
      return;
    }
    const target = keyTarget(event.key, index, hits().length, 5);
    if (target === undefined) return;
    event.preventDefault();
    (event.currentTarget as HTMLElement).querySelector<HTMLElement>(`a[data-result="${target}"]`)?.focus();
  };
  return (
    <div class="thread-scroll">
      <p class="thread-search-status muted" role="status">
        {searchStatus(props.state)}
      </p>
      <ul class="thread-search-results" aria-label={t("search.results")} ref={props.ref} onKeyDown={onKeyDown}>
        <For each={hits()}>
          {(hit, index) => {
            const snippetId = `thread-search-snippet-${hit.thread.thread_id}`;
            return (
              <li>
                <a
                  href={`#/t/${hit.thread.thread_id}`}
                  data-result={index()}
                  aria-describedby={hit.snippet ? snippetId : undefined}
                  aria-current={props.currentId === hit.thread.thread_id ? "page" : undefined}
                  onClick={(event) => {
                    event.preventDefault();
                    props.onOpen(hit.thread.thread_id);
                  }}
                >
                  <span class="thread-search-title">
                    <Highlighted text={hit.thread.title} highlights={hit.title_highlights} />
                  </span>
                </a>
                {/* Beside the link, which it describes: the link's name is the title it shows (WCAG 2.5.3). */}
                <Show when={hit.snippet}>
                  {(snippet) => (
                    <span class="thread-search-snippet" id={snippetId}>
                      <Highlighted text={snippet().text} highlights={snippet().highlights} />
                    </span>
                  )}
                </Show>
              </li>
            );
          }}
        </For>
      </ul>
    </div>
  );
}
