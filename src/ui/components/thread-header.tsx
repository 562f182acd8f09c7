// The open thread's title bar: the Terminal toggle, and the thread's actions (Rename, Pin, Delete) in a menu.
import { createSignal, onCleanup, Show } from "solid-js";
import type { AppState } from "../app-state.ts";

/** `terminalOpen` and `onToggleTerminal` drive the "Terminal" button, which shows or hides region "Terminal". */
export function ThreadHeader(props: { state: AppState; terminalOpen: boolean; onToggleTerminal: () => void }) {
  const [open, setOpen] = createSignal(false);
  let menu: HTMLDivElement | undefined;
  const close = (event: MouseEvent) => {
    if (menu && !menu.contains(event.target as Node)) setOpen(false);
  };
  document.addEventListener("click", close);
  onCleanup(() => document.removeEventListener("click", close));

  const rename = () => {
    setOpen(false);
    const thread = props.state.thread();
    if (!thread) return;
    const title = window.prompt("Rename thread", thread.title);
    if (title !== null) void props.state.renameThread(thread.thread_id, title);
  };
  const remove = () => {
    setOpen(false);
    const thread = props.state.thread();
    if (!thread) return;
    if (window.confirm(`Delete "${thread.title}" and everything in it? This cannot be undone.`)) {
      void props.state.deleteThread(thread.thread_id);
    }
  };

  return (
    <Show when={props.state.thread()}>
      {(thread) => (
        <header class="thread-header">
          <h1 class="thread-title">{thread().title}</h1>
          <div class="thread-header-actions">
            <button
              type="button"
              class="ghost terminal-toggle"
              aria-expanded={props.terminalOpen}
              aria-controls="terminal-panel"
              onClick={() => props.onToggleTerminal()}
            >
              Terminal
            </button>
            <div class="menu-anchor" ref={menu}>
              <button
                type="button"
                class="ghost"
                aria-haspopup="menu"
                aria-expanded={open()}
                onClick={() => setOpen(!open())}
              >
                Thread actions
              </button>
              <Show when={open()}>
                <div class="menu" role="menu" aria-label="Thread actions">
                  <button type="button" role="menuitem" onClick={rename}>
                    Rename
                  </button>
                  <button
                    type="button"
                    role="menuitem"
                    onClick={() => {
                      setOpen(false);
                      void props.state.pinThread(thread().thread_id, !thread().pinned);
                    }}
                  >
                    {thread().pinned ? "Unpin" : "Pin"}
                  </button>
                  <button type="button" role="menuitem" class="danger-text" onClick={remove}>
                    Delete
                  </button>
                </div>
              </Show>
            </div>
          </div>
        </header>
      )}
    </Show>
  );
}
