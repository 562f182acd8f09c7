// The app shell: sidebar, conversation and composer, the Settings dialog, and notices.
import { onMount, Show } from "solid-js";
import type { AppState } from "./app-state.ts";
import { Composer } from "./components/composer.tsx";
import { Conversation } from "./components/conversation.tsx";
import { SettingsDialog } from "./components/settings-dialog.tsx";
import { Sidebar } from "./components/sidebar.tsx";
import { ThreadHeader } from "./components/thread-header.tsx";
import { UpdatePrompt } from "./components/update-prompt.tsx";

export function App(props: { state: AppState }) {
  onMount(() => {
    props.state.init().catch((error: unknown) => {
      props.state.setNotice(
        `Fawn could not open its storage: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  });
  return (
    <div class="app">
      <Sidebar state={props.state} />
      <main class="main">
        <Show when={props.state.notice()}>
          {(text) => (
            <div class="notice" role="alert">
              <span>{text()}</span>
              <button type="button" class="ghost" aria-label="Dismiss" onClick={() => props.state.setNotice(undefined)}>
                ×
              </button>
            </div>
          )}
        </Show>
        <ThreadHeader state={props.state} />
        <Conversation state={props.state} />
        <Composer state={props.state} />
      </main>
      <SettingsDialog state={props.state} />
      <UpdatePrompt />
    </div>
  );
}
