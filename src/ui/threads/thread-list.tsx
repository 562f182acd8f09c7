// The thread list, virtualized: only the rows in view (and a few around them) are in the page, so ten thousand
// threads scroll as smoothly as ten. Rows have one fixed height. Arrow keys, Home and End move between threads.
import { createVirtualizer } from "@tanstack/solid-virtual";
import { createEffect, For, on, Show } from "solid-js";
import type { ThreadSummary } from "../../protocol/index.ts";
import { keyTarget } from "./thread-list.ts";
import { t } from "../i18n/index.ts";

/** A row's height in rem; threads.css gives `.thread-row` the same. */
const ROW_REM = 2.25;

function rowHeight(): number {
  const rootFont = Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 15;
  return Math.round(ROW_REM * rootFont);
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
                    <Show when={thread().pinned}>
                      <span class="pinned-mark" role="img" aria-label={t("threads.pinned")} title={t("threads.pinned")}>
                        ●
                      </span>
                    </Show>
                    <Show when={thread().read_only}>
                      <span
                        class="imported-mark"
                        role="img"
                        aria-label={t("threads.imported")}
                        title={t("threads.imported")}
                      >
                        ↓
                      </span>
                    </Show>
                    <Show when={props.isRunning(thread().thread_id)}>
                      <span
                        class="running-dot"
                        role="img"
                        aria-label={t("threads.running")}
                        title={t("threads.running")}
                      />
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
