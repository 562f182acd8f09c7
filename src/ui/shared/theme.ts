// Light, dark or system theme: the user's choice, kept in localStorage and applied as <html data-theme>.
// base.css does the rest: "system" follows prefers-color-scheme live, with no script involved.
import { createSignal } from "solid-js";

export type ThemeChoice = "light" | "dark" | "system";

/** The choices in the order Settings → Appearance lists them, with their names. */
export const THEME_CHOICES: readonly { value: ThemeChoice; name: string }[] = [
  { value: "light", name: "Light" },
  { value: "dark", name: "Dark" },
  { value: "system", name: "System" },
];

/** localStorage key; index.html's first script reads it too, so the first paint has the right colours. */
export const THEME_KEY = "fawn.theme";

/** A stored value as a choice: anything unknown (or nothing) is "system". */
export function parseTheme(value: string | null | undefined): ThemeChoice {
  return value === "light" || value === "dark" ? value : "system";
}

/** The stored choice; "system" when storage is unavailable (private windows, Node). */
export function loadTheme(storage: Pick<Storage, "getItem"> | undefined = globalThis.localStorage): ThemeChoice {
  try {
    return parseTheme(storage?.getItem(THEME_KEY));
  } catch {
    return "system";
  }
}

/** Sets `data-theme` on `root`, which selects the palette in base.css. */
export function applyTheme(
  choice: ThemeChoice,
  root: { dataset: DOMStringMap } | undefined = globalThis.document?.documentElement,
): void {
  if (root) root.dataset.theme = choice;
}

const [theme, setThemeSignal] = createSignal<ThemeChoice>(loadTheme());

/** The current choice (reactive). */
export { theme };

/** Chooses, applies and stores a theme; storage may refuse (private windows), the choice then lasts for this page. */
export function setTheme(
  choice: ThemeChoice,
  storage: Pick<Storage, "setItem"> | undefined = globalThis.localStorage,
): void {
  setThemeSignal(choice);
  applyTheme(choice);
  try {
    storage?.setItem(THEME_KEY, choice);
  } catch {
    // See above.
  }
}
