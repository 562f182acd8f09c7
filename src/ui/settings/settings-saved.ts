// How a Settings form tells the dialog how its Save ended (settings-dialog.tsx): stored, and the tab has nothing
// unsaved; or refused, and the edits stay unsaved, so closing still asks. Every Save a form starts ends in one of
// the two, so a close asked for while a Save is under way can wait for its outcome.

/** The bubbling event a Settings form sends from itself when its Save ends; `detail.stored` says how. */
export const SETTINGS_SAVE_END = "fawn-settings-save-end";

/** What SETTINGS_SAVE_END carries. */
export interface SaveEnd {
  stored: boolean;
}

/** Tells the dialog around `form` that its edits are stored. */
export function announceSaved(form: Element | null): void {
  form?.dispatchEvent(new CustomEvent<SaveEnd>(SETTINGS_SAVE_END, { bubbles: true, detail: { stored: true } }));
}

/** Tells the dialog around `form` that its Save was refused: the edits are not stored. */
export function announceRefused(form: Element | null): void {
  form?.dispatchEvent(new CustomEvent<SaveEnd>(SETTINGS_SAVE_END, { bubbles: true, detail: { stored: false } }));
}

declare module "solid-js" {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Solid types custom events in its JSX namespace.
  namespace JSX {
    interface CustomEvents {
      /** SETTINGS_SAVE_END, listened for with `on:fawn-settings-save-end`. */
      "fawn-settings-save-end": CustomEvent<SaveEnd>;
    }
  }
}
