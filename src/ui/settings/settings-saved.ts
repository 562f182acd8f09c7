// How a Settings form tells the dialog its Save stored the edits (settings-dialog.tsx then has nothing unsaved in
// that tab). Only a Save that stored them says so: a refused one leaves the edits unsaved, and closing still asks.

/** The bubbling event a Settings form sends from itself once its Save has stored what it holds. */
export const SETTINGS_SAVED = "fawn-settings-saved";

/** Tells the dialog around `form` that its edits are stored. */
export function announceSaved(form: Element | null): void {
  form?.dispatchEvent(new Event(SETTINGS_SAVED, { bubbles: true }));
}

declare module "solid-js" {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Solid types custom events in its JSX namespace.
  namespace JSX {
    interface CustomEvents {
      /** SETTINGS_SAVED, listened for with `on:fawn-settings-saved`. */
      "fawn-settings-saved": Event;
    }
  }
}
