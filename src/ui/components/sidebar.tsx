// The sidebar: New thread, the thread list (most recent first) and Settings.
import { For, Show } from "solid-js";
import type { AppState } from "../app-state.ts";
import { ImportThreadButton } from "./import-thread.tsx";

export function Sidebar(props: { state: AppState }) {
  const state = props.state;
  return (
    <aside class="sidebar">
      <div class="brand">
        <img src="/favicon.svg" alt="" width="24" height="24" />
        <span>Fawn</span>
      </div>
      <button type="button" class="primary new-thread" onClick={() => void state.newThread()}>
        New thread
      </button>
      <ImportThreadButton client={state.client} onImported={(threadId) => void state.openThread(threadId)} />
      <nav aria-label="Threads" class="thread-list">
        <Show when={state.threads().length > 0} fallback={<p class="muted">No threads yet.</p>}>
          <ul>
            <For each={state.threads()}>
              {(thread) => (
                <li>
                  <a
                    href={`#/t/${thread.thread_id}`}
                    aria-current={state.thread()?.thread_id === thread.thread_id ? "page" : undefined}
                    onClick={(event) => {
                      event.preventDefault();
                      void state.openThread(thread.thread_id);
                    }}
                  >
                    {thread.title}
                  </a>
                  <Show when={thread.pinned}>
                    <span class="pinned-mark" role="img" aria-label="Pinned" title="Pinned">
                      ●
                    </span>
                  </Show>
                  <Show when={state.isRunning(thread.thread_id)}>
                    <span class="running-dot" role="img" aria-label="Running" title="Running" />
                  </Show>
                </li>
              )}
            </For>
          </ul>
        </Show>
      </nav>
      <button type="button" class="ghost settings-button" onClick={() => state.setSettingsOpen(true)}>
        Settings
      </button>
    </aside>
  );
}
