// The title bar: "Show threads" (on a phone, or when the sidebar is hidden), the open thread's title and token
// total, the "Keyboard shortcuts" button, the Terminal toggle, and the thread's actions (Rename, Pin, Export, Copy to…,
// Share link, Uploads, Sandbox log, Schedule…, Delete).
// On a phone it is the only bar: Terminal and Thread actions become icons (their names stay, visually hidden), the
// token total moves into the actions menu, and "Keyboard shortcuts" into the drawer (threads.css). Rename asks for
// the title in a dialog; Delete asks in a dialog first; Replay plays the thread back in place of the composer.
import { createMemo, createSignal, lazy, onCleanup, Show, Suspense } from "solid-js";
import type { ThreadExportFormat, WireMessage } from "../../protocol/index.ts";
import { useGateway, useOpenThread, useRuns, useThreadList, useWorkspace } from "../state/stores.tsx";
import { t } from "../i18n/index.ts";
import { formatCount, threadUsage, usageDetail } from "../conversation/message-usage.ts";
import { errorMessage } from "../gateway-client.ts";
import { DeleteThreadDialog } from "./delete-thread-dialog.tsx";
import { ShareLinkDialog } from "./share-link-dialog.tsx";

// Thread actions → "Copy to…" (another workspace): its own chunk, loaded when the menu first opens.
const CopyToMenu = lazy(() => import("./copy-to-menu.tsx").then((module) => ({ default: module.CopyToMenu })));

// Loaded the first time a thread is renamed: the first screen's script stays within its budget.
const RenameThreadDialog = lazy(() =>
  import("./rename-thread-dialog.tsx").then((module) => ({ default: module.RenameThreadDialog })),
);

// Thread actions → "Uploads" and "Sandbox log": dialogs of their own chunk, loaded when first opened.
const UploadsDialog = lazy(() => import("./uploads-dialog.tsx").then((module) => ({ default: module.UploadsDialog })));
const SandboxLogDialog = lazy(() =>
  import("./sandbox-log-dialog.tsx").then((module) => ({ default: module.SandboxLogDialog })),
);

// Thread actions → "Schedule…": the thread's scheduled runs (src/ui/schedules/), a chunk loaded when first opened.
const ScheduleDialog = lazy(() =>
  import("../schedules/schedule-dialog.tsx").then((module) => ({ default: module.ScheduleDialog })),
);

const NO_MESSAGES: readonly WireMessage[] = [];

/**
 * `terminalOpen` and `onToggleTerminal` drive the "Terminal" button, which shows or hides region "Terminal";
 * `sidebarShown` and `onToggleSidebar` the "Show threads" button; `onShowShortcuts` the "Keyboard shortcuts" one.
 */
