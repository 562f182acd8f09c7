import { describe, expect, it } from "vitest";
import {
  formatCombo,
  isApplePlatform,
  isTextEntry,
  matchShortcut,
  shortcutKeys,
  SHORTCUTS,
  type KeyInput,
  type MatchContext,
} from "./shortcuts.ts";

const press = (key: string, modifiers: Partial<KeyInput> = {}): KeyInput => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...modifiers,
});
const pc: MatchContext = { mac: false, typing: false };
const mac: MatchContext = { mac: true, typing: false };
const typing: MatchContext = { mac: false, typing: true };

describe("matchShortcut", () => {
  it("matches each modifier shortcut with Ctrl on a PC and ⌘ on a Mac", () => {
    expect(matchShortcut(press("O", { ctrlKey: true, shiftKey: true }), pc)).toBe("new-thread");
    expect(matchShortcut(press("l", { ctrlKey: true }), pc)).toBe("focus-composer");
    expect(matchShortcut(press("b", { ctrlKey: true }), pc)).toBe("toggle-sidebar");
    expect(matchShortcut(press(",", { ctrlKey: true }), pc)).toBe("open-settings");
    expect(matchShortcut(press("k", { ctrlKey: true }), pc)).toBe("command-palette");
    expect(matchShortcut(press("k", { metaKey: true }), mac)).toBe("command-palette");
    expect(matchShortcut(press("o", { metaKey: true, shiftKey: true }), mac)).toBe("new-thread");
  });

  it("does not take the other platform's modifier, Alt, or a missing or extra Shift", () => {
    expect(matchShortcut(press("k", { metaKey: true }), pc)).toBeUndefined();
    expect(matchShortcut(press("b", { ctrlKey: true }), mac)).toBeUndefined();
    expect(matchShortcut(press("k", { ctrlKey: true, altKey: true }), pc)).toBeUndefined();
    expect(matchShortcut(press("o", { ctrlKey: true }), pc)).toBeUndefined();
    expect(matchShortcut(press("K", { ctrlKey: true, shiftKey: true }), pc)).toBeUndefined();
    expect(matchShortcut(press("k"), pc)).toBeUndefined();
  });

  it("takes / and ? only when not typing, so they can still be typed", () => {
    expect(matchShortcut(press("/"), pc)).toBe("focus-composer");
    expect(matchShortcut(press("?", { shiftKey: true }), pc)).toBe("shortcuts-help");
    expect(matchShortcut(press("/"), typing)).toBeUndefined();
    expect(matchShortcut(press("?", { shiftKey: true }), typing)).toBeUndefined();
    expect(matchShortcut(press("l", { ctrlKey: true }), typing)).toBe("focus-composer");
  });

  it("matches Escape while typing", () => {
    expect(matchShortcut(press("Escape"), typing)).toBe("stop");
  });

  it("ignores keys an input method is composing", () => {
    expect(matchShortcut(press("Escape", { isComposing: true }), pc)).toBeUndefined();
    expect(matchShortcut(press("Process", { ctrlKey: true, keyCode: 229 }), pc)).toBeUndefined();
    expect(matchShortcut(press("k", { ctrlKey: true, keyCode: 229 }), pc)).toBeUndefined();
  });

  it("finds the letter by its physical key on a non-Latin layout", () => {
    expect(matchShortcut(press("л", { ctrlKey: true, code: "KeyK" }), pc)).toBe("command-palette");
    expect(matchShortcut(press("л", { code: "KeyK" }), pc)).toBeUndefined();
  });
});

describe("showing shortcuts", () => {
  it("writes combos for each platform", () => {
    expect(shortcutKeys("new-thread", false)).toEqual(["Ctrl+Shift+O"]);
    expect(shortcutKeys("new-thread", true)).toEqual(["⌘⇧O"]);
    expect(shortcutKeys("focus-composer", false)).toEqual(["Ctrl+L", "/"]);
    expect(formatCombo({ key: "Escape" }, false)).toBe("Esc");
  });

  it("has one row per action", () => {
    expect(new Set(SHORTCUTS.map((shortcut) => shortcut.action)).size).toBe(SHORTCUTS.length);
  });

  it("knows text fields and Apple systems", () => {
    expect(isTextEntry({ tagName: "TEXTAREA" })).toBe(true);
    expect(isTextEntry({ tagName: "INPUT", type: "text" })).toBe(true);
    expect(isTextEntry({ tagName: "INPUT", type: "radio" })).toBe(false);
    expect(isTextEntry({ tagName: "DIV", isContentEditable: true })).toBe(true);
    expect(isTextEntry({ tagName: "BUTTON" })).toBe(false);
    expect(isTextEntry(null)).toBe(false);
    expect(isApplePlatform("MacIntel")).toBe(true);
    expect(isApplePlatform("Linux x86_64")).toBe(false);
  });
});
