// Reads a `python3` command line the way CPython does: options first, then the program and its arguments.

/** What `python3 -h` prints, and what a usage error ends with. */
export const USAGE = "usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...";
/** Short options CPython accepts that change nothing here. */
const IGNORED_FLAGS = new Set("bBdEIOPqsSu");

/** What a `python3` command line asks for. */
export type PythonInvocation =
  | { kind: "code"; source: string; argv: string[] }
  | { kind: "stdin"; argv: string[] }
  | { kind: "file"; path: string; argv: string[] }
  | { kind: "module"; name: string; argv: string[] }
  | { kind: "version" }
  | { kind: "help" }
  | { kind: "usage"; message: string };

/** Reads `python3`'s arguments the way CPython does (options first, then the program and its arguments). */
export function parsePythonArgs(args: string[]): PythonInvocation {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const rest = args.slice(index + 1);
    if (arg === "--version") return { kind: "version" };
    if (arg === "--help") return { kind: "help" };
    if (arg === "--") return rest.length === 0 ? { kind: "stdin", argv: [""] } : fileInvocation(rest);
    if (arg === "-") return { kind: "stdin", argv: ["-", ...rest] };
    if (!arg.startsWith("-")) return fileInvocation(args.slice(index));
    if (arg.startsWith("--")) return { kind: "usage", message: `unknown option ${arg}` };
    for (let at = 1; at < arg.length; at++) {
      const flag = arg[at]!;
      if (IGNORED_FLAGS.has(flag)) continue;
      if (flag === "V") return { kind: "version" };
      if (flag === "h" || flag === "?") return { kind: "help" };
      if (flag === "c" || flag === "m" || flag === "W" || flag === "X") {
        const attached = arg.slice(at + 1);
        const value = attached !== "" ? attached : rest.shift();
        if (value === undefined) return { kind: "usage", message: `Argument expected for the -${flag} option` };
        if (flag === "c") return { kind: "code", source: value, argv: ["-c", ...rest] };
        if (flag === "m") return { kind: "module", name: value, argv: ["-m", ...rest] };
        if (attached === "") index++;
        break;
      }
      return { kind: "usage", message: `Unknown option: -${flag}` };
    }
  }
  return { kind: "stdin", argv: [""] };
}

function fileInvocation(args: string[]): PythonInvocation {
  return { kind: "file", path: args[0]!, argv: args };
}
