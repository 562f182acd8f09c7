// What the Terminal panel writes around a command: the prompt, and a finished command's output and stop reason.
// The prompt shows the full working directory: `~` would suggest $HOME, which is not the workspace.
import type { SandboxCommandResult } from "../../protocol/index.ts";

/** Where a thread's terminal starts when the sandbox does not say otherwise. */
export const WORKSPACE_DIR = "/mnt/user-data/workspace";

const RESET = "\x1b[0m";
const RED = "\x1b[31m";
const YELLOW = "\x1b[33m";
const BOLD_BLUE = "\x1b[1;34m";
const DIM = "\x1b[2m";

/** A command's text for xterm: line feeds become CR LF (xterm does not return the carriage on a bare LF). */
export function toTerminalText(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

/** The prompt for `cwd`, e.g. `/mnt/user-data/workspace $ `; the `$` is red after a failed command. */
export function promptFor(cwd: string, lastExitCode = 0): string {
  return `${BOLD_BLUE}${cwd}${RESET} ${lastExitCode === 0 ? "" : RED}$${RESET} `;
}

/** Why the sandbox ended a command, in words. */
export function stoppedMessage(stopped: NonNullable<SandboxCommandResult["stopped"]>): string {
  switch (stopped) {
    case "cancelled":
      return "Stopped: cancelled with Ctrl+C.";
    case "timeout":
      return "Stopped: the command ran past the sandbox's time limit.";
    case "limit":
      return "Stopped: the command hit the sandbox's execution limits.";
  }
}

/**
 * A finished command as terminal text: stdout, then stderr in red; every part ends its line, so the next prompt
 * starts on a row of its own. The sandbox explains a stop in stderr; when a stopped command's stderr is empty, the
 * reason is added in yellow.
 */
export function formatCommandResult(result: Pick<SandboxCommandResult, "stdout" | "stderr" | "stopped">): string {
  let write = "";
  const add = (text: string, colour?: string) => {
    if (text === "") return;
    const body = toTerminalText(text);
    write += colour ? colour + body + RESET : body;
    if (!text.endsWith("\n")) write += "\r\n";
  };
  add(result.stdout);
  add(result.stderr, RED);
  if (result.stopped && result.stderr.trim() === "") add(stoppedMessage(result.stopped), YELLOW);
  return write;
}

/** A line about the terminal itself (not a command's output), dimmed. */
export function noteLine(text: string): string {
  return `${DIM}${toTerminalText(text)}${RESET}\r\n`;
}

/** An error of the terminal itself (the Gateway refused the request), in red. */
export function errorLine(text: string): string {
  return `${RED}${toTerminalText(text)}${RESET}\r\n`;
}

/** Python's options that neither name a program nor print and exit (-c, -m, -V and -h do): -i, -q, -u and the like. */
const INTERPRETER_ALONE = /^\s*(python(?:3(?:\.\d+)?)?)((?:\s+-[iquBEsSIObdv]+)*)\s*$/;

/**
 * The interpreter's name when `command` would start Python's interactive prompt (`python3`, `python -q`): the
 * Terminal runs a command to its end and has no stdin to type into, so it says so instead of printing nothing.
 * Undefined for anything else, such as `python3 file.py`, `python3 -c …` or `echo … | python3`.
 */
export function interpreterAlone(command: string): string | undefined {
  return INTERPRETER_ALONE.exec(command)?.[1];
}

/** A line that explains rather than reports an error, in yellow. */
export function warningLine(text: string): string {
  return `${YELLOW}${toTerminalText(text)}${RESET}\r\n`;
}
