// The sidebar's combobox "Workspace": this browser's threads ("This browser") or a connected server's
// (state/workspaces.ts), shown once a server is connected (Settings → Servers). Under it, while a server workspace is
// shown and its server does not answer as it should (offline, the token refused, a malformed answer), the workspace's
// sentence (the worker keeps polling: it goes once the server answers again); the notice line says it too at first. Its own chunk: not on the first screen.
import { createEffect, createSignal, For, on, onCleanup, onMount, Show } from "solid-js";
import { CHANGES_CHANNEL, isChangeNotice, type WorkspaceConnection } from "../../protocol/index.ts";
import { t } from "../i18n/index.ts";
import { useNotices, useWorkspace } from "../state/stores.tsx";
import "./workspace-switcher.css";
import { currentId, refreshServers, servers, switchWorkspace, THIS_BROWSER } from "../state/workspaces.ts";

// main.tsx starts a kept server workspace through this chunk: a chunk of its own for state/workspaces.ts alone would
// split the first screen's shared chunk (it reaches i18n but not solid-js/web), which costs the first load ~1 KB.
export { startSavedWorkspace } from "../state/workspaces.ts";

/** How often the note asks the worker how the server workspace's calls go (the worker itself polls the server). */
const CONNECTION_CHECK_MS = 3000;

export function WorkspaceSwitcher() {
  const notices = useNotices();
  const workspace = useWorkspace();
  const [connection, setConnection] = createSignal<WorkspaceConnection>({ state: "online" });

  /** The servers again; the one on screen disconnected: back to this browser's workspace. */
  const refresh = () =>
    refreshServers().then(
      (list) => {
        if (currentId() !== THIS_BROWSER && !list.some((server) => server.id === currentId()))
          switchWorkspace(THIS_BROWSER);
      },
      () => undefined,
    );

  const check = async () => {
    if (!workspace) return;
    const next = await workspace.client.workspace.connection().catch(() => undefined);
    if (!next) return;
    const before = connection();
    setConnection(next);
    if (next.state !== "online" && (before.state === "online" || before.sentence !== next.sentence))
      notices.setNotice(next.sentence, { kind: "info" });
  };

  onMount(() => {
    void refresh();
    // Settings → Servers connected or disconnected one (its settings notice), here or in another tab.
    const changes = new BroadcastChannel(CHANGES_CHANNEL);
    changes.onmessage = (event: MessageEvent<unknown>) => {
      if (isChangeNotice(event.data) && event.data.type === "settings-changed") void refresh();
    };
    const timer = workspace ? setInterval(() => void check(), CONNECTION_CHECK_MS) : undefined;
    void check();
    onCleanup(() => {
      changes.close();
      clearInterval(timer);
    });
  });
  // Settings closed: a server may have been connected there.
  createEffect(on(notices.settingsOpen, (open) => !open && void refresh(), { defer: true }));

  const trouble = () => {
    const now = connection();
    return now.state === "online" ? undefined : now;
  };

  return (
    <Show when={servers().length > 0 || currentId() !== THIS_BROWSER}>
      <div class="workspace-switcher">
        <label for="workspace-select">{t("workspace.label")}</label>
        <select id="workspace-select" onChange={(event) => switchWorkspace(event.currentTarget.value)}>
          <option value={THIS_BROWSER} selected={currentId() === THIS_BROWSER}>
            {t("workspace.thisBrowser")}
          </option>
          <For each={servers()}>
            {(server) => (
              <option value={server.id} selected={currentId() === server.id}>
                {server.name}
              </option>
            )}
          </For>
        </select>
        <Show when={trouble()}>
          {(now) => (
            <p class="workspace-connection" data-state={now().state} role="status">
              {now().sentence}
            </p>
          )}
        </Show>
      </div>
    </Show>
  );
}
