// The line editor's history (Up/Down) and what ends or clears a line: Enter, Ctrl+C, Ctrl+L.
import { describe, expect, it } from "vitest";
import { LineEditor } from "./line-editor.ts";
import { cursorOf, KEY, setupEditor as setup } from "../../../test/support/terminal-screen.ts";

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
