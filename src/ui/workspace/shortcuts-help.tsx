// The "Keyboard shortcuts" sheet: every row of the shortcuts table (shortcuts.ts) with its keys for this platform.
import { createEffect, For } from "solid-js";
import { t } from "../i18n/index.ts";
import { formatCombo, SHORTCUTS } from "./shortcuts.ts";

/** A modal dialog while `open`; closing it (Escape, the close button) calls `onClose`. */
export function ShortcutsHelp(props: { open: boolean; mac: boolean; onClose: () => void }) {
  let dialog!: HTMLDialogElement;
  createEffect(() => {
    if (props.open) {
      if (!dialog.open) dialog.showModal();
    } else if (dialog.open) dialog.close();
  });
  return (
    <dialog ref={dialog} class="sheet shortcuts-help" aria-labelledby="shortcuts-title" onClose={() => props.onClose()}>
      <header>
        <h2 id="shortcuts-title">{t("common.keyboardShortcuts")}</h2>
        <button type="button" class="ghost icon" aria-label={t("shortcuts.close")} onClick={() => props.onClose()}>
          ×
        </button>
      </header>
      <table class="shortcut-table">
        <thead>
          <tr>
            <th scope="col">{t("shortcuts.action")}</th>
            <th scope="col">{t("shortcuts.keys")}</th>
          </tr>
        </thead>
        <tbody>
          <For each={SHORTCUTS}>
            {(shortcut) => (
              <tr>
                <th scope="row">{t(shortcut.label)}</th>
                <td>
                  <For each={shortcut.combos}>
                    {(combo, index) => (
                      <>
                        {index() > 0 && <span class="shortcut-or">{t("shortcuts.or")}</span>}
                        <kbd>{formatCombo(combo, props.mac)}</kbd>
                      </>
                    )}
                  </For>
                </td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <p class="hint">{t("shortcuts.hint")}</p>
    </dialog>
  );
}
