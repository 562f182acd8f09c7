// The line editor as a terminal shows it: typing and editing keys, long lines that wrap, and cell widths.
import { describe, expect, it } from "vitest";
import { cellWidth } from "./line-editor.ts";
import { cursorOf, KEY, Screen, setupEditor as setup } from "../../../test/support/terminal-screen.ts";

describe("LineEditor: typing and editing", () => {
  it("echoes typed characters after the prompt", () => {
    const t = setup();
    t.type(..."echo hi");
    expect(t.screen.lines()).toEqual(["$ echo hi"]);
    expect(t.editor.line).toBe("echo hi");
    expect(cursorOf(t.screen)).toEqual({ x: 9, y: 0 });
  });

  it("writes only the character when typing at the end of the line", () => {
    const t = setup();
    const [output] = t.type("a");
    expect(output?.write).toBe("a");
  });

  it("inserts a pasted multi-character string at the cursor in one piece", () => {
    const t = setup();
    t.type("echo ", "!", KEY.left);
    t.type("hello world");
    expect(t.editor.line).toBe("echo hello world!");
    expect(t.screen.lines()).toEqual(["$ echo hello world!"]);
    expect(cursorOf(t.screen)).toEqual(t.expectedCursor());
  });

  it("takes non-ASCII text: accents, CJK (two cells each) and emoji", () => {
    const t = setup();
    t.type("café 你好 🙂");
    expect(t.editor.line).toBe("café 你好 🙂");
    expect(t.screen.lines()).toEqual(["$ café 你好 🙂"]);
    t.type(KEY.left, KEY.left, KEY.left);
    expect(t.editor.cursor).toBe(6);
    expect(cursorOf(t.screen)).toEqual({ x: 2 + 5 + 2, y: 0 });
    t.type(KEY.backspace);
    expect(t.editor.line).toBe("café 好 🙂");
    expect(t.screen.lines()).toEqual(["$ café 好 🙂"]);
  });

  it("joins a combining accent to the character before it", () => {
    const t = setup();
    t.type("e\u0301a");
    expect(t.editor.line).toBe("e\u0301a");
    t.type(KEY.left, KEY.left);
    expect(t.editor.cursor).toBe(0);
    t.type(KEY.right, "\u0300");
    expect(t.editor.line).toBe("e\u0301\u0300a");
    expect(t.screen.lines()).toEqual(["$ e\u0301\u0300a"]);
  });

  it("deletes before the cursor with Backspace and under it with Delete", () => {
    const t = setup();
    t.type(..."abcd", KEY.left, KEY.left, KEY.backspace);
    expect(t.editor.line).toBe("acd");
    t.type(KEY.delete);
    expect(t.editor.line).toBe("ad");
    expect(t.screen.lines()).toEqual(["$ ad"]);
    expect(cursorOf(t.screen)).toEqual({ x: 3, y: 0 });
  });

  it("ignores Backspace at the start and Delete at the end", () => {
    const t = setup();
    t.type("ab");
    const [atEnd] = t.type(KEY.delete);
    t.type(KEY.home);
    const [atStart] = t.type(KEY.backspace);
    expect(atEnd?.write).toBe("");
    expect(atStart?.write).toBe("");
    expect(t.editor.line).toBe("ab");
  });

  it("moves with Left/Right within the line, not past its ends", () => {
    const t = setup();
    t.type("ab", KEY.right, KEY.left, KEY.left, KEY.left, KEY.left);
    expect(t.editor.cursor).toBe(0);
    expect(cursorOf(t.screen)).toEqual({ x: 2, y: 0 });
    t.type(KEY.right);
    expect(t.editor.cursor).toBe(1);
    expect(cursorOf(t.screen)).toEqual({ x: 3, y: 0 });
  });

  it("jumps with Home/End and Ctrl+A/Ctrl+E", () => {
    const t = setup();
    t.type("hello", KEY.home);
    expect(t.editor.cursor).toBe(0);
    t.type(KEY.end);
    expect(t.editor.cursor).toBe(5);
    t.type(KEY.ctrlA, "X");
    expect(t.editor.line).toBe("Xhello");
    t.type(KEY.ctrlE, "Y");
    expect(t.editor.line).toBe("XhelloY");
    for (const home of ["\x1b[1~", "\x1b[7~", "\x1bOH"]) {
      t.type(KEY.end, home);
      expect(t.editor.cursor).toBe(0);
    }
    for (const end of ["\x1b[4~", "\x1b[8~", "\x1bOF"]) {
      t.type(KEY.home, end);
      expect(t.editor.cursor).toBe(7);
    }
    expect(t.screen.lines()).toEqual(["$ XhelloY"]);
  });

  it("moves by word with Ctrl+Left/Right and Alt+B/F, and kills a word with Ctrl+W", () => {
    const t = setup();
    t.type("cat /mnt/user-data/outputs");
    t.type(KEY.ctrlLeft);
    expect(t.editor.cursor).toBe("cat /mnt/user-data/".length);
    t.type(KEY.altB, KEY.altB);
    expect(t.editor.cursor).toBe("cat /mnt/".length);
    t.type(KEY.ctrlRight);
    expect(t.editor.cursor).toBe("cat /mnt/user".length);
    t.type(KEY.altF, KEY.end, KEY.ctrlW);
    expect(t.editor.line).toBe("cat /mnt/user-data/");
    expect(t.screen.lines()).toEqual(["$ cat /mnt/user-data/"]);
  });

  it("kills to the start with Ctrl+U (as bash) and to the end with Ctrl+K", () => {
    const t = setup();
    t.type("rm -rf build", KEY.ctrlU);
    expect(t.editor.line).toBe("");
    expect(t.screen.lines()).toEqual(["$"]);
    t.type("ls -la", KEY.left, KEY.left, KEY.left, KEY.ctrlU);
    expect(t.editor.line).toBe("-la");
    expect(t.editor.cursor).toBe(0);
    t.type(KEY.right, KEY.ctrlK);
    expect(t.editor.line).toBe("-");
    expect(t.screen.lines()).toEqual(["$ -"]);
  });

  it("ignores Tab, unknown control keys, function keys and a lone Escape", () => {
    const t = setup();
    t.type("a", "\t", "\x07", "\x1b", "\x1bOP", "\x1b[15~", "\x1b[5~", "\x1b[Z", "\x1bx", "b");
    expect(t.editor.line).toBe("ab");
    expect(t.screen.lines()).toEqual(["$ ab"]);
  });

  it("treats arrows in application cursor mode (SS3) like the normal ones", () => {
    const t = setup();
    t.type("ab", "\x1bOD", "X", "\x1bOC", "Y");
    expect(t.editor.line).toBe("aXbY");
  });

  it("drops bracketed-paste marks and keeps the pasted text", () => {
    const t = setup();
    t.type("\x1b[200~echo pasted\x1b[201~");
    expect(t.editor.line).toBe("echo pasted");
  });
});

