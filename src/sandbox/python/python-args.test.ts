// Tests for reading a `python3` command line as CPython does: options, the program, sys.argv and usage errors.
import { describe, expect, it } from "vitest";
import { parsePythonArgs } from "./python-args.ts";

describe("parsePythonArgs", () => {
  it("reads -c, -m and a script with their arguments, as CPython sets sys.argv", () => {
    expect(parsePythonArgs(["-c", "print(1)", "a"])).toEqual({ kind: "code", source: "print(1)", argv: ["-c", "a"] });
    expect(parsePythonArgs(["-m", "json.tool", "x.json"])).toEqual({
      kind: "module",
      name: "json.tool",
      argv: ["-m", "x.json"],
    });
    expect(parsePythonArgs(["report.py", "-v"])).toEqual({
      kind: "file",
      path: "report.py",
      argv: ["report.py", "-v"],
    });
  });

  it("reads the program from stdin with no program or with -", () => {
    expect(parsePythonArgs([])).toEqual({ kind: "stdin", argv: [""] });
    expect(parsePythonArgs(["-", "a"])).toEqual({ kind: "stdin", argv: ["-", "a"] });
  });

  it("accepts flags that change nothing here, joined or apart, and attached option values", () => {
    expect(parsePythonArgs(["-u", "-B", "-W", "ignore", "s.py"])).toMatchObject({ kind: "file", path: "s.py" });
    expect(parsePythonArgs(["-uc", "print(2)"])).toMatchObject({ kind: "code", source: "print(2)" });
    expect(parsePythonArgs(["-cprint(3)"])).toMatchObject({ kind: "code", source: "print(3)" });
  });

  it("answers --version and -h, and refuses unknown options and a missing value", () => {
    expect(parsePythonArgs(["--version"])).toEqual({ kind: "version" });
    expect(parsePythonArgs(["-V"])).toEqual({ kind: "version" });
    expect(parsePythonArgs(["-h"])).toEqual({ kind: "help" });
    expect(parsePythonArgs(["-z"])).toEqual({ kind: "usage", message: "Unknown option: -z" });
    expect(parsePythonArgs(["-c"])).toEqual({ kind: "usage", message: "Argument expected for the -c option" });
  });
});
