/* eslint-disable no-control-regex -- a terminal speaks in control characters */
import { describe, expect, it } from "vitest";
import { cellWidth, LineEditor, type LineEditorOutput } from "./line-editor.ts";

/**
 * A screen that follows xterm's rules for what the editor writes: autowrap with a pending wrap at the last column,
 * wide characters that wrap when they do not fit, combining marks joined to the cell before, CR, LF, and
 * CSI A/B/G/H/J/2J/m.
 */
/** The second cell of a wide character. */
const WIDE_TAIL = "\u0000";

class Screen {
  rows: string[][] = [[]];
  x = 0;
  y = 0;

  constructor(readonly columns: number) {}

  write(text: string): void {
    let index = 0;
    while (index < text.length) {
      const csi = /^\x1b\[([0-9;]*)([A-Za-z])/.exec(text.slice(index));
      if (csi) {
        this.#csi(csi[1] ?? "", csi[2] ?? "");
        index += csi[0].length;
        continue;
      }
      const char = String.fromCodePoint(text.codePointAt(index) ?? 0);
      index += char.length;
      if (char === "\r") this.x = 0;
      else if (char === "\n") this.#row(this.y + 1);
      else this.#print(char);
    }
  }

  /** Visible rows, trailing blanks trimmed. */
  lines(): string[] {
    const lines = this.rows.map((row) =>
      Array.from(row, (cell) => this.#show(cell))
        .join("")
        .trimEnd(),
    );
    while (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    return lines;
  }

  /** All rows joined without the cells left blank by wrapping, as the user reads a wrapped line. */
  text(): string {
    return this.rows
      .map((row) => Array.from(row, (cell) => (cell === WIDE_TAIL ? "" : (cell ?? ""))).join(""))
      .join("");
  }

  #show(cell: string | undefined): string {
    if (cell === WIDE_TAIL) return "";
    return cell === undefined || cell === "" ? " " : cell;
  }

  #row(y: number): string[] {
    this.y = y;
    while (this.rows.length <= y) this.rows.push([]);
    return this.rows[y] ?? [];
  }

  #print(char: string): void {
    const width = cellWidth(char.codePointAt(0) ?? 0);
    let row = this.#row(this.y);
    if (width === 0) {
      let previous = Math.min(this.x, this.columns) - 1;
      if (row[previous] === WIDE_TAIL) previous -= 1;
      if (previous >= 0) row[previous] = (row[previous] ?? "") + char;
      return;
    }
    if (this.x + width > this.columns) {
      for (let col = this.x; col < this.columns; col++) row[col] = "";
      this.x = 0;
      row = this.#row(this.y + 1);
    }
    row[this.x] = char;
    if (width === 2) row[this.x + 1] = WIDE_TAIL;
    this.x += width;
  }

  #csi(params: string, final: string): void {
    const n = Number(params || "1");
    switch (final) {
      case "A":
        this.x = Math.min(this.x, this.columns - 1);
        this.y = Math.max(0, this.y - n);
        break;
      case "B":
        this.x = Math.min(this.x, this.columns - 1);
        this.#row(this.y + n);
        break;
      case "G":
        this.x = Math.min(n - 1, this.columns - 1);
        break;
      case "H":
        this.x = 0;
        this.y = 0;
        break;
      case "J":
        if (params === "2") {
          this.rows = this.rows.map(() => []);
        } else {
          this.#row(this.y).splice(Math.min(this.x, this.columns));
          this.rows.splice(this.y + 1);
        }
        break;
      case "m":
        break;
      default:
        throw new Error(`unexpected CSI ${params}${final}`);
    }
  }
}

/** The line's characters as the editor counts them: combining marks belong to the character before. */
function cells(line: string): string[] {
  const result: string[] = [];
  for (const char of line) {
    if (cellWidth(char.codePointAt(0) ?? 0) === 0 && result.length > 0) result[result.length - 1] += char;
    else result.push(char);
  }
  return result;
}

