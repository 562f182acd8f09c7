// The slash menu's views: the listbox "Commands" under the composer's text box (the box keeps the focus and points at
// the highlighted option with aria-activedescendant), the "Commands" sheet that /help opens, and /clear-memory's
// confirmation.
import { createEffect, For, Show } from "solid-js";
import { t, type TextKey } from "../i18n/index.ts";
import { SLASH_COMMANDS, type SlashCommand, type SlashItem } from "./slash-commands.ts";

/** The id of the listbox, for the text box's aria-controls. */
export const SLASH_MENU_ID = "slash-menu";

/** The id of option `index`, for the text box's aria-activedescendant. */
export function slashOptionId(index: number): string {
  return `slash-option-${index}`;
}

/** Each command's description. */
export const COMMAND_TEXT: Record<SlashCommand, TextKey> = {
  new: "slash.new",
  compact: "slash.compact",
  "clear-memory": "slash.clearMemory",
  help: "slash.help",
};

/**
 * The matching items as options; `active` is highlighted. A pointer highlights (`onActive`) and a click chooses
 * (`onChoose`); a press never takes the focus from the text box.
 */
export function SlashMenuList(props: {
  items: readonly SlashItem[];
  active: number;
  onActive: (index: number) => void;
  onChoose: (item: SlashItem) => void;
}) {
  let list!: HTMLUListElement;
  // The highlighted option stays in view as the arrows move through a long list.
  createEffect(() => {
    const option = list.querySelector(`#${slashOptionId(props.active)}`);
    option?.scrollIntoView({ block: "nearest" });
  });
  return (
    <ul
      ref={list}
      id={SLASH_MENU_ID}
      class="slash-menu"
      role="listbox"
      aria-label={t("slash.menu")}
      onMouseDown={(event) => event.preventDefault()}
    >
      <For each={props.items}>
        {(item, index) => (
          <li
            id={slashOptionId(index())}
            role="option"
            // Reached from the text box's arrows (aria-activedescendant), never a tab stop: focusable only so the
            // scrolling list is known to be reachable by keyboard.
            tabIndex={-1}
            class="slash-option"
            aria-selected={index() === props.active}
            onMouseDown={(event) => event.preventDefault()}
            onMouseMove={() => {
              if (index() !== props.active) props.onActive(index());
            }}
            onClick={() => props.onChoose(item)}
          >
            <span class="slash-name">/{item.name}</span>
            <span class="slash-kind">{t(item.kind === "command" ? "slash.commandTag" : "slash.skillTag")}</span>
            <span class="slash-description">{item.description}</span>
          </li>
        )}
      </For>
    </ul>
  );
}

/** /help: the commands and the enabled skills, in a modal sheet while `open`. */
export function CommandsHelp(props: { open: boolean; skills: readonly SlashItem[]; onClose: () => void }) {
  let dialog!: HTMLDialogElement;
  createEffect(() => {
    if (props.open) {
      if (!dialog.open) dialog.showModal();
    } else if (dialog.open) dialog.close();
  });
  return (
    <dialog ref={dialog} class="sheet commands-help" aria-labelledby="commands-title" onClose={() => props.onClose()}>
      <header>
        <h2 id="commands-title">{t("slash.helpTitle")}</h2>
        <button type="button" class="ghost icon" aria-label={t("slash.helpClose")} onClick={() => props.onClose()}>
          ×
        </button>
      </header>
      <dl class="commands-list">
        <For each={SLASH_COMMANDS}>
          {(command) => (
            <>
              <dt>
                <code>/{command}</code>
              </dt>
              <dd>{t(COMMAND_TEXT[command])}</dd>
            </>
          )}
        </For>
      </dl>
      <Show when={props.skills.length > 0}>
        <h3>{t("slash.skillsHeading")}</h3>
        <dl class="commands-list">
          <For each={props.skills}>
            {(skill) => (
              <>
                <dt>
                  <code>/{skill.name}</code>
                </dt>
                <dd>{skill.description}</dd>
              </>
            )}
          </For>
        </dl>
      </Show>
      <p class="hint">{t("slash.helpHint")}</p>
    </dialog>
  );
}

/** /clear-memory asks first: Clear memory, or Keep memory. */
export function ClearMemoryConfirm(props: { onAnswer: (clear: boolean) => void }) {
  let keep!: HTMLButtonElement;
  // The safe answer takes the focus, so Enter pressed out of habit keeps the memory.
  createEffect(() => keep.focus());
  return (
    <div class="slash-confirm" role="alertdialog" aria-labelledby="slash-confirm-text">
      <p id="slash-confirm-text">{t("slash.clearConfirm")}</p>
      <div class="inline">
        <button type="button" class="danger" onClick={() => props.onAnswer(true)}>
          {t("slash.confirmClear")}
        </button>
        <button ref={keep} type="button" class="ghost" onClick={() => props.onAnswer(false)}>
          {t("slash.keepMemory")}
        </button>
      </div>
    </div>
  );
}
