// The sidebar: "Workspace" (once a server is connected), New thread, Import thread, the thread list (pinned first,
// then by recent activity; virtualized) with its search box, and Settings. On a phone it is a drawer over the conversation (app.tsx), which also holds
// "Keyboard shortcuts" and a "Hide threads" button; a click on a control marked `closes-drawer` closes it.
import { createEffect, createSignal, lazy, on, onCleanup, Show, Suspense } from "solid-js";
import { useGateway, useNotices, useOpenThread, useRuns, useThreadList } from "../state/stores.tsx";
import { createThreadSearch, isActiveQuery, type ThreadSearchState } from "./thread-search-controller.ts";
import { ImportThreadButton } from "./import-thread.tsx";
import { ThreadList } from "./thread-list.tsx";
import { ThreadSearchBox, ThreadSearchResults } from "./thread-search.tsx";
import { t } from "../i18n/index.ts";
import { StartStep } from "../shared/start-step.tsx";

// "Workspace" (this browser's or a server's threads): its own chunk, shown once a server is connected.
const WorkspaceSwitcher = lazy(() =>
  import("../workspace/workspace-switcher.tsx").then((module) => ({ default: module.WorkspaceSwitcher })),
);

export function Sidebar(props: {
  onShowShortcuts: () => void;
  /** A thread was imported and opened. */
  onImported: () => void;
  /** "Hide threads" (the phone's drawer). */
  onClose: () => void;
}) {
  const client = useGateway();
  const threadList = useThreadList();
  const open = useOpenThread();
  const runs = useRuns();
  const notices = useNotices();
  const [searchState, setSearchState] = createSignal<ThreadSearchState>({ query: "", pending: false });
  const search = createThreadSearch({
    search: (query) => client.threads.search(query),
    onChange: setSearchState,
  });
  onCleanup(() => search.dispose());
  // Threads changed (a run ended, a rename, another tab): the results are searched again.
  createEffect(on(threadList.threads, () => search.refresh(), { defer: true }));
  const searching = () => isActiveQuery(searchState().query);
  let results: HTMLUListElement | undefined;
  let nav: HTMLElement | undefined;
  const openThread = (threadId: string) => void open.open(threadId);
  // A search result opens its thread at the first message holding the query's words.
  const openFound = (threadId: string) => void open.open(threadId, { find: searchState().query });

  return (
    <aside class="sidebar">
      <div class="brand">
        <img src={`${import.meta.env.BASE_URL}favicon.svg`} alt="" width="24" height="24" />
        <span>Fawn</span>
        <button
          type="button"
          class="ghost icon drawer-close"
          aria-label={t("layout.hideThreads")}
          onClick={() => props.onClose()}
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
      {/* Parts of the app's first render, each in a task of its own (shared/start-steps.ts). */}
      <StartStep>
        <Suspense>
          <WorkspaceSwitcher />
        </Suspense>
      </StartStep>
      <button type="button" class="primary new-thread closes-drawer" onClick={() => void open.newThread()}>
        {t("common.newThread")}
      </button>
      <ImportThreadButton
        client={client}
        onImported={(threadId) => {
          props.onImported();
          void open.open(threadId);
        }}
      />
      <nav aria-label={t("common.threads")} class="thread-list thread-nav" ref={nav}>
        <ThreadSearchBox
          search={search}
          state={searchState()}
          // Starts indexing threads from before search existed, so the first query finds them.
          onFirstFocus={() => void client.threads.search("").catch(() => undefined)}
          // A click, not a call: on a phone, choosing a thread closes the thread list (app.tsx).
          onOpenFirst={() => results?.querySelector<HTMLElement>('a[data-result="0"]')?.click()}
          onFocusResults={() => results?.querySelector<HTMLElement>('a[data-result="0"]')?.focus()}
        />
        <Show
          when={searching()}
          fallback={
            <StartStep>
              <ThreadList
                threads={threadList.threads()}
                currentId={open.thread()?.thread_id}
                isRunning={runs.isRunning}
                onOpen={openThread}
              />
            </StartStep>
          }
        >
          <ThreadSearchResults
            state={searchState()}
            currentId={open.thread()?.thread_id}
            onOpen={openFound}
            onFocusBox={() => nav?.querySelector<HTMLElement>('input[type="search"]')?.focus()}
            ref={(element) => (results = element)}
          />
        </Show>
      </nav>
      <div class="sidebar-footer">
        <button type="button" class="ghost settings-button closes-drawer" onClick={() => notices.setSettingsOpen(true)}>
          {t("sidebar.settings")}
        </button>
        {/* The title bar's "?" on wider screens. */}
        <button
          type="button"
          class="ghost icon shortcuts-button drawer-shortcuts closes-drawer"
          aria-label={t("common.keyboardShortcuts")}
          title={t("header.shortcutsTitle")}
          onClick={() => props.onShowShortcuts()}
        >
          ?
        </button>
      </div>
    </aside>
  );
}