describe("LineEditor: long lines wrap as the terminal wraps them", () => {
  it("keeps the screen and the cursor right across wrapped rows", () => {
    const t = setup({ columns: 10 });
    t.type("0123456789abcdefghij");
    expect(t.screen.lines()).toEqual(["$ 01234567", "89abcdefgh", "ij"]);
    t.type(KEY.home);
    expect(cursorOf(t.screen)).toEqual({ x: 2, y: 0 });
    t.type("X");
    expect(t.screen.lines()).toEqual(["$ X0123456", "789abcdefg", "hij"]);
    t.type(KEY.end, KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace);
    expect(t.screen.lines()).toEqual(["$ X0123456", "789abcdef"]);
    expect(cursorOf(t.screen)).toEqual({ x: 9, y: 1 });
  });

  it("handles a line that ends exactly at the last column (pending wrap)", () => {
    const t = setup({ columns: 10 });
    t.type("01234567");
    expect(cursorOf(t.screen)).toEqual({ x: 10, y: 0 });
    t.type(KEY.left, KEY.right);
    expect(cursorOf(t.screen)).toEqual({ x: 10, y: 0 });
    t.type("8");
    expect(t.screen.lines()).toEqual(["$ 01234567", "8"]);
    t.type(KEY.backspace);
    expect(t.screen.lines()).toEqual(["$ 01234567"]);
    t.type(KEY.home, KEY.delete);
    expect(t.screen.lines()).toEqual(["$ 1234567"]);
  });

  it("wraps a wide character that does not fit in the last cell, as xterm does", () => {
    const t = setup({ columns: 7 });
    t.type("abcd你好");
    expect(t.screen.lines()).toEqual(["$ abcd", "你好"]);
    t.type(KEY.left, KEY.left);
    expect(cursorOf(t.screen)).toEqual(t.expectedCursor());
    t.type(KEY.backspace);
    expect(t.screen.lines()).toEqual(["$ abc你", "好"]);
    expect(cursorOf(t.screen)).toEqual(t.expectedCursor());
  });

  it("survives a long random editing session on a narrow terminal", () => {
    const keys = [
      ..."ab你é ",
      "\u0301",
      "xyz",
      "中文字",
      KEY.backspace,
      KEY.delete,
      KEY.left,
      KEY.right,
      KEY.home,
      KEY.end,
      KEY.ctrlW,
      KEY.ctrlK,
      KEY.ctrlLeft,
      KEY.ctrlRight,
    ];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (const columns of [5, 6, 11]) {
      const t = setup({ columns });
      for (let step = 0; step < 400; step++) {
        t.type(keys[Math.floor(random() * keys.length)] ?? "");
        expect(t.screen.text().replace(/\s+$/, "")).toBe(("$ " + t.editor.line).replace(/\s+$/, ""));
        expect(cursorOf(t.screen)).toEqual(t.expectedCursor());
      }
    }
  });

  it("follows a resize: later edits use the new width", () => {
    const t = setup({ columns: 80 });
    t.type("0123456789");
    t.editor.resize(6);
    t.screen = new Screen(6);
    t.screen.write("$ 0123456789");
    t.type(KEY.home);
    expect(cursorOf(t.screen)).toEqual({ x: 2, y: 0 });
  });
});

describe("cellWidth", () => {
  it("follows xterm's Unicode 6 widths", () => {
    const width = (char: string) => cellWidth(char.codePointAt(0) ?? 0);
    expect(["a", "é", "—", "🙂"].map(width)).toEqual([1, 1, 1, 1]);
    expect(["你", "한", "Ａ", "\u{20000}"].map(width)).toEqual([2, 2, 2, 2]);
    expect(["\u0301", "\u200d", "\x07", "\x9b"].map(width)).toEqual([0, 0, 0, 0]);
  });
});
