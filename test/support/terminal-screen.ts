/* eslint-disable no-control-regex -- a terminal speaks in control characters */
// The line editor's test bench: a screen that follows xterm's rules, the keys a terminal sends, and an editor wired to
// a screen (src/ui/terminal/line-editor.ts; its tests are line-editor.test.ts and line-editor-history.test.ts).
import { cellWidth, LineEditor, type LineEditorOutput } from "../../src/ui/terminal/line-editor.ts";

/**
 * A screen that follows xterm's rules for what the editor writes: autowrap with a pending wrap at the last column,
 * wide characters that wrap when they do not fit, combining marks joined to the cell before, CR, LF, and
 * CSI A/B/G/H/J/2J/m.
 */
/** The second cell of a wide character. */
const WIDE_TAIL = "\u0000";

export class Screen {
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
export function cells(line: string): string[] {
  const result: string[] = [];
  for (const char of line) {
    if (cellWidth(char.codePointAt(0) ?? 0) === 0 && result.length > 0) result[result.length - 1] += char;
    else result.push(char);
  }
  return result;
}

export const KEY = {
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
export function setupEditor(options: { columns?: number; prompt?: string } = {}) {
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

export function cursorOf(screen: Screen): { x: number; y: number } {
  return { x: screen.x, y: screen.y };
}
