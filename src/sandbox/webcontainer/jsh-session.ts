// One long-lived `jsh --osc` shell in a WebContainer: a command line is typed into it and its output read up to the
// OSC 654 exit marker, as StackBlitz's bolt.new does (app/utils/shell.ts); the text is then cleaned of terminal codes.
import type { SpawnOptions, WebContainerProcess } from "@webcontainer/api";

/** The part of a WebContainer that starts processes. */
export interface ProcessSpawner {
  spawn(command: string, args: string[], options?: SpawnOptions): Promise<WebContainerProcess>;
}

/** How long an interrupted command may take to stop before its shell is killed. */
export const INTERRUPT_GRACE_MS = 1_000;
/** How long a new shell may take to say it is ready. */
export const SHELL_START_TIMEOUT_MS = 20_000;

const INTERACTIVE = "\x1b]654;interactive\x07";
/** `exit=<pid>:<code>`: bolt.new reads the second number as the exit code (`[, osc, , pid, code]`). */
// eslint-disable-next-line no-control-regex -- the markers are made of control characters
const EXIT_MARKER = /\x1b\]654;exit=(-?\d+):(-?\d+)\x07/;
/** Long enough to hold any marker, so a marker split across chunks is still found by an incremental search. */
const MARKER_OVERLAP = 64;

export interface ShellOutcome {
  /** What the terminal showed between the command's begin marker and its exit marker, terminal codes included. */
  output: string;
  exitCode: number;
  stopped?: "timeout" | "cancelled";
  /** The shell ended (or was killed) before the command's exit marker. */
  ended?: true;
}

/** A `jsh --osc` process that runs one command line at a time. */
export class JshSession {
  private buffer = "";
  private closed = false;
  private wake: (() => void) | undefined;

  private constructor(
    private readonly process: WebContainerProcess,
    private readonly input: WritableStreamDefaultWriter<string>,
  ) {}

  /** Spawns the shell in `cwd` (relative to the container's workdir) and waits until it is interactive. */
  static async start(
    spawner: ProcessSpawner,
    cwd: string,
    terminal: { cols: number; rows: number },
  ): Promise<JshSession> {
    const process = await spawner.spawn("jsh", ["--osc"], { cwd, terminal });
    const session = new JshSession(process, process.input.getWriter());
    void session.pump();
    const ready = await session.waitFor(() => session.buffer.includes(INTERACTIVE), SHELL_START_TIMEOUT_MS);
    if (!ready) {
      session.kill();
      throw new Error(`The WebContainer shell (jsh) did not start within ${SHELL_START_TIMEOUT_MS / 1000} s.`);
    }
    return session;
  }

  /** False once the shell was killed or ended; start a new one then. */
  get alive(): boolean {
    return !this.closed;
  }

  /**
   * Types `line` and waits for its exit marker. The line must print `marker` first (e.g. `echo __X_'1'__` prints
   * `__X_1__`, which its own echo on the terminal does not contain), so the echo and the previous prompt are cut
   * off. On timeout or abort the shell gets Ctrl-C; without an exit marker within INTERRUPT_GRACE_MS it is killed.
   */
  async run(
    line: string,
    marker: string,
    options: { timeoutMs: number; signal?: AbortSignal | undefined },
  ): Promise<ShellOutcome> {
    this.buffer = "";
    let stopped: ShellOutcome["stopped"];
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    /** Where the command's output starts, once its marker was seen. */
    let begin = -1;
    let interruptedAt = -1;
    const interrupt = (reason: NonNullable<ShellOutcome["stopped"]>) => {
      if (stopped) return;
      stopped = reason;
      interruptedAt = this.buffer.length;
      this.input.write("\x03").catch(() => undefined);
      killTimer = setTimeout(() => this.kill(), INTERRUPT_GRACE_MS);
    };
    const timer = setTimeout(() => interrupt("timeout"), options.timeoutMs);
    const onAbort = () => interrupt("cancelled");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      await this.input.write(`${line}\n`).catch(() => this.kill());
      let scanned = 0;
      for (;;) {
        if (begin < 0) {
          const at = this.buffer.indexOf(marker);
          if (at >= 0) begin = scanned = at + marker.length;
        }
        // Exit markers count from the begin marker (or from Ctrl-C, when the command was stopped before it showed
        // up): an earlier one belongs to an earlier command or to the shell's start.
        const start = begin >= 0 ? begin : interruptedAt;
        if (start >= 0) {
          const from = Math.max(start, scanned - MARKER_OVERLAP);
          const exit = EXIT_MARKER.exec(this.buffer.slice(from));
          if (exit) {
            const output = begin < 0 ? "" : this.buffer.slice(begin, from + exit.index).replace(/^\r?\n/, "");
            return { output, exitCode: Number(exit[2]), ...(stopped && { stopped }) };
          }
          scanned = this.buffer.length;
        }
        if (this.closed) {
          const output = begin < 0 ? "" : this.buffer.slice(begin).replace(/^\r?\n/, "");
          return { output, exitCode: 1, ended: true, ...(stopped && { stopped }) };
        }
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      clearTimeout(timer);
      clearTimeout(killTimer);
      options.signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Ends the shell and whatever it runs. */
  kill(): void {
    if (this.closed) return;
    this.closed = true;
    this.process.kill();
    this.notify();
  }

  private async pump(): Promise<void> {
    const reader = this.process.output.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || this.closed) break;
        this.buffer += value;
        this.notify();
      }
    } catch {
      // The stream errors when the process is killed: the shell is gone either way.
    } finally {
      this.closed = true;
      this.notify();
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const timer = setTimeout(() => this.notify(), timeoutMs);
    try {
      while (!condition()) {
        if (this.closed || Date.now() >= deadline) return false;
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
      return true;
    } finally {
      clearTimeout(timer);
    }
  }
}

const TERMINAL_CODES = new RegExp(
  [
    "\\x1b\\][^\\x07\\x1b]*(?:\\x07|\\x1b\\\\)", // OSC, ended by BEL or ST
    "\\x1b\\[[0-?]*[ -/]*[@-~]", // CSI: colours, cursor moves, bracketed paste
    "\\x1b[()*+#][0-9A-Za-z]", // character set selection
    "\\x1b[@-Z\\\\^_=>78]", // other two-character escapes
    "[\\x00\\x07]",
  ].join("|"),
  "g",
);

/**
 * The text a terminal would show for `raw`: escape sequences removed, CRLF as LF, and a bare CR overwriting the
 * start of its line as it does on screen (so a progress bar leaves only its last state).
 */
export function terminalText(raw: string): string {
  return raw
    .replace(TERMINAL_CODES, "")
    .replace(/\r+\n/g, "\n")
    .split("\n")
    .map((line) => line.split("\r").reduce((shown, part) => part + shown.slice(part.length), ""))
    .join("\n");
}
