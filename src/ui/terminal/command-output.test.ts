/* eslint-disable no-control-regex -- a terminal speaks in control characters */
import { describe, expect, it } from "vitest";
import { formatCommandResult, interpreterAlone, promptFor, stoppedMessage, toTerminalText } from "./command-output.ts";

describe("formatCommandResult", () => {
  it("turns line feeds into CR LF so each line starts at the left edge", () => {
    expect(formatCommandResult({ stdout: "a\nb\n", stderr: "" })).toBe("a\r\nb\r\n");
    expect(toTerminalText("x\r\ny\n")).toBe("x\r\ny\r\n");
  });

  it("ends the output's last line when the command did not", () => {
    expect(formatCommandResult({ stdout: "no newline", stderr: "" })).toBe("no newline\r\n");
  });

  it("writes nothing for a command without output", () => {
    expect(formatCommandResult({ stdout: "", stderr: "" })).toBe("");
  });

  it("shows stderr after stdout, in red", () => {
    expect(formatCommandResult({ stdout: "out\n", stderr: "cat: x: No such file\n" })).toBe(
      "out\r\n\x1b[31mcat: x: No such file\r\n\x1b[0m",
    );
  });

  it("keeps the sandbox's own explanation of a stop, without repeating it", () => {
    const written = formatCommandResult({ stdout: "", stderr: "Command cancelled.\n", stopped: "cancelled" });
    expect(written).toBe("\x1b[31mCommand cancelled.\r\n\x1b[0m");
  });

  it("says why a command stopped when the sandbox gave no stderr", () => {
    expect(formatCommandResult({ stdout: "partial\n", stderr: "", stopped: "timeout" })).toBe(
      `partial\r\n\x1b[33m${stoppedMessage("timeout")}\x1b[0m\r\n`,
    );
    expect(stoppedMessage("cancelled")).toMatch(/Ctrl\+C/);
    expect(stoppedMessage("limit")).toMatch(/limits/);
  });
});

describe("promptFor", () => {
  it("shows the full working directory, then $", () => {
    expect(promptFor("/mnt/user-data/workspace").replace(/\x1b\[[0-9;]*m/g, "")).toBe("/mnt/user-data/workspace $ ");
  });

  it("colours the $ red after a failed command", () => {
    expect(promptFor("/w", 1)).toContain("\x1b[31m$");
    expect(promptFor("/w", 0)).not.toContain("\x1b[31m");
  });
});

describe("interpreterAlone", () => {
  it("names the interpreter a line would start interactively", () => {
    expect(interpreterAlone("python3")).toBe("python3");
    expect(interpreterAlone("  python  ")).toBe("python");
    expect(interpreterAlone("python3 -i")).toBe("python3");
    expect(interpreterAlone("python3.12 -q -u")).toBe("python3.12");
  });

  it("leaves programs, piped input, version and help alone", () => {
    for (const line of [
      "python3 file.py",
      "python3 -c 'print(1)'",
      "python3 -m http.server",
      "echo 'print(1)' | python3",
      "python3 < script.py",
      "python3 -V",
      "python3 --version",
      "python3 -h",
      "python3 -",
      "pythonista",
      "ls python3",
    ]) {
      expect(interpreterAlone(line), line).toBeUndefined();
    }
  });
});
