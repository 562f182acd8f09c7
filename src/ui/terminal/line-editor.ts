// A readline-like line editor for xterm: consumes `onData` strings, returns the text to write back and what was asked.
// Pure (no DOM, no xterm): the terminal panel owns the terminal and runs the commands. xterm-readline was considered;
// it keeps one history for every terminal in localStorage and drops the draft on Up, so Fawn keeps this small one.

/** What one call of {@link LineEditor.feed} or {@link LineEditor.prompt} produced. */
export interface LineEditorOutput {
  /** Text for `terminal.write`, escape sequences included; may be empty. */
  write: string;
  /** Enter submitted this (non-blank) line: the editor is busy until the next {@link LineEditor.prompt}. */
  submit?: string;
  /** Ctrl+C while busy: the caller should cancel the running command. */
  interrupt?: boolean;
}

export interface LineEditorOptions {
  /** The terminal's width in cells; keep it current with {@link LineEditor.resize}. Default 80. */
  columns?: number;
  /** How many submitted lines Up can recall. Default 500. */
  maxHistory?: number;
}

interface CellPosition {
  row: number;
  /** Equals the terminal width when the cursor waits at the end of a full row (xterm's pending wrap). */
  col: number;
}

const ESC = "\x1b";
const CSI = `${ESC}[`;
/** A CSI sequence: parameter bytes, intermediate bytes, one final byte (ECMA-48 §5.4). */
// eslint-disable-next-line no-control-regex -- escape sequences start with a control character
const CSI_SEQUENCE = /^\x1b\[([0-?]*)[ -/]*([@-~])/;
// eslint-disable-next-line no-control-regex -- as above
const SGR_SEQUENCE = /\x1b\[[0-9;]*m/g;

/** Combining marks and the format characters xterm's Unicode 6 table also gives no cell. */
const ZERO_WIDTH =
  /[\p{Mn}\p{Me}\u0600-\u0603\u070f\u1160-\u11ff\u200b-\u200f\u202a-\u202e\u2060-\u2063\u206a-\u206f\ufeff\ufff9-\ufffb]/u;

function isControl(codePoint: number): boolean {
  return codePoint < 32 || (codePoint >= 0x7f && codePoint < 0xa0);
}

/**
 * Cells a code point takes in xterm with its default Unicode 6 tables (`UnicodeV6`): 0 for controls and combining
 * marks, 2 for East Asian wide and fullwidth, else 1. Mirrors xterm so the cursor lands where xterm draws.
 */
export function cellWidth(codePoint: number): 0 | 1 | 2 {
  if (isControl(codePoint)) return 0;
  if (codePoint < 0x300) return 1;
  const char = String.fromCodePoint(codePoint);
  if (ZERO_WIDTH.test(char)) return 0;
  if (
    (codePoint >= 0x1100 && codePoint < 0x1160) ||
    codePoint === 0x2329 ||
    codePoint === 0x232a ||
    (codePoint >= 0x2e80 && codePoint < 0xa4d0 && codePoint !== 0x303f) ||
    (codePoint >= 0xac00 && codePoint < 0xd7a4) ||
    (codePoint >= 0xf900 && codePoint < 0xfb00) ||
    (codePoint >= 0xfe10 && codePoint < 0xfe1a) ||
    (codePoint >= 0xfe30 && codePoint < 0xfe70) ||
    (codePoint >= 0xff00 && codePoint < 0xff61) ||
    (codePoint >= 0xffe0 && codePoint < 0xffe7) ||
    (codePoint >= 0x20000 && codePoint <= 0x2fffd) ||
    (codePoint >= 0x30000 && codePoint <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

/** The width of a unit: its first code point's (the rest are zero-width marks joined to it). */
function unitWidth(unit: string): number {
  return cellWidth(unit.codePointAt(0) ?? 0);
}

/** Splits text into cells as xterm joins them: a printable code point with the zero-width marks after it. */
function toUnits(text: string): string[] {
  const units: string[] = [];
  for (const char of text) {
    const width = cellWidth(char.codePointAt(0) ?? 0);
    if (width > 0) units.push(char);
    else if (units.length > 0 && !isControl(char.codePointAt(0) ?? 0)) units[units.length - 1] += char;
  }
  return units;
}

function isWordUnit(unit: string | undefined): boolean {
  return unit !== undefined && /[\p{L}\p{N}_]/u.test(unit);
}

/**
 * One terminal's input line: prompt, editing keys, history and type-ahead. Lines are one row of shell input;
 * Enter submits (a multi-line paste runs line by line). Keys: printable text, Backspace, Delete, Left/Right,
 * Home/End, Ctrl+A/E, Up/Down (history, keeping the draft), Ctrl+U (kill to start, as bash), Ctrl+K (kill to
 * end), Ctrl+W and Alt+Backspace (kill word), Alt+B/F and Ctrl+Left/Right (word moves), Ctrl+C, Ctrl+L.
 * While busy, Ctrl+C asks for an interrupt and drops the type-ahead; other input waits for the next prompt.
 */
export class LineEditor {
  #columns: number;
  readonly #maxHistory: number;
  #promptUnits: string[] = [];
  #promptText = "";
  #units: string[] = [];
  #cursor = 0;
  #reading = false;
  #history: string[] = [];
  /** Index into `#history` of the recalled entry; `#history.length` while editing the draft. */
  #historyIndex = 0;
  #draft: string[] = [];
  #typeAhead = "";

  constructor(options: LineEditorOptions = {}) {
    this.#columns = Math.max(2, options.columns ?? 80);
    this.#maxHistory = options.maxHistory ?? 500;
  }

  /** The line being edited. */
  get line(): string {
    return this.#units.join("");
  }

  /** The cursor, in characters (cells joined with their combining marks count once) from the line's start. */
  get cursor(): number {
    return this.#cursor;
  }

  /** True before the first {@link prompt}, and after a submit until the next one. */
  get busy(): boolean {
    return !this.#reading;
  }

  /** Submitted lines, oldest first. */
  get history(): readonly string[] {
    return this.#history;
  }

  /** Follows the terminal's width; xterm reflows what is on screen, so nothing is redrawn. */
  resize(columns: number): void {
    this.#columns = Math.max(2, columns);
  }

  /**
   * Shows `prompt` (which may hold SGR colour sequences) at the cursor, which must be at the start of a row, and
   * starts reading a new line; replays input typed while busy, which may submit at once.
   */
  prompt(prompt: string): LineEditorOutput {
    this.#promptText = prompt;
    this.#promptUnits = toUnits(prompt.replace(SGR_SEQUENCE, ""));
    this.#resetLine();
    this.#reading = true;
    const typeAhead = this.#typeAhead;
    this.#typeAhead = "";
    const replayed = this.feed(typeAhead);
    return { ...replayed, write: prompt + replayed.write };
  }

  /** Handles one `onData` string: a key, or pasted text. */
  feed(data: string): LineEditorOutput {
    let write = "";
    let index = 0;
    while (index < data.length) {
      if (!this.#reading) {
        const rest = data.slice(index);
        const interrupt = rest.lastIndexOf("\x03");
        if (interrupt < 0) {
          this.#typeAhead += rest;
          return { write };
        }
        // As a terminal flushes its input on an interrupt: what was typed before Ctrl+C is dropped.
        this.#typeAhead = rest.slice(interrupt + 1);
        return { write: write + "^C\r\n", interrupt: true };
      }
      const char = data[index] ?? "";
      if (char === ESC) {
        const [consumed, text] = this.#escape(data.slice(index));
        index += consumed;
        write += text;
        continue;
      }
      index += 1;
      if (char === "\r" || char === "\n") {
        if (char === "\r" && data[index] === "\n") index += 1;
        const submitted = this.#enter();
        write += submitted.write;
        if (submitted.line !== undefined) {
          this.#typeAhead = data.slice(index);
          return { write, submit: submitted.line };
        }
        continue;
      }
      if (char < " " || char === "\x7f") {
        write += this.#control(char);
        continue;
      }
      // Printable text up to the next control character, inserted at once (one redraw per paste).
      let end = index;
      while (end < data.length && (data[end] ?? "") >= " " && data[end] !== "\x7f") end += 1;
      write += this.#insert(char + data.slice(index, end));
      index = end;
    }
    return { write };
  }

  #resetLine(): void {
    this.#units = [];
    this.#cursor = 0;
    this.#historyIndex = this.#history.length;
    this.#draft = [];
  }

  #control(char: string): string {
    switch (char) {
      case "\x01": // Ctrl+A
        return this.#moveTo(0);
      case "\x05": // Ctrl+E
        return this.#moveTo(this.#units.length);
      case "\x02": // Ctrl+B
        return this.#moveTo(this.#cursor - 1);
      case "\x06": // Ctrl+F
        return this.#moveTo(this.#cursor + 1);
      case "\x7f":
      case "\b":
        return this.#delete(this.#cursor - 1, this.#cursor);
      case "\x04": // Ctrl+D: delete forward (no end-of-file: the shell has no session to end)
        return this.#delete(this.#cursor, this.#cursor + 1);
      case "\x15": // Ctrl+U
        return this.#delete(0, this.#cursor);
      case "\x0b": // Ctrl+K
        return this.#delete(this.#cursor, this.#units.length);
      case "\x17": // Ctrl+W
        return this.#delete(this.#wordStart(), this.#cursor);
      case "\x03":
        return this.#cancelLine();
      case "\x0c":
        return this.#clearScreen();
      default:
        return ""; // Tab (no completion) and other control keys
    }
  }

  /** Reads one escape sequence at the start of `data`; returns how many characters it used and the output. */
  #escape(data: string): [number, string] {
    const csi = CSI_SEQUENCE.exec(data);
    if (csi) {
      const [sequence, params = "", final] = csi;
      const modified = /^1;[2-8]$/.test(params);
      const word = modified && params !== "1;2";
      switch (final) {
        case "A":
          return [sequence.length, this.#recall(-1)];
        case "B":
          return [sequence.length, this.#recall(1)];
        case "C":
          return [sequence.length, this.#moveTo(word ? this.#wordEnd() : this.#cursor + 1)];
        case "D":
          return [sequence.length, this.#moveTo(word ? this.#wordStart() : this.#cursor - 1)];
        case "H":
          return [sequence.length, this.#moveTo(0)];
        case "F":
          return [sequence.length, this.#moveTo(this.#units.length)];
        case "~":
          if (params === "1" || params === "7") return [sequence.length, this.#moveTo(0)];
          if (params === "4" || params === "8") return [sequence.length, this.#moveTo(this.#units.length)];
          if (params === "3") return [sequence.length, this.#delete(this.#cursor, this.#cursor + 1)];
          return [sequence.length, ""]; // bracketed paste marks, Insert, Page Up/Down, F-keys
        default:
          return [sequence.length, ""];
      }
    }
    const next = data[1];
    if (next === undefined || next === "[") return [data.length === 1 ? 1 : 2, ""]; // Escape alone, or a cut CSI
    if (next === "O") {
      // SS3: cursor keys in application cursor mode.
      const key = data[2];
      if (key === undefined) return [2, ""];
      return [3, "ABCDHF".includes(key) ? this.#escape(CSI + key)[1] : ""];
    }
    // Alt+key.
    switch (next) {
      case "b":
        return [2, this.#moveTo(this.#wordStart())];
      case "f":
        return [2, this.#moveTo(this.#wordEnd())];
      case "\x7f":
        return [2, this.#delete(this.#wordStart(), this.#cursor)];
      case "d":
        return [2, this.#delete(this.#cursor, this.#wordEnd())];
      default:
        return [2, ""];
    }
  }

  #wordStart(): number {
    let index = this.#cursor;
    while (index > 0 && !isWordUnit(this.#units[index - 1])) index -= 1;
    while (index > 0 && isWordUnit(this.#units[index - 1])) index -= 1;
    return index;
  }

  #wordEnd(): number {
    let index = this.#cursor;
    while (index < this.#units.length && !isWordUnit(this.#units[index])) index += 1;
    while (index < this.#units.length && isWordUnit(this.#units[index])) index += 1;
    return index;
  }

  /** Inserts printable text at the cursor; leading combining marks join the character before the cursor. */
  #insert(text: string): string {
    const first = text.codePointAt(0) ?? 0;
    const joins = this.#cursor > 0 && cellWidth(first) === 0 && !isControl(first);
    const from = joins ? this.#cursor - 1 : this.#cursor;
    const units = toUnits((joins ? (this.#units[from] ?? "") : "") + text);
    if (units.length === 0) return "";
    const next = [...this.#units.slice(0, from), ...units, ...this.#units.slice(this.#cursor)];
    return this.#replace(from, next, from + units.length);
  }

  #delete(from: number, to: number): string {
    const start = Math.max(0, from);
    const end = Math.min(this.#units.length, to);
    if (start >= end) return "";
    const next = [...this.#units.slice(0, start), ...this.#units.slice(end)];
    return this.#replace(start, next, start);
  }

  /** Up (`-1`) or Down (`1`) through history; the draft being typed comes back after the newest entry. */
  #recall(step: -1 | 1): string {
    const target = this.#historyIndex + step;
    if (target < 0 || target > this.#history.length) return "";
    if (this.#historyIndex === this.#history.length) this.#draft = this.#units;
    this.#historyIndex = target;
    const units = target === this.#history.length ? this.#draft : toUnits(this.#history[target] ?? "");
    return this.#replace(0, [...units], units.length);
  }

  /** Enter: a blank line just prompts again; otherwise the line is submitted and recorded in history. */
  #enter(): { write: string; line?: string } {
    const write = this.#moveTo(this.#units.length) + "\r\n";
    const line = this.line;
    if (line.trim() === "") {
      const again = this.#promptText;
      this.#resetLine();
      return { write: write + again };
    }
    if (this.#history[this.#history.length - 1] !== line) {
      this.#history.push(line);
      if (this.#history.length > this.#maxHistory) this.#history.splice(0, this.#history.length - this.#maxHistory);
    }
    this.#resetLine();
    this.#reading = false;
    return { write, line };
  }

  #cancelLine(): string {
    const write = this.#moveTo(this.#units.length) + "^C\r\n" + this.#promptText;
    this.#resetLine();
    return write;
  }

  /** Ctrl+L: clears the screen (with `scrollOnEraseInDisplay`, xterm keeps it in the scrollback) and redraws. */
  #clearScreen(): string {
    const line = this.#units.join("");
    const cursor = this.#cursor;
    this.#cursor = this.#units.length;
    return `${CSI}2J${CSI}H` + this.#promptText + line + this.#moveTo(cursor);
  }

  /**
   * Where the terminal cursor is after writing the prompt and units `0..i-1`, for each `i` (rows from the prompt's
   * first). A column equal to the width is xterm's pending wrap; a wide character that does not fit wraps when
   * written, so its position is the end of the row before.
   */
  #positions(units: readonly string[]): CellPosition[] {
    const columns = this.#columns;
    let row = 0;
    let col = 0;
    const positions: CellPosition[] = [];
    const place = (unit: string): void => {
      const width = unitWidth(unit);
      if (col + width > columns) {
        row += 1;
        col = 0;
      }
      col += width;
    };
    this.#promptUnits.forEach(place);
    for (const unit of units) {
      positions.push({ row, col });
      place(unit);
    }
    positions.push({ row, col });
    return positions;
  }

  /** Cursor movement from `from` to `to`: vertical, then an absolute column (safe from a pending wrap). */
  #travel(from: CellPosition, to: CellPosition): string {
    if (from.row === to.row && from.col === to.col) return "";
    let write = "";
    if (to.row < from.row) write += `${CSI}${from.row - to.row}A`;
    if (to.row > from.row) write += `${CSI}${to.row - from.row}B`;
    return write + `${CSI}${to.col + 1}G`;
  }

  #moveTo(target: number): string {
    const to = Math.max(0, Math.min(this.#units.length, target));
    if (to === this.#cursor) return "";
    const positions = this.#positions(this.#units);
    const from = positions[this.#cursor] ?? { row: 0, col: 0 };
    this.#cursor = to;
    return this.#reach(positions, from, to);
  }

  /**
   * Moves the terminal cursor from `from` to boundary `to`. A pending wrap cannot be reached by cursor movement,
   * so the character before it is written again (the prompt's without its colour).
   */
  #reach(positions: readonly CellPosition[], from: CellPosition, to: number): string {
    const at = positions[to] ?? { row: 0, col: 0 };
    if (from.row === at.row && from.col === at.col) return "";
    if (at.col < this.#columns) return this.#travel(from, at);
    if (to > 0) return this.#travel(from, positions[to - 1] ?? at) + (this.#units[to - 1] ?? "");
    const last = this.#promptUnits[this.#promptUnits.length - 1] ?? "";
    return this.#travel(from, { row: at.row, col: at.col - unitWidth(last) }) + last;
  }

  /** Replaces the line by `units` (equal before `from`), redraws from `from` and leaves the cursor at `cursor`. */
  #replace(from: number, units: string[], cursor: number): string {
    const before = this.#positions(this.#units);
    const start = before[this.#cursor] ?? { row: 0, col: 0 };
    const hadTail = this.#units.length > from;
    this.#units = units;
    let write = this.#reach(before, start, from);
    if (hadTail) write += `${CSI}J`;
    write += units.slice(from).join("");
    const after = this.#positions(units);
    const end = after[units.length] ?? start;
    this.#cursor = cursor;
    return write + this.#reach(after, end, cursor);
  }
}
