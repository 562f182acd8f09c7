// The thread list, virtualized: only the rows in view (and a few around them) are in the page, so ten thousand
// threads scroll as smoothly as ten. Rows have one fixed height. Arrow keys, Home and End move between threads.
// After the title, in words: "Imported" (read-only) or "Copy" (a thread holding another person's messages, which
// "Continue this thread" or a DeerFlow import made); then a pin when pinned and a turning ring while a reply runs.
import { createVirtualizer } from "@tanstack/solid-virtual";
import { createEffect, For, on, Show, type JSX } from "solid-js";
import type { ThreadSummary } from "../../protocol/index.ts";
import { keyTarget } from "./thread-list-keys.ts";
import { t } from "../i18n/index.ts";

/** A row's height in rem; threads.css gives `.thread-row` the same. */
const ROW_REM = 2.25;

function rowHeight(): number {
  const rootFont = Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 15;
  return Math.round(ROW_REM * rootFont);
}

/** A mark on a thread's row: an image named `label`, drawn by `children` at 14 px. */
function ThreadMark(props: { kind: "pin" | "spinner"; class: string; label: string; children: JSX.Element }) {
  return (
    <span
      class={`thread-mark ${props.class}`}
      role="img"
      data-mark={props.kind}
      aria-label={props.label}
      title={props.label}
    >
      <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        {props.children}
      </svg>
    </span>
  );
}

/** A pushpin: the thread is pinned to the top of the list. */
function PinnedMark() {
  return (
    <ThreadMark kind="pin" class="pinned-mark" label={t("threads.pinned")}>
      <path
        d="M10.2 1.6 14.4 5.8 12.9 6.4 10.6 8.7 10.9 11.6 9.9 12.6 6.9 9.6 3 13.5 2.5 13 6.4 9.1 3.4 6.1 4.4 5.1 7.3 5.4 9.6 3.1Z"
        fill="currentColor"
      />
    </ThreadMark>
  );
}

/** A turning ring (a still ring with a gap, under reduced motion): a reply is being written in the thread. */
function RunningMark() {
  return (
    <ThreadMark kind="spinner" class="running-mark" label={t("threads.running")}>
      <circle cx="8" cy="8" r="5.5" fill="none" stroke="currentColor" stroke-opacity="0.25" stroke-width="2.2" />
      <path
        d="M8 2.5a5.5 5.5 0 0 1 5.5 5.5"
        fill="none"
        stroke="currentColor"
        stroke-width="2.2"
        stroke-linecap="round"
      />
    </ThreadMark>
  );
}

export function ThreadList(props: {
  threads: readonly ThreadSummary[];
  currentId: string | undefined;
  isRunning: (threadId: string) => boolean;
  onOpen: (threadId: string) => void;
}) {
  let scroller: HTMLDivElement | undefined;
  const size = rowHeight();
  const virtualizer = createVirtualizer({
    get count() {
      return props.threads.length;
    },
    getScrollElement: () => scroller ?? null,
    estimateSize: () => size,
    overscan: 8,
  });

  /** Focuses a row's link once the virtualizer has rendered it (a scroll lands a frame or two later). */
  const focusRow = (index: number, tries = 8) => {
    const link = scroller?.querySelector<HTMLElement>(`a[data-index="${index}"]`);
    if (link) link.focus();
    else if (tries > 0) requestAnimationFrame(() => focusRow(index, tries - 1));
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const link = (event.target as HTMLElement).closest<HTMLElement>("a[data-index]");
    if (!link || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const pageRows = Math.max(1, Math.floor((scroller?.clientHeight ?? size) / size) - 1);
    const target = keyTarget(event.key, Number(link.dataset.index), props.threads.length, pageRows);
    if (target === undefined) return;
    event.preventDefault();
    virtualizer.scrollToIndex(target, { align: "auto" });
    focusRow(target);
  };

  // The open thread, when opened from elsewhere (search, the palette, the address), is scrolled into view.
  createEffect(
    on(
      () => props.currentId,
      (threadId) => {
        const index = threadId ? props.threads.findIndex((thread) => thread.thread_id === threadId) : -1;
        if (index >= 0) virtualizer.scrollToIndex(index, { align: "auto" });
      },
      { defer: true },
    ),
  );

  return (
    <div class="thread-scroll" ref={scroller}>
      <Show when={props.threads.length > 0} fallback={<p class="muted">{t("threads.none")}</p>}>
        <ul class="thread-rows" style={{ height: `${virtualizer.getTotalSize()}px` }} onKeyDown={onKeyDown}>
          <For each={virtualizer.getVirtualItems()}>
            {(item) => (
              <Show when={props.threads[item.index]}>
                {(thread) => (
                  <li
                    class="thread-row"
                    style={{ transform: `translateY(${item.start}px)`, height: `${item.size}px` }}
                    aria-setsize={props.threads.length}
                    aria-posinset={item.index + 1}
                  >
                    <a
                      href={`#/t/${thread().thread_id}`}
                      data-index={item.index}
                      aria-current={props.currentId === thread().thread_id ? "page" : undefined}
                      onClick={(event) => {
                        event.preventDefault();
                        props.onOpen(thread().thread_id);
                      }}
                    >
                      {thread().title}
                    </a>
                    <Show when={thread().read_only}>
                      <span
                        class="thread-tag"
                        role="img"
                        aria-label={t("threads.imported")}
                        title={t("threads.imported")}
                      >
                        {t("threads.importedTag")}
                      </span>
                    </Show>
                    <Show when={!thread().read_only && thread().foreign}>
                      <span class="thread-tag" role="img" aria-label={t("threads.copy")} title={t("threads.copy")}>
                        {t("threads.copyTag")}
                      </span>
                    </Show>
                    <Show when={thread().pinned}>
                      <PinnedMark />
                    </Show>
                    <Show when={props.isRunning(thread().thread_id)}>
                      <RunningMark />
                    </Show>
                  </li>
                )}
              </Show>
            )}
          </For>
        </ul>
      </Show>
    </div>
  );
}
