// The "Follow-up suggestions" switch (Settings → Appearance), kept in localStorage like the theme: it decides whether
// the page asks for suggestions at all, so turning it off saves the model call too.
import { createSignal } from "solid-js";

/** localStorage key; "off" turns suggestions off, anything else (or nothing) leaves them on. */
export const SUGGESTIONS_KEY = "fawn.followUpSuggestions";

function load(): boolean {
  try {
    return globalThis.localStorage?.getItem(SUGGESTIONS_KEY) !== "off";
  } catch {
    return true;
  }
}

const [enabled, setEnabled] = createSignal(load());

/** Whether follow-up suggestions are asked for after a reply (reactive). */
export const suggestionsEnabled = enabled;

/** Turns follow-up suggestions on or off, for this page and (when storage allows) the next visits. */
export function setSuggestionsEnabled(on: boolean): void {
  setEnabled(on);
  try {
    globalThis.localStorage?.setItem(SUGGESTIONS_KEY, on ? "on" : "off");
  } catch {
    // Private windows may refuse storage; the choice then lasts for this page.
  }
}
