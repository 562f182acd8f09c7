// The composer's paperclip (a phone shows it in place of "Attach"), as data: also drawn by the prerendered first
// screen (scripts/vite-plugin-first-screen.ts), so this file imports nothing.

/** The paperclip's path in a 24×24 box, stroked 1.8 wide with round caps. */
export const ATTACH_ICON_PATH = "M16.5 6.5v10a4.5 4.5 0 0 1-9 0V5a3 3 0 0 1 6 0v10.5a1.5 1.5 0 0 1-3 0V6.5";
