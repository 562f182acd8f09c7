// The Terminal panel: one xterm per thread, each command line run in the thread's sandbox through the Gateway.
// Loaded on demand (xterm stays out of the first load). A thread's session (scrollback, history, cwd, env) lives
// for the page session, across thread switches and closing the panel; deleting the thread disposes it.
import { FitAddon } from "@xterm/addon-fit";
import { Terminal, type ITheme } from "@xterm/xterm";
import "@xterm/xterm/css/xterm.css";
import { createEffect, createMemo, createSignal, on, onCleanup, onMount, Show, type Accessor } from "solid-js";
import type { SandboxInfo } from "../../protocol/index.ts";
import { newId } from "../../shared/ids.ts";
import { errorMessage, type GatewayClient } from "../gateway-client.ts";
import { t } from "../i18n/index.ts";
import {
  errorLine,
  formatCommandResult,
  interpreterAlone,
  noteLine,
  promptFor,
  warningLine,
  WORKSPACE_DIR,
} from "./command-output.ts";
import { LineEditor, type LineEditorOutput } from "./line-editor.ts";

const FONT_FAMILY = 'ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace';
const MIN_HEIGHT = 120;
const KEYBOARD_STEP = 24;
const ANSI_COLOURS = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"] as const;

/** xterm's colours from the page's CSS variables (terminal.css), so it follows light and dark. */
function terminalTheme(): ITheme {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string) => style.getPropertyValue(`--terminal-${name}`).trim() || undefined;
  const [black, red, green, yellow, blue, magenta, cyan, white] = ANSI_COLOURS.map(read);
  return {
    background: read("background"),
    foreground: read("foreground"),
    cursor: read("cursor"),
    cursorAccent: read("background"),
    selectionBackground: read("selection"),
    black,
    red,
    green,
    yellow,
    blue,
    magenta,
    cyan,
    white,
    // One legible tone per colour on this background: the bright variants repeat it.
    brightBlack: black,
    brightRed: red,
    brightGreen: green,
    brightYellow: yellow,
    brightBlue: blue,
    brightMagenta: magenta,
    brightCyan: cyan,
    brightWhite: white,
  };
}

/** One thread's terminal: the xterm, its line editor, and the cwd and env carried from command to command. */
class TerminalSession {
  readonly host = document.createElement("div");
  readonly terminal: Terminal;
  readonly info: Accessor<SandboxInfo | undefined>;
  readonly running: Accessor<boolean>;
  readonly #setInfo: (info: SandboxInfo) => void;
  readonly #setRunning: (running: boolean) => void;
  readonly #fit = new FitAddon();
  readonly #editor: LineEditor;
  #opened = false;
  #disposed = false;
  /** Between a keydown and its keyup: text input then comes from the key, which xterm has handled. */
  #keyDown = false;
  #cwd = WORKSPACE_DIR;
  #env: Record<string, string> = {};
  #lastExitCode = 0;
  #commandId: string | undefined;