export function ThreadHeader(props: {
  terminalOpen: boolean;
  onToggleTerminal: () => void;
  sidebarShown: boolean;
  onToggleSidebar: () => void;
  onShowShortcuts: () => void;
}) {
  const client = useGateway();
  const threadList = useThreadList();
  const openThread = useOpenThread();
  const runs = useRuns();
  const workspace = useWorkspace();
  const [open, setOpen] = createSignal(false);
  let menu: HTMLDivElement | undefined;
  const close = (event: MouseEvent) => {
    if (menu && !menu.contains(event.target as Node)) setOpen(false);
  };
  document.addEventListener("click", close);
  onCleanup(() => document.removeEventListener("click", close));

  /** The thread Rename asks about, while its dialog is open. */
  const [renaming, setRenaming] = createSignal<{ threadId: string; title: string } | undefined>();
  /** Whether Rename has been asked for once: its dialog mounts then and stays. */
  const renamedOnce = createMemo((was: boolean) => was || renaming() !== undefined, false);
  const rename = () => {
    setOpen(false);
    const thread = openThread.thread();
    if (thread) setRenaming({ threadId: thread.thread_id, title: thread.title });
  };
  /** Stores the new title; the Gateway's refusal comes back as the dialog's error. */
  const saveTitle = async (title: string): Promise<string | undefined> => {
    const asked = renaming();
    if (!asked) return undefined;
    try {
      await client.threads.rename(asked.threadId, title);
      return undefined;
    } catch (error) {
      return errorMessage(error);
    }
  };
  const [exporting, setExporting] = createSignal(false);
  /** The thread whose share link is shown (the dialog "Share link"). */
  const [sharing, setSharing] = createSignal<string | undefined>();
  const exportAs = (format: ThreadExportFormat) => {
    setOpen(false);
    setExporting(false);
    const thread = openThread.thread();
    if (thread) void threadList.export(thread.thread_id, format);
  };
  /** The thread Delete asks about, while its dialog is open. */
  const [deleting, setDeleting] = createSignal<{ threadId: string; title: string } | undefined>();
  const remove = () => {
    setOpen(false);
    const thread = openThread.thread();
    if (thread) setDeleting({ threadId: thread.thread_id, title: thread.title });
  };
  const answered = (confirmed: boolean) => {
    const asked = deleting();
    setDeleting(undefined);
    if (asked && confirmed) void threadList.delete(asked.threadId);
  };
  const replay = () => {
    setOpen(false);
    void openThread.startReplay();
  };
  /** The thread whose uploads or sandbox log is shown; each dialog mounts the first time it is asked for. */
  const [records, setRecords] = createSignal<{ kind: "uploads" | "sandbox-log"; threadId: string } | undefined>();
  const recordsShown = createMemo(
    (was: { uploads: boolean; log: boolean }) => {
      const asked = records();
      return { uploads: was.uploads || asked?.kind === "uploads", log: was.log || asked?.kind === "sandbox-log" };
    },
    { uploads: false, log: false },
  );
  const showRecords = (kind: "uploads" | "sandbox-log") => {
    setOpen(false);
    const thread = openThread.thread();
    if (thread) setRecords({ kind, threadId: thread.thread_id });
  };

  /** The thread whose schedules are shown (dialog "Schedule"), mounted the first time it is asked for. */
  const [scheduling, setScheduling] = createSignal<string | undefined>();
  const scheduledOnce = createMemo((was: boolean) => was || scheduling() !== undefined, false);

  // The live run's completed messages change by reference only when a step completes, not on every token.
  const produced = createMemo(() => runs.run()?.produced ?? NO_MESSAGES);
  const usage = createMemo(() => threadUsage(openThread.thread()?.entries ?? [], produced()));

  return (
    <header class="thread-header" classList={{ empty: !openThread.thread() }}>
      <button
        type="button"
        class="ghost threads-toggle"
        aria-label={t("header.showThreads")}
        aria-expanded={props.sidebarShown}
        onClick={() => props.onToggleSidebar()}
      >
        <span aria-hidden="true">☰</span> <span class="threads-toggle-label">{t("common.threads")}</span>
      </button>
      <Show when={openThread.thread()} fallback={<span class="header-brand">Fawn</span>}>
        {(thread) => <h1 class="thread-title">{thread().title}</h1>}
      </Show>
      <div class="thread-header-actions">
        <Show when={openThread.thread() && usage()}>
          {(total) => (
            <span class="thread-tokens" title={usageDetail(total())}>
              {t("header.tokens", { count: formatCount(total().total_tokens) })}
            </span>
          )}
        </Show>
        <button
          type="button"
          class="ghost icon shortcuts-button"
          aria-label={t("common.keyboardShortcuts")}
          title={t("header.shortcutsTitle")}
          onClick={() => props.onShowShortcuts()}
        >
          ?
        </button>
        {/* A shared thread being read is not stored yet: nothing to act on, no sandbox. */}
        <Show when={!openThread.shared.reading() && openThread.thread()}>
          {(thread) => (
            <>
              <button
                type="button"
                class="ghost terminal-toggle"
                // A server's thread has its sandbox on the server: this browser's Terminal is not its.
                hidden={Boolean(workspace)}
                aria-expanded={props.terminalOpen}
                aria-controls="terminal-panel"
                onClick={() => props.onToggleTerminal()}
              >
                <svg class="header-icon" aria-hidden="true" viewBox="0 0 24 24" width="18" height="18">
                  <path
                    d="M4 6.5 9 12l-5 5.5M12 18h8"
                    fill="none"
                    stroke="currentColor"
                    stroke-width="1.9"
                    stroke-linecap="round"
                    stroke-linejoin="round"
                  />
                </svg>
                <span class="header-label">{t("common.terminal")}</span>
              </button>
              <div class="menu-anchor" ref={menu}>
                <button
                  type="button"
                  class="ghost"
                  aria-haspopup="menu"
                  aria-expanded={open()}
                  onClick={() => setOpen(!open())}
                >
                  <svg class="header-icon" aria-hidden="true" viewBox="0 0 24 24" width="18" height="18">
                    <circle cx="5" cy="12" r="1.8" fill="currentColor" />
                    <circle cx="12" cy="12" r="1.8" fill="currentColor" />
                    <circle cx="19" cy="12" r="1.8" fill="currentColor" />
                  </svg>
                  <span class="header-label">{t("header.threadActions")}</span>
                </button>
                <Show when={open()}>
                  <div class="menu" role="menu" aria-label={t("header.threadActions")}>
                    {/* The phone's title bar has no room for the token total; it is shown here instead. */}
                    <Show when={usage()}>
                      {(total) => (
                        <div class="menu-note menu-tokens" role="none" title={usageDetail(total())}>
                          {t("header.tokens", { count: formatCount(total().total_tokens) })}
                        </div>
                      )}
                    </Show>
                    <button type="button" role="menuitem" onClick={rename}>
                      {t("header.rename")}
                    </button>
                    <button
                      type="button"
                      role="menuitem"
                      onClick={() => {
                        setOpen(false);
                        void threadList.pin(thread().thread_id, !thread().pinned);
                      }}
                    >
                      {thread().pinned ? t("header.unpin") : t("header.pin")}
                    </button>
                    <button
                      type="button"
                      role="menuitem"
                      aria-haspopup="menu"
                      aria-expanded={exporting()}
                      onClick={() => setExporting(!exporting())}
                    >
                      {t("header.export")}
                    </button>
                    <Show when={exporting()}>
                      <div class="menu submenu" role="menu" aria-label={t("header.export")}>
                        <button type="button" role="menuitem" onClick={() => exportAs("fawn")}>
                          {t("header.exportFawn")}
                        </button>
                        <button type="button" role="menuitem" onClick={() => exportAs("markdown")}>
                          {t("header.exportMarkdown")}
                        </button>
                        <button type="button" role="menuitem" onClick={() => exportAs("deerflow")}>
                          {t("header.exportDeerFlow")}
                        </button>
                      </div>
                    </Show>
                    <Suspense>
                      <CopyToMenu threadId={thread().thread_id} onDone={() => setOpen(false)} />
                    </Suspense>
                    <Show when={!openThread.replay() && !runs.run() && thread().entries.length > 0}>
                      <button type="button" role="menuitem" onClick={replay}>
                        {t("replay.start")}
                      </button>
                    </Show>
                    <button
                      type="button"
                      role="menuitem"
                      onClick={() => {
                        setOpen(false);
                        setSharing(thread().thread_id);
                      }}
                    >
                      {t("share.menuItem")}
                    </button>
                    <button type="button" role="menuitem" onClick={() => showRecords("uploads")}>
                      {t("header.uploads")}
                    </button>
                    <button type="button" role="menuitem" onClick={() => showRecords("sandbox-log")}>
                      {t("header.sandboxLog")}
                    </button>
                    <button
                      type="button"
                      role="menuitem"
                      onClick={() => {
                        setOpen(false);
                        setScheduling(thread().thread_id);
                      }}
                    >
                      {t("header.schedule")}
                    </button>
                    {/* Another person's messages: memory stays out of this thread until the user turns it on. */}
                    <Show when={thread().foreign}>
                      {(foreign) => (
                        <button
                          type="button"
                          role="menuitemcheckbox"
                          aria-checked={foreign().memory === true}
                          onClick={() => {
                            setOpen(false);
                            void threadList.setMemory(thread().thread_id, foreign().memory !== true);
                          }}
                        >
                          <span class="menu-check" aria-hidden="true">
                            {foreign().memory === true ? "✓" : ""}
                          </span>
                          {t("header.threadMemory")}
                        </button>
                      )}
                    </Show>
                    <button type="button" role="menuitem" class="danger-text" onClick={remove}>
                      {t("common.delete")}
                    </button>
                  </div>
                </Show>
              </div>
              <ShareLinkDialog
                client={client}
                threadId={sharing()}
                onExportFawn={(threadId) => void threadList.export(threadId, "fawn")}
                onClose={() => setSharing(undefined)}
              />
            </>
          )}
        </Show>
      </div>
      <DeleteThreadDialog title={deleting()?.title} onClose={answered} />
      <Show when={recordsShown().uploads}>
        <Suspense>
          <UploadsDialog
            client={client}
            threadId={records()?.kind === "uploads" ? records()?.threadId : undefined}
            onClose={() => setRecords(undefined)}
          />
        </Suspense>
      </Show>
      <Show when={recordsShown().log}>
        <Suspense>
          <SandboxLogDialog
            client={client}
            threadId={records()?.kind === "sandbox-log" ? records()?.threadId : undefined}
            onClose={() => setRecords(undefined)}
          />
        </Suspense>
      </Show>
      <Show when={scheduledOnce()}>
        <Suspense>
          <ScheduleDialog
            client={client}
            threadId={scheduling()}
            serverName={workspace ? (workspace.server()?.name ?? workspace.id) : undefined}
            onClose={() => setScheduling(undefined)}
          />
        </Suspense>
      </Show>
      <Show when={renamedOnce()}>
        <Suspense>
          <RenameThreadDialog title={renaming()?.title} onSave={saveTitle} onClose={() => setRenaming(undefined)} />
        </Suspense>
      </Show>
    </header>
  );
}
