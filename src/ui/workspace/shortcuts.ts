// Keyboard shortcuts as a table, and the pure matching of a key event against it (app.tsx performs the actions).
import type { TextKey } from "../i18n/index.ts";

export type ShortcutAction =
  "new-thread" | "focus-composer" | "toggle-sidebar" | "stop" | "open-settings" | "command-palette" | "shortcuts-help";

/** One way to press a shortcut. `mod` is ⌘ on Apple systems and Ctrl elsewhere. */
export interface KeyCombo {
  /** `KeyboardEvent.key`, compared case-insensitively. */
  key: string;
  mod?: boolean;
  shift?: boolean;
  /** Only when focus is not in a text field, where the key would be typed. */
  notTyping?: boolean;
}

export interface Shortcut {
  action: ShortcutAction;
  /** What it does, as the help sheet lists it (a dictionary key). */
  label: TextKey;
  combos: readonly KeyCombo[];
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: "new-thread", label: "common.newThread", combos: [{ key: "o", mod: true, shift: true }] },
  {
    action: "focus-composer",
    label: "common.focusComposer",
    combos: [
      { key: "l", mod: true },
      { key: "/", notTyping: true },
    ],
  },
  { action: "toggle-sidebar", label: "shortcuts.toggleSidebar", combos: [{ key: "b", mod: true }] },
  { action: "stop", label: "common.stopReply", combos: [{ key: "Escape" }] },
  { action: "open-settings", label: "common.openSettings", combos: [{ key: ",", mod: true }] },
  { action: "command-palette", label: "common.commandPalette", combos: [{ key: "k", mod: true }] },
  { action: "shortcuts-help", label: "common.keyboardShortcuts", combos: [{ key: "?", notTyping: true }] },
];

/** What matching reads of a `KeyboardEvent`. */
export interface KeyInput {
  key: string;
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  isComposing?: boolean;
  keyCode?: number;
}

export interface MatchContext {
  /** Apple keyboards: ⌘ is the modifier. */
  mac: boolean;
  /** Focus is in a text field. */
  typing: boolean;
}

function keyMatches(combo: KeyCombo, input: KeyInput): boolean {
  if (input.key.toLowerCase() === combo.key.toLowerCase()) return true;
  // With a non-Latin layout, Ctrl+K gives key "л": the physical key still says which letter was meant.
  return Boolean(combo.mod && /^[a-z]$/.test(combo.key) && input.code === `Key${combo.key.toUpperCase()}`);
}

function comboMatches(combo: KeyCombo, input: KeyInput, context: MatchContext): boolean {
  if (input.altKey || (combo.notTyping && context.typing)) return false;
  const mod = context.mac ? input.metaKey : input.ctrlKey;
  const other = context.mac ? input.ctrlKey : input.metaKey;
  if (other || mod !== Boolean(combo.mod)) return false;
  // Shift matters only with the modifier: "?" is Shift+/ on many layouts, not on others.
  if (combo.mod && input.shiftKey !== Boolean(combo.shift)) return false;
  return keyMatches(combo, input);
}

/**
 * The action `input` asks for, if any. Keys that an input method is composing (Chinese, Japanese…) never match:
 * they belong to the composition.
 */
export function matchShortcut(input: KeyInput, context: MatchContext): ShortcutAction | undefined {
  if (input.isComposing || input.keyCode === 229) return undefined;
  return SHORTCUTS.find((shortcut) => shortcut.combos.some((combo) => comboMatches(combo, input, context)))?.action;
}

/** How a combo is written for the user: "Ctrl+Shift+O", or "⌘⇧O" on Apple systems. */
export function formatCombo(combo: KeyCombo, mac: boolean): string {
  const key = combo.key === "Escape" ? "Esc" : combo.key.length === 1 ? combo.key.toUpperCase() : combo.key;
  const parts = [...(combo.mod ? [mac ? "⌘" : "Ctrl"] : []), ...(combo.shift ? [mac ? "⇧" : "Shift"] : []), key];
  return parts.join(mac ? "" : "+");
}

/** The shortcut's combos as written for the user, e.g. "Ctrl+L" and "/". */
export function shortcutKeys(action: ShortcutAction, mac: boolean): string[] {
  return SHORTCUTS.find((shortcut) => shortcut.action === action)?.combos.map((combo) => formatCombo(combo, mac)) ?? [];
}

/** What matching and showing read of an element: the event's target. */
export interface TargetLike {
  tagName?: string;
  type?: string;
  isContentEditable?: boolean;
}

const NOT_TEXT_INPUTS = new Set(["button", "checkbox", "color", "file", "image", "radio", "range", "reset", "submit"]);

/** Whether keys pressed in `target` type text (so "/" and "?" belong to it). */
export function isTextEntry(target: TargetLike | null | undefined): boolean {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName?.toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  return tag === "INPUT" && !NOT_TEXT_INPUTS.has((target.type ?? "text").toLowerCase());
}

/** Whether this is an Apple system, where ⌘ is the modifier. */
export function isApplePlatform(platform: string): boolean {
  return /Mac|iPhone|iPad|iPod/i.test(platform);
}