  constructor(
    readonly threadId: string,
    private readonly client: GatewayClient,
  ) {
    [this.info, this.#setInfo] = createSignal<SandboxInfo>();
    [this.running, this.#setRunning] = createSignal(false);
    this.host.className = "terminal-screen";
    this.terminal = new Terminal({
      // Mirrors the screen into an accessibility tree of rows: screen readers and tests read output there.
      screenReaderMode: true,
      // Ctrl+L pushes the screen into the scrollback instead of erasing it.
      scrollOnEraseInDisplay: true,
      cursorBlink: true,
      fontFamily: FONT_FAMILY,
      fontSize: 13,
      scrollback: 5000,
      theme: terminalTheme(),
    });
    this.terminal.loadAddon(this.#fit);
    this.#editor = new LineEditor({ columns: this.terminal.cols });
    this.terminal.onData((data) => this.#apply(this.#editor.feed(data)));
    this.terminal.onResize(({ cols }) => this.#editor.resize(cols));
    this.terminal.attachCustomKeyEventHandler((event) => {
      if (event.type === "keydown") this.#keyDown = true;
      if (event.type === "keyup") this.#keyDown = false;
      // Tab moves focus out (there is no completion); Ctrl+C with a selection copies it.
      if (event.key === "Tab") return false;
      if (event.ctrlKey && event.key === "c" && this.terminal.hasSelection()) return false;
      return true;
    });
    void this.#start();
  }

  /** Shows the terminal in `container` (opening it on first use) and sizes it to fit. */
  attach(container: HTMLElement): void {
    container.append(this.host);
    if (!this.#opened) {
      this.terminal.open(this.host);
      this.#opened = true;
      // In screen reader mode xterm ignores text inserted without a key press (emoji pickers, dictation):
      // https://github.com/xtermjs/xterm.js/issues/3679. Take it here; typed keys and IME composition are xterm's.
      this.terminal.textarea?.addEventListener("input", (event) => {
        const input = event as InputEvent;
        if (input.inputType === "insertText" && input.data && !input.isComposing && !this.#keyDown) {
          this.#apply(this.#editor.feed(input.data));
        }
      });
    }
    this.fit();
  }

  detach(): void {
    this.host.remove();
  }

  /** Resizes the terminal to its container; does nothing while the container is hidden or empty. */
  fit(): void {
    if (!this.host.isConnected || this.host.clientWidth === 0 || this.host.clientHeight === 0) return;
    this.#fit.fit();
  }

  dispose(): void {
    this.#disposed = true;
    if (this.#commandId) void this.client.sandbox.cancel(this.#commandId).catch(() => undefined);
    this.terminal.dispose();
    this.host.remove();
  }

  async #start(): Promise<void> {
    let info: SandboxInfo;
    try {
      info = await this.client.sandbox.info(this.threadId);
    } catch (error) {
      info = { kind: "browser", cwd: WORKSPACE_DIR, notice: t("terminal.noAnswer", { error: errorMessage(error) }) };
    }
    if (this.#disposed) return;
    this.#cwd = info.cwd;
    this.#setInfo(info);
    const kind = info.kind === "webcontainer" ? "WebContainer" : t("terminal.kindBrowser");
    this.terminal.write(noteLine(t("terminal.intro", { kind })));
    this.terminal.write(noteLine(t("terminal.outputNote")));
    this.#apply(this.#editor.prompt(promptFor(this.#cwd)));
  }

  #apply(output: LineEditorOutput): void {
    if (this.#disposed) return;
    if (output.write) this.terminal.write(output.write);
    if (output.interrupt && this.#commandId) {
      void this.client.sandbox.cancel(this.#commandId).catch(() => undefined);
    }
    if (output.submit !== undefined) void this.#run(output.submit);
  }

  async #run(command: string): Promise<void> {
    // Python's interactive prompt needs a keyboard the sandbox does not have: say so, and how to run Python instead.
    const interpreter = this.info()?.kind === "browser" ? interpreterAlone(command) : undefined;
    if (interpreter) {
      this.#lastExitCode = 1;
      this.terminal.write(warningLine(t("terminal.noInterpreter", { command: interpreter })));
      this.#apply(this.#editor.prompt(promptFor(this.#cwd, this.#lastExitCode)));
      return;
    }
    const commandId = newId();
    this.#commandId = commandId;
    this.#setRunning(true);
    let write: string;
    try {
      const result = await this.client.sandbox.exec({
        command_id: commandId,
        thread_id: this.threadId,
        command,
        cwd: this.#cwd,
        env: this.#env,
      });
      this.#cwd = result.cwd;
      this.#env = result.env;
      this.#lastExitCode = result.exit_code;
      write = formatCommandResult(result);
    } catch (error) {
      this.#lastExitCode = 1;
      write = errorLine(`fawn: ${errorMessage(error)}`);
    } finally {
      this.#commandId = undefined;
      this.#setRunning(false);
    }
    if (this.#disposed) return;
    this.terminal.write(write);
    this.#apply(this.#editor.prompt(promptFor(this.#cwd, this.#lastExitCode)));
  }
}

/** Sessions by thread id, for the page session. */
const sessions = new Map<string, TerminalSession>();
/** Threads seen in the thread list: one seen and then gone was deleted. */
const seenThreads = new Set<string>();

function sessionFor(threadId: string, client: GatewayClient): TerminalSession {
  let session = sessions.get(threadId);
  if (!session) {
    session = new TerminalSession(threadId, client);
    sessions.set(threadId, session);
  }
  return session;
}

// Re-read the colours when the theme changes: the system's (for "System") or the user's choice (data-theme).
const applyTheme = () => {
  const theme = terminalTheme();
  for (const session of sessions.values()) session.terminal.options.theme = theme;
};
window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", applyTheme);
new MutationObserver(applyTheme).observe(document.documentElement, { attributeFilter: ["data-theme"] });

/** Height chosen with the resize handle, kept while the page lives; undefined uses the stylesheet's. */
const [panelHeight, setPanelHeight] = createSignal<number | undefined>();

/**
 * Region "Terminal" for the thread `threadId`: its session is created on first show and kept; sessions of
 * threads that leave `threadIds` (deleted) are disposed. Focuses the terminal when the panel opens.
 */
export function TerminalPanel(props: { client: GatewayClient; threadId: string; threadIds: readonly string[] }) {
  let panel!: HTMLElement;
  let screen!: HTMLDivElement;
  const threadId = createMemo(() => props.threadId);
  const session = createMemo(() => sessionFor(threadId(), props.client));

  // The session on screen, kept outside Solid's graph: cleanup must not read memos that are being disposed.
  let shown: TerminalSession | undefined;
  createEffect(
    on(session, (current) => {
      shown?.detach();
      shown = current;
      current.attach(screen);
    }),
  );

  createEffect(() => {
    const live = new Set(props.threadIds);
    for (const id of live) seenThreads.add(id);
    for (const [id, stale] of sessions) {
      if (seenThreads.has(id) && !live.has(id)) {
        stale.dispose();
        sessions.delete(id);
        seenThreads.delete(id);
      }
    }
  });

  /** The panel's height as laid out, for the resize handle's value. */
  const [height, setHeight] = createSignal(0);
  onMount(() => {
    let frame = 0;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        setHeight(Math.round(panel.getBoundingClientRect().height));
        shown?.fit();
      });
    });
    observer.observe(panel);
    observer.observe(screen);
    shown?.terminal.focus();
    onCleanup(() => {
      observer.disconnect();
      cancelAnimationFrame(frame);
      shown?.detach();
      shown = undefined;
    });
  });

  const maxHeight = () => Math.max(MIN_HEIGHT, Math.round(window.innerHeight * 0.8));
  const resizeTo = (height: number) => setPanelHeight(Math.min(maxHeight(), Math.max(MIN_HEIGHT, height)));
  const startDrag = (event: PointerEvent) => {
    const handle = event.currentTarget as HTMLElement;
    const startY = event.clientY;
    const startHeight = panel.getBoundingClientRect().height;
    handle.setPointerCapture(event.pointerId);
    const move = (moved: PointerEvent) => resizeTo(startHeight + startY - moved.clientY);
    const end = () => {
      handle.removeEventListener("pointermove", move);
      handle.removeEventListener("pointerup", end);
      handle.removeEventListener("pointercancel", end);
    };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", end);
    handle.addEventListener("pointercancel", end);
    event.preventDefault();
  };
  const resizeWithKeys = (event: KeyboardEvent) => {
    const current = panel.getBoundingClientRect().height;
    if (event.key === "ArrowUp") resizeTo(current + KEYBOARD_STEP);
    else if (event.key === "ArrowDown") resizeTo(current - KEYBOARD_STEP);
    else return;
    event.preventDefault();
  };

  return (
    <section
      ref={panel}
      id="terminal-panel"
      class="terminal-panel"
      aria-label={t("common.terminal")}
      style={panelHeight() === undefined ? {} : { height: `${panelHeight()}px` }}
    >
      <div
        class="terminal-resize"
        role="separator"
        aria-orientation="horizontal"
        aria-label={t("terminal.resize")}
        aria-valuemin={MIN_HEIGHT}
        aria-valuemax={maxHeight()}
        aria-valuenow={height()}
        tabIndex={0}
        onPointerDown={startDrag}
        onKeyDown={resizeWithKeys}
      />
      <div class="terminal-bar">
        <span class="terminal-title">{t("terminal.title")}</span>
        <span class="terminal-status" role="status">
          {session().running() ? t("terminal.running") : ""}
        </span>
      </div>
      <Show when={session().info()?.notice}>
        {(notice) => (
          <p class="terminal-notice" role="note">
            {notice()}
          </p>
        )}
      </Show>
      <div ref={screen} class="terminal-host" />
    </section>
  );
}