const KEY = {
  enter: "\r",
  backspace: "\x7f",
  delete: "\x1b[3~",
  left: "\x1b[D",
  right: "\x1b[C",
  up: "\x1b[A",
  down: "\x1b[B",
  home: "\x1b[H",
  end: "\x1b[F",
  ctrlA: "\x01",
  ctrlE: "\x05",
  ctrlC: "\x03",
  ctrlK: "\x0b",
  ctrlL: "\x0c",
  ctrlU: "\x15",
  ctrlW: "\x17",
  ctrlLeft: "\x1b[1;5D",
  ctrlRight: "\x1b[1;5C",
  altB: "\x1bb",
  altF: "\x1bf",
} as const;

/** An editor attached to a screen; every output is written to the screen. */
function setup(options: { columns?: number; prompt?: string } = {}) {
  const columns = options.columns ?? 80;
  const prompt = options.prompt ?? "$ ";
  const editor = new LineEditor({ columns });
  const outputs: LineEditorOutput[] = [];
  const apply = (output: LineEditorOutput): LineEditorOutput => {
    harness.screen.write(output.write);
    outputs.push(output);
    return output;
  };
  const harness = {
    editor,
    screen: new Screen(columns),
    outputs,
    prompt: () => apply(editor.prompt(prompt)),
    type: (...keys: string[]): LineEditorOutput[] => keys.map((key) => apply(editor.feed(key))),
    /** Where the cursor should be: where writing the prompt and the line up to the cursor leaves it. */
    expectedCursor: (): { x: number; y: number } => {
      const fresh = new Screen(columns);
      fresh.write(prompt + cells(editor.line).slice(0, editor.cursor).join(""));
      return { x: Math.min(fresh.x, columns), y: fresh.y };
    },
  };
  apply(editor.prompt(prompt));
  return harness;
}

function cursorOf(screen: Screen): { x: number; y: number } {
  return { x: screen.x, y: screen.y };
}

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

describe("LineEditor: history", () => {
  it("recalls submitted lines with Up and comes back with Down", () => {
    const t = setup();
    t.type("ls\r");
    t.prompt();
    t.type("pwd\r");
    t.prompt();
    t.type(KEY.up);
    expect(t.editor.line).toBe("pwd");
    t.type(KEY.up);
    expect(t.editor.line).toBe("ls");
    t.type(KEY.up);
    expect(t.editor.line).toBe("ls");
    t.type(KEY.down);
    expect(t.editor.line).toBe("pwd");
    expect(t.screen.lines().at(-1)).toBe("$ pwd");
    expect(cursorOf(t.screen)).toEqual({ x: 5, y: t.screen.y });
  });

  it("keeps the line being typed and gives it back after the newest entry", () => {
    const t = setup();
    t.type("ls\r");
    t.prompt();
    t.type("echo draft", KEY.up);
    expect(t.editor.line).toBe("ls");
    t.type(KEY.down);
    expect(t.editor.line).toBe("echo draft");
    t.type(KEY.down);
    expect(t.editor.line).toBe("echo draft");
    expect(t.screen.lines().at(-1)).toBe("$ echo draft");
  });

  it("does not record a line equal to the previous entry, nor blank lines", () => {
    const t = setup();
    for (const line of ["ls", "ls", "pwd", "ls", "   "]) {
      t.type(line + "\r");
      if (t.editor.busy) t.prompt();
    }
    expect(t.editor.history).toEqual(["ls", "pwd", "ls"]);
  });

  it("keeps at most maxHistory entries, dropping the oldest", () => {
    const editor = new LineEditor({ maxHistory: 2 });
    for (const line of ["a", "b", "c"]) {
      editor.prompt("$ ");
      editor.feed(line + "\r");
    }
    expect(editor.history).toEqual(["b", "c"]);
  });

  it("redraws a shorter recalled line over a longer one, also when wrapped", () => {
    const t = setup({ columns: 10 });
    t.type("x\r");
    t.prompt();
    t.type("a very long line that wraps", KEY.up);
    expect(t.screen.lines().slice(-1)).toEqual(["$ x"]);
    expect(cursorOf(t.screen)).toEqual({ x: 3, y: t.screen.y });
  });
});

