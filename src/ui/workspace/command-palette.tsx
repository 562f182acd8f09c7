// The command palette: a search box over the app's commands and the threads' titles; arrows move, Enter runs,
// Escape closes.
import { createEffect, createMemo, createSignal, For, Show } from "solid-js";
import type { ThreadSummary } from "../../protocol/index.ts";
import { t } from "../i18n/index.ts";

export interface PaletteCommand {
  id: string;
  label: string;
  /** The shortcut, as shown beside it (e.g. "Ctrl+K"). */
  keys?: string | undefined;
  run: () => void;
}

interface PaletteItem {
  id: string;
  label: string;
  keys?: string | undefined;
  run: () => void;
}

/** Threads listed when nothing is typed, and at most when something is: the list stays short with 10,000 threads. */
const RECENT_THREADS = 8;
const MATCHING_THREADS = 30;

/** Every word of `query` occurs in `label`, ignoring case. */
function matches(label: string, words: readonly string[]): boolean {
  const text = label.toLowerCase();
  return words.every((word) => text.includes(word));
}

export function CommandPalette(props: {
  open: boolean;
  onClose: () => void;
  commands: readonly PaletteCommand[];
  threads: readonly ThreadSummary[];
  onOpenThread: (threadId: string) => void;
}) {
  let dialog!: HTMLDialogElement;
  let input!: HTMLInputElement;
  const [query, setQuery] = createSignal("");
  const [active, setActive] = createSignal(0);

  createEffect(() => {
    if (props.open) {
      setQuery("");
      setActive(0);
      if (!dialog.open) dialog.showModal();
      input.focus();
    } else if (dialog.open) dialog.close();
  });

  const words = () => query().toLowerCase().split(/\s+/).filter(Boolean);
  const commands = createMemo((): PaletteItem[] =>
    props.commands
      .filter((command) => matches(command.label, words()))
      .map((command) => ({ ...command, id: `palette-command-${command.id}` })),
  );
  const threads = createMemo((): PaletteItem[] => {
    const found: PaletteItem[] = [];
    const limit = words().length > 0 ? MATCHING_THREADS : RECENT_THREADS;
    for (const thread of props.threads) {
      if (found.length >= limit) break;
      if (!matches(thread.title, words())) continue;
      found.push({
        id: `palette-thread-${thread.thread_id}`,
        label: thread.title,
        run: () => props.onOpenThread(thread.thread_id),
      });
    }
    return found;
  });
  const items = () => [...commands(), ...threads()];
  const activeItem = () => items()[Math.min(active(), items().length - 1)];

  const choose = (item: PaletteItem | undefined) => {
    if (!item) return;
    // Close first: the dialog gives focus back to where it was, and the command may move it (or open a dialog).
    dialog.close();
    props.onClose();
    item.run();
  };

  const move = (by: number) => {
    const count = items().length;
    if (count === 0) return;
    setActive((Math.min(active(), count - 1) + by + count) % count);
    document.getElementById(activeItem()?.id ?? "")?.scrollIntoView({ block: "nearest" });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.isComposing || event.keyCode === 229) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      move(event.key === "ArrowDown" ? 1 : -1);
    } else if (event.key === "Enter") {
      event.preventDefault();
      choose(activeItem());
    }
  };

  const Option = (optionProps: { item: PaletteItem; index: number }) => (
    <li
      id={optionProps.item.id}
      role="option"
      class="palette-option"
      aria-selected={activeItem()?.id === optionProps.item.id}
      onMouseMove={() => setActive(optionProps.index)}
      // Keep focus in the search box; the click chooses.
      onMouseDown={(event) => event.preventDefault()}
      onClick={() => choose(optionProps.item)}
    >
      <span class="palette-label">{optionProps.item.label}</span>
      <Show when={optionProps.item.keys}>
        <kbd aria-hidden="true">{optionProps.item.keys}</kbd>
      </Show>
    </li>
  );

  return (
    <dialog
      ref={dialog}
      class="sheet command-palette"
      aria-label={t("common.commandPalette")}
      onClose={() => props.onClose()}
      // A click on the backdrop (outside the box) closes.
      onClick={(event) => {
        if (event.target === dialog) dialog.close();
      }}
    >
      <div class="palette-box">
        <input
          ref={input}
          type="text"
          role="combobox"
          class="palette-search"
          aria-label={t("palette.search")}
          aria-expanded="true"
          aria-controls="palette-results"
          aria-autocomplete="list"
          aria-activedescendant={activeItem()?.id}
          autocomplete="off"
          spellcheck={false}
          placeholder={t("palette.searchPlaceholder")}
          value={query()}
          onInput={(event) => {
            setQuery(event.currentTarget.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <div id="palette-results" role="listbox" aria-label={t("palette.results")} class="palette-results">
          <Show when={commands().length > 0}>
            <ul role="group" aria-labelledby="palette-commands-heading">
              <li role="presentation" id="palette-commands-heading" class="palette-heading">
                {t("palette.commands")}
              </li>
              <For each={commands()}>{(item, index) => <Option item={item} index={index()} />}</For>
            </ul>
          </Show>
          <Show when={threads().length > 0}>
            <ul role="group" aria-labelledby="palette-threads-heading">
              <li role="presentation" id="palette-threads-heading" class="palette-heading">
                {t("common.threads")}
              </li>
              <For each={threads()}>{(item, index) => <Option item={item} index={commands().length + index()} />}</For>
            </ul>
          </Show>
        </div>
        <Show when={items().length === 0}>
          <p class="palette-empty muted">{t("palette.nothing", { query: query() })}</p>
        </Show>
      </div>
    </dialog>
  );
}
