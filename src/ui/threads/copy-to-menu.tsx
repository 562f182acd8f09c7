// Thread actions → "Copy to…": a submenu of the other workspaces (this browser's, each connected server's); the
// thread goes there as a `.fawn` (messages, history and files; state/workspaces.ts copyThread), and the notice line
// says where, with "Open the copy". Shown only when there is another workspace. Its own chunk: not on the first screen.
import { createSignal, For, Show } from "solid-js";
import { errorMessage } from "../gateway-client.ts";
import { t } from "../i18n/index.ts";
import { useNotices } from "../state/stores.tsx";
import { copyThread, currentId, servers, switchWorkspace, THIS_BROWSER, workspaceName } from "../state/workspaces.ts";

/** `onDone` closes the Thread actions menu once a workspace is chosen. */
export function CopyToMenu(props: { threadId: string; onDone: () => void }) {
  const notices = useNotices();
  const [open, setOpen] = createSignal(false);
  const targets = () => [THIS_BROWSER, ...servers().map((server) => server.id)].filter((id) => id !== currentId());

  const copy = (targetId: string) => {
    const name = workspaceName(targetId);
    props.onDone();
    notices.setNotice(t("workspace.copying", { name }), { kind: "info" });
    copyThread(props.threadId, targetId).then(
      (copied) =>
        notices.setNotice(t("workspace.copied", { name }), {
          kind: "success",
          action: {
            label: t("workspace.openCopy"),
            run: () => switchWorkspace(targetId, { then: (stores) => void stores.openThread.open(copied.thread_id) }),
          },
        }),
      (error: unknown) => notices.setNotice(t("workspace.notCopied", { name, error: errorMessage(error) })),
    );
  };

  return (
    <Show when={targets().length > 0}>
      <button
        type="button"
        role="menuitem"
        aria-haspopup="menu"
        aria-expanded={open()}
        onClick={() => setOpen(!open())}
      >
        {t("workspace.copyTo")}
      </button>
      <Show when={open()}>
        <div class="menu submenu" role="menu" aria-label={t("workspace.copyTo")}>
          <For each={targets()}>
            {(id) => (
              <button type="button" role="menuitem" onClick={() => copy(id)}>
                {workspaceName(id)}
              </button>
            )}
          </For>
        </div>
      </Show>
    </Show>
  );
}