describe("LineEditor: Enter, Ctrl+C, Ctrl+L", () => {
  it("submits the line on Enter, moving to a new row, and is busy until the next prompt", () => {
    const t = setup();
    const [output] = t.type(..."echo hi", KEY.home, KEY.enter).slice(-1);
    expect(output?.submit).toBe("echo hi");
    expect(t.editor.busy).toBe(true);
    expect(cursorOf(t.screen)).toEqual({ x: 0, y: 1 });
    t.screen.write("hi\r\n");
    t.prompt();
    expect(t.editor.busy).toBe(false);
    expect(t.screen.lines()).toEqual(["$ echo hi", "hi", "$"]);
  });

  it("prompts again on a blank line without submitting", () => {
    const t = setup();
    const [output] = t.type("  \r");
    expect(output?.submit).toBeUndefined();
    expect(t.editor.busy).toBe(false);
    expect(t.screen.lines()).toEqual(["$", "$"]);
  });

  it("accepts LF and CRLF as Enter", () => {
    const t = setup();
    expect(t.type("a\n")[0]?.submit).toBe("a");
    t.prompt();
    expect(t.type("b\r\n")[0]?.submit).toBe("b");
    t.prompt();
    expect(t.editor.busy).toBe(false);
    expect(t.editor.line).toBe("");
  });

  it("runs a pasted multi-line text line by line, holding the rest until the next prompt", () => {
    const t = setup();
    const [first] = t.type("echo one\recho two\rpartial");
    expect(first?.submit).toBe("echo one");
    const second = t.prompt();
    expect(second.submit).toBe("echo two");
    const third = t.prompt();
    expect(third.submit).toBeUndefined();
    expect(t.editor.line).toBe("partial");
  });

  it("keeps what is typed while busy and shows it at the next prompt", () => {
    const t = setup();
    t.type("sleep 1\r");
    const [queued] = t.type(..."ls");
    expect(queued?.write).toBe("");
    t.prompt();
    expect(t.editor.line).toBe("ls");
    expect(t.screen.lines().at(-1)).toBe("$ ls");
  });

  it("abandons the line on Ctrl+C while reading: prints ^C and a new prompt", () => {
    const t = setup();
    const [output] = t.type("half typed", KEY.home, KEY.ctrlC);
    expect(output?.interrupt).toBeUndefined();
    expect(output?.submit).toBeUndefined();
    expect(t.editor.line).toBe("");
    expect(t.editor.history).toEqual([]);
    expect(t.screen.lines()).toEqual(["$ half typed^C", "$"]);
  });

  it("asks for an interrupt on Ctrl+C while busy and drops the type-ahead before it", () => {
    const t = setup();
    t.type("while true; do :; done\r", "typed ahead");
    const [output] = t.type(KEY.ctrlC);
    expect(output?.interrupt).toBe(true);
    expect(output?.write).toBe("^C\r\n");
    t.prompt();
    expect(t.editor.line).toBe("");
  });

  it("clears the screen on Ctrl+L and redraws the prompt and the line, cursor kept", () => {
    const t = setup();
    t.type("ls\r");
    t.screen.write("a.txt\r\n");
    t.prompt();
    t.type("cat a.txt", KEY.left, KEY.left, KEY.ctrlL);
    expect(t.screen.lines()).toEqual(["$ cat a.txt"]);
    expect(cursorOf(t.screen)).toEqual({ x: 9, y: 0 });
    expect(t.editor.line).toBe("cat a.txt");
  });

  it("measures a coloured prompt without its colour codes", () => {
    const t = setup({ columns: 12, prompt: "\x1b[1;34m/w\x1b[0m $ " });
    t.type("abcdefghij");
    expect(t.screen.lines()).toEqual(["/w $ abcdefg", "hij"]);
    t.type(KEY.home);
    expect(cursorOf(t.screen)).toEqual({ x: 5, y: 0 });
  });

  it("queues input that arrives before the first prompt", () => {
    const editor = new LineEditor();
    expect(editor.busy).toBe(true);
    expect(editor.feed("ls").write).toBe("");
    expect(editor.prompt("$ ").write).toBe("$ ls");
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
