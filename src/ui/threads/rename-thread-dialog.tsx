// Thread actions → Rename asks in Fawn's dialog "Rename thread": textbox "Title" holds the current title, Enter or
// "Save" keeps the new one, Cancel, Escape or a click outside keep the old. An empty or too long title is refused at
// the field (aria-invalid, its message as the field's description), and so is what the Gateway refuses.
import { createEffect, createSignal, Show } from "solid-js";
import { t } from "../i18n/index.ts";

/** The longest title the Gateway keeps (threads-service.ts). */
export const TITLE_MAX_CHARS = 200;

/** The title as the Gateway stores it (runs of white space made one space, ends trimmed), or why it is refused. */
export function checkTitle(text: string): { title: string } | { error: string } {
  const title = text.replace(/\s+/g, " ").trim();
  if (title.length === 0) return { error: t("renameThread.empty") };
  if (title.length > TITLE_MAX_CHARS) return { error: t("renameThread.tooLong", { max: String(TITLE_MAX_CHARS) }) };
  return { title };
}

/**
 * A modal dialog while `title` is set (the thread's current title). `onSave` stores the new title and resolves with
 * an error message when the Gateway refuses it (the dialog then stays open and shows it); `onClose` is called when
 * the dialog closes, saved or not.
 */
export function RenameThreadDialog(props: {
  title: string | undefined;
  onSave: (title: string) => Promise<string | undefined>;
  onClose: () => void;
}) {
  let dialog!: HTMLDialogElement;
  let input!: HTMLInputElement;
  const [error, setError] = createSignal<string | undefined>();
  const [saving, setSaving] = createSignal(false);
  createEffect(() => {
    const current = props.title;
    if (current !== undefined) {
      if (dialog.open) return;
      setError(undefined);
      setSaving(false);
      input.value = current;
      dialog.showModal();
      input.focus();
      input.select();
    } else if (dialog.open) dialog.close();
  });
  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    if (saving()) return;
    const checked = checkTitle(input.value);
    if ("error" in checked) {
      setError(checked.error);
      input.focus();
      return;
    }
    setSaving(true);
    const refused = await props.onSave(checked.title);
    setSaving(false);
    if (refused) {
      setError(refused);
      input.focus();
    } else dialog.close();
  };
  return (
    <dialog
      ref={dialog}
      class="sheet confirm-dialog rename-dialog"
      aria-labelledby="rename-thread-title"
      onClose={() => props.onClose()}
      onClick={(event) => {
        if (event.target === dialog) dialog.close();
      }}
    >
      <form method="dialog" onSubmit={(event) => void save(event)} novalidate>
        <h2 id="rename-thread-title">{t("header.renamePrompt")}</h2>
        <div class="field">
          <label for="rename-thread-input">{t("renameThread.label")}</label>
          <input
            ref={input}
            id="rename-thread-input"
            type="text"
            autocomplete="off"
            enterkeyhint="done"
            aria-invalid={error() ? "true" : undefined}
            aria-describedby={error() ? "rename-thread-error" : undefined}
            onInput={() => setError(undefined)}
          />
          <Show when={error()}>
            {(message) => (
              <p id="rename-thread-error" class="field-error" role="alert">
                {message()}
              </p>
            )}
          </Show>
        </div>
        <div class="actions">
          <button type="button" class="ghost" onClick={() => dialog.close()}>
            {t("common.cancel")}
          </button>
          <button type="submit" class="primary" disabled={saving()}>
            {t("common.save")}
          </button>
        </div>
      </form>
    </dialog>
  );
}
