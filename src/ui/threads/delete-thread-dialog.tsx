// Thread actions → Delete asks first, in a dialog whose button "Delete" confirms; Cancel, Escape or a click outside
// keep the thread.
import { createEffect } from "solid-js";
import { t } from "../i18n/index.ts";

/** A modal dialog while `title` is set (the thread asked about); `onClose` says whether Delete was chosen. */
export function DeleteThreadDialog(props: { title: string | undefined; onClose: (confirmed: boolean) => void }) {
  let dialog!: HTMLDialogElement;
  let confirmed = false;
  createEffect(() => {
    if (props.title !== undefined) {
      confirmed = false;
      if (!dialog.open) dialog.showModal();
    } else if (dialog.open) dialog.close();
  });
  const close = (yes: boolean) => {
    confirmed = yes;
    dialog.close();
  };
  return (
    <dialog
      ref={dialog}
      class="sheet confirm-dialog"
      aria-labelledby="delete-thread-title"
      aria-describedby="delete-thread-text"
      onClose={() => props.onClose(confirmed)}
      onClick={(event) => {
        if (event.target === dialog) close(false);
      }}
    >
      <h2 id="delete-thread-title">{t("deleteThread.title")}</h2>
      <p id="delete-thread-text">{t("header.deleteConfirm", { title: props.title ?? "" })}</p>
      <div class="actions">
        <button type="button" class="ghost" autofocus onClick={() => close(false)}>
          {t("deleteThread.cancel")}
        </button>
        <button type="button" class="danger" onClick={() => close(true)}>
          {t("common.delete")}
        </button>
      </div>
    </dialog>
  );
}
