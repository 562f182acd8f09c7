// The app shell: sidebar, conversation and composer, the Terminal panel (loaded on demand), the Settings dialog,
// and notices.
import { createSignal, lazy, onMount, Show, Suspense } from "solid-js";
import type { AppState } from "./app-state.ts";
import { ArtifactsPanel } from "./components/artifacts-panel.tsx";
import { Composer } from "./components/composer.tsx";
import { Conversation } from "./components/conversation.tsx";
import { PlanPanel } from "./components/plan-panel.tsx";
import { SettingsDialog } from "./components/settings-dialog.tsx";
import { Sidebar } from "./components/sidebar.tsx";
import { ThreadHeader } from "./components/thread-header.tsx";
import { UpdatePrompt } from "./components/update-prompt.tsx";
import { connectGateway } from "./gateway-client.ts";

// xterm is large: the panel's chunk loads the first time the Terminal is opened.
const TerminalPanel = lazy(() =>
  import("./components/terminal-panel.tsx").then((module) => ({ default: module.TerminalPanel })),
);

export function App(props: { state: AppState }) {
  const [terminalOpen, setTerminalOpen] = createSignal(false);
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
        <ThreadHeader
          state={props.state}
          terminalOpen={terminalOpen()}
          onToggleTerminal={() => setTerminalOpen(!terminalOpen())}
        />
        <Conversation state={props.state} />
        <Show when={props.state.thread()}>
          {(thread) => (
            <ArtifactsPanel
              client={props.state.client}
              threadId={thread().thread_id}
              paths={props.state.run()?.artifacts ?? thread().artifacts ?? []}
            />
          )}
        </Show>
        <Show when={props.state.thread()}>
          {(thread) => <PlanPanel todos={props.state.run()?.todos ?? thread().todos ?? []} />}
        </Show>
        <Composer state={props.state} />
        <Show when={terminalOpen() && props.state.thread()}>
          {(thread) => (
            <Suspense
              fallback={
                <section class="terminal-panel" aria-label="Terminal" aria-busy="true">
                  <p class="terminal-loading">Loading the terminal…</p>
                </section>
              }
            >
              <TerminalPanel
                client={connectGateway()}
                threadId={thread().thread_id}
                threadIds={props.state.threads().map((summary) => summary.thread_id)}
              />
            </Suspense>
          )}
        </Show>
      </main>
      <SettingsDialog state={props.state} />
      <UpdatePrompt />
    </div>
  );
}
