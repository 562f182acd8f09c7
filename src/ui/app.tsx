// The app shell: sidebar, conversation and composer, the Terminal panel (loaded on demand), the Settings dialog,
// notices; and what spans them: keyboard shortcuts, the command palette, the shortcuts sheet, the phone layout's
// drawer (the sidebar, opened from the title bar's menu button).
import { createMemo, createSignal, lazy, Match, onCleanup, onMount, Show, Suspense, Switch } from "solid-js";
import type { PaletteCommand } from "./workspace/command-palette.tsx";
import { Composer } from "./composer/composer.tsx";
import { Conversation } from "./conversation/conversation.tsx";
import { SidePanels } from "./workspace/side-panels.tsx";
import { Sidebar } from "./threads/sidebar.tsx";
import { ThreadHeader } from "./threads/thread-header.tsx";
import { UpdatePrompt } from "./workspace/update-prompt.tsx";
import { SharedOriginNotice } from "./workspace/shared-origin-notice.tsx";
import { NoticeBanner } from "./shared/notice-banner.tsx";
import { connectGateway } from "./gateway-client.ts";
import { LANGUAGE_NAMES, locale, LOCALES, setLanguage, t } from "./i18n/index.ts";
import {
  isApplePlatform,
  isTextEntry,
  matchShortcut,
  shortcutKeys,
  type ShortcutAction,
} from "./workspace/shortcuts.ts";
import { setTheme, theme, THEME_CHOICES } from "./shared/theme.ts";
import { filesBeingWritten } from "./state/run-view.ts";
import { useGateway, useNotices, useOpenThread, useRuns, useThreadList, useWorkspace } from "./state/stores.tsx";
import { deferred } from "./shared/deferred.tsx";
import { StartStep } from "./shared/start-step.tsx";

// Not on the first screen, so chunks of their own (scripts/size.ts "initial"), each fetched the first time it opens (a
// dialog then opens as its chunk arrives; the click or key that asked for it is kept) or when the page is idle.
const SettingsDialog = deferred(() => import("./settings/settings-dialog.tsx").then((module) => module.SettingsDialog));
const CommandPalette = deferred(() =>
  import("./workspace/command-palette.tsx").then((module) => module.CommandPalette),
);
const ShortcutsHelp = deferred(() => import("./workspace/shortcuts-help.tsx").then((module) => module.ShortcutsHelp));
const PreviewDialog = deferred(() => import("./artifacts/preview-dialog.tsx").then((module) => module.PreviewDialog));
// An imported thread's bar (Replay, Continue this thread) and a replay's controls, in place of the composer.
const ImportedThreadBar = deferred(() =>
  import("./replay/imported-thread-bar.tsx").then((module) => module.ImportedThreadBar),
);
const ReplayControls = deferred(() => import("./replay/replay-controls.tsx").then((module) => module.ReplayControls));

/** The dialogs (and the replay's bars) fetched once the page is idle, so that opening one later has no wait (and works
 * offline); each through `schedule` (a task of its own when idle: each costs a little to fetch and to evaluate). */
export function preloadDialogs(schedule: (run: () => void) => void = (run) => run()): void {
  for (const dialog of [SettingsDialog, CommandPalette, ShortcutsHelp, ImportedThreadBar, ReplayControls])
    schedule(() => void dialog.preload().catch(() => undefined));
}

/** Whether `open()` has been true once: a deferred dialog mounts then and stays mounted (its state kept). */
function everOpened(open: () => boolean): () => boolean {
  return createMemo((was: boolean) => was || open(), false);
}

// Loaded when a shared thread arrives (a share link, a .fawn opened with the app): most visits have none.
const SharedThreadDialog = lazy(() =>
  import("./threads/shared-thread-dialog.tsx").then((module) => ({ default: module.SharedThreadDialog })),
);

// xterm is large: the panel's chunk loads the first time the Terminal is opened.
const TerminalPanel = lazy(() =>
  import("./terminal/terminal-panel.tsx").then((module) => ({ default: module.TerminalPanel })),
);

/** Where the sidebar becomes a drawer over the conversation (workspace/workspace.css uses the same width). */
const PHONE_QUERY = "(max-width: 720px)";

/** `init` loads the stores (stores.tsx) once the app is on screen. */
export function App(props: { init: () => Promise<void> }) {
  const client = useGateway();
  const threadList = useThreadList();
  const openThread = useOpenThread();
  const runs = useRuns();
  const notices = useNotices();
  const workspace = useWorkspace();
  const [terminalOpen, setTerminalOpen] = createSignal(false);
  /** Wide screens: the user hid the sidebar. */
  const [sidebarHidden, setSidebarHidden] = createSignal(false);
  /** Phones: the sidebar is open as a drawer over the conversation. */
  const [threadsOpen, setThreadsOpen] = createSignal(false);
  const [paletteOpen, setPaletteOpen] = createSignal(false);
  const [helpOpen, setHelpOpen] = createSignal(false);
  const phoneQuery = window.matchMedia(PHONE_QUERY);
  const [phone, setPhone] = createSignal(phoneQuery.matches);
  const mac = isApplePlatform(navigator.platform || navigator.userAgent);
  let root!: HTMLDivElement;

  const sidebarShown = () => (phone() ? threadsOpen() : !sidebarHidden());
  const closeThreads = (returnFocus: boolean) => {
    setThreadsOpen(false);
    if (returnFocus) root.querySelector<HTMLElement>(".threads-toggle")?.focus();
  };
  const toggleSidebar = () => {
    if (!phone()) {
      setSidebarHidden(!sidebarHidden());
      return;
    }
    if (threadsOpen()) return closeThreads(true);
    setThreadsOpen(true);
    (
      root.querySelector<HTMLElement>(".sidebar .thread-list a") ?? root.querySelector<HTMLElement>(".new-thread")
    )?.focus();
  };
  const focusComposer = () => {
    if (threadsOpen()) closeThreads(false);
    document.getElementById("composer-input")?.focus();
  };
  const newThread = () => void openThread.newThread().then(focusComposer);
  const toggleTerminal = () => setTerminalOpen(!terminalOpen());

  /** Performs `action`; false when it does not apply now (the key then keeps its usual meaning). */
  const perform = (action: ShortcutAction): boolean => {
    switch (action) {
      case "new-thread":
        newThread();
        return true;
      case "focus-composer":
        focusComposer();
        return true;
      case "toggle-sidebar":
        toggleSidebar();
        return true;
      case "stop":
        if (threadsOpen()) closeThreads(true);
        else if (runs.run()) void runs.stop();
        else return false;
        return true;
      case "open-settings":
        notices.setSettingsOpen(true);
        return true;
      case "command-palette":
        setPaletteOpen(true);
        return true;
      case "shortcuts-help":
        setHelpOpen(true);
        return true;
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented) return;
    const target = event.target instanceof Element ? event.target : null;
    // The terminal takes every key (Ctrl+L clears it, Ctrl+B moves back…); an open dialog takes Escape and the rest.
    // (The dialog "Shared thread" is not modal: the shortcuts keep working while a shared thread is read.)
    if (target?.closest(".xterm") || document.querySelector("dialog[open]:not(.shared-thread)")) return;
    const action = matchShortcut(event, { mac, typing: isTextEntry(target as HTMLElement | null) });
    if (action && perform(action)) event.preventDefault();
  };

  const settingsMounted = everOpened(notices.settingsOpen);
  const paletteMounted = everOpened(paletteOpen);
  const helpMounted = everOpened(helpOpen);
  /** Shown while a dialog asked for is on its way (a slow network's first visit only: they preload when idle). */
  const loadingDialog = () => (
    <p class="dialog-loading" role="status">
      {t("app.loadingDialog")}
    </p>
  );

  const keys = (action: ShortcutAction) => shortcutKeys(action, mac)[0];
  // Booleans, so that the list is not rebuilt on every streamed token.
  const hasThread = createMemo(() => Boolean(openThread.thread()));
  // What the side panels show (the thread's presented files, those being written, its plan), read once for the panels
  // and for the layout: when any shows, a wide screen gives them a column beside the conversation (workspace.css). A
  // class, not a `.main:has(…)` rule: Chromium checked such a rule again on every node a streaming reply put into the
  // page, and recalculated the style of the whole workspace each time.
  const sideFiles = createMemo(() => runs.run()?.artifacts ?? openThread.thread()?.artifacts ?? []);
  const sideWriting = createMemo(() => filesBeingWritten(runs.run()));
  const sideTodos = createMemo(() => runs.run()?.todos ?? openThread.thread()?.todos ?? []);
  const sidePanelsShown = createMemo(
    () => hasThread() && (sideFiles().length > 0 || sideWriting().length > 0 || sideTodos().length > 0),
  );
  const running = createMemo(() => Boolean(runs.run()));
  const commands = createMemo((): PaletteCommand[] => [
    { id: "new-thread", label: t("common.newThread"), keys: keys("new-thread"), run: newThread },
    { id: "focus-composer", label: t("common.focusComposer"), keys: keys("focus-composer"), run: focusComposer },
    {
      id: "open-settings",
      label: t("app.openSettings"),
      keys: keys("open-settings"),
      run: () => notices.setSettingsOpen(true),
    },
    { id: "toggle-sidebar", label: t("app.toggleSidebar"), keys: keys("toggle-sidebar"), run: toggleSidebar },
    ...(hasThread() ? [{ id: "toggle-terminal", label: t("app.toggleTerminal"), run: toggleTerminal }] : []),
    ...(running()
      ? [{ id: "stop", label: t("common.stopReply"), keys: keys("stop"), run: () => void runs.stop() }]
      : []),
    {
      id: "shortcuts-help",
      label: t("common.keyboardShortcuts"),
      keys: keys("shortcuts-help"),
      run: () => setHelpOpen(true),
    },
    ...THEME_CHOICES.filter((choice) => choice.value !== theme()).map((choice) => ({
      id: `theme-${choice.value}`,
      label: t("app.switchTheme", { theme: t(`theme.${choice.value}`) }),
      run: () => setTheme(choice.value),
    })),
    // Explicit languages only: "System" is chosen in Settings → Appearance, where its rule is explained.
    ...LOCALES.filter((choice) => choice !== locale()).map((choice) => ({
      id: `language-${choice}`,
      label: t("app.switchLanguage", { language: LANGUAGE_NAMES[choice] }),
      run: () => void setLanguage(choice),
    })),
  ]);

  onMount(() => {
    props.init().catch((error: unknown) => {
      notices.setNotice(t("app.storageFailed", { error: error instanceof Error ? error.message : String(error) }));
    });
    const onPhoneChange = (event: MediaQueryListEvent) => {
      setPhone(event.matches);
      if (!event.matches) setThreadsOpen(false);
    };
    phoneQuery.addEventListener("change", onPhoneChange);
    window.addEventListener("keydown", onKeyDown);
    onCleanup(openThread.shared.listen());
    onCleanup(() => {
      phoneQuery.removeEventListener("change", onPhoneChange);
      window.removeEventListener("keydown", onKeyDown);
    });
  });

  return (
    <div
      class="app"
      ref={root}
      data-sidebar={sidebarHidden() ? "hidden" : "shown"}
      data-threads={threadsOpen() ? "open" : "closed"}
      // On a phone, choosing a thread or a command in the drawer closes it (Import thread's menu and the search's
      // Clear button keep it open).
      onClick={(event) => {
        if (
          threadsOpen() &&
          event.target instanceof Element &&
          event.target.closest(".sidebar :is(a, .closes-drawer)")
        ) {
          setThreadsOpen(false);
        }
      }}
    >
      {/* The first render is cut into tasks (main.tsx): the shell, then each StartStep in turn. */}
      <StartStep>
        <Sidebar
          onShowShortcuts={() => setHelpOpen(true)}
          onImported={() => setThreadsOpen(false)}
          onClose={() => closeThreads(true)}
        />
      </StartStep>
      <Show when={phone() && threadsOpen()}>
        <div class="sidebar-scrim" aria-hidden="true" onClick={() => closeThreads(true)} />
      </Show>
      {/* While the thread list lies over it on a phone, the rest is out of reach of Tab and screen readers. */}
      <main class="main" classList={{ "with-side-panels": sidePanelsShown() }} inert={phone() && threadsOpen()}>
        <SharedOriginNotice />
        <NoticeBanner notice={notices.notice()} onDismiss={() => notices.setNotice(undefined)} />
        <StartStep>
          <ThreadHeader
            terminalOpen={terminalOpen()}
            onToggleTerminal={toggleTerminal}
            sidebarShown={sidebarShown()}
            onToggleSidebar={toggleSidebar}
            onShowShortcuts={() => setHelpOpen(true)}
          />
        </StartStep>
        <StartStep>
          <Conversation />
        </StartStep>
        <Show when={openThread.thread()}>
          {(thread) => (
            <SidePanels
              client={client}
              threadId={thread().thread_id}
              paths={sideFiles()}
              writing={sideWriting()}
              todos={sideTodos()}
              onPreview={notices.openPreview}
            />
          )}
        </Show>
        {/* An imported thread is read, replayed or continued; a replay takes the composer's place while it runs. */}
        <StartStep>
          <Switch fallback={<Composer />}>
            {/* A shared thread arriving: read first, then imported or let go. */}
            <Match when={openThread.shared.offer()}>
              <Suspense>
                <SharedThreadDialog
                  shared={openThread.shared}
                  onImported={(threadId) => void openThread.open(threadId)}
                  onPreview={notices.openPreview}
                />
              </Suspense>
            </Match>
            <Match when={openThread.replay()}>{(view) => <ReplayControls view={view()} />}</Match>
            <Match when={openThread.thread()?.read_only && openThread.thread()?.thread_id}>
              {(threadId) => <ImportedThreadBar threadId={threadId()} onContinued={focusComposer} />}
            </Match>
          </Switch>
        </StartStep>
        <Show when={terminalOpen() && !openThread.shared.reading() && !workspace && openThread.thread()}>
          {(thread) => (
            <Suspense
              fallback={
                <section class="terminal-panel" aria-label={t("common.terminal")} aria-busy="true">
                  <p class="terminal-loading">{t("app.loadingTerminal")}</p>
                </section>
              }
            >
              <TerminalPanel
                client={connectGateway()}
                threadId={thread().thread_id}
                threadIds={threadList.threads().map((summary) => summary.thread_id)}
              />
            </Suspense>
          )}
        </Show>
      </main>
      <Show when={notices.previewing()} keyed>
        {(open) => (
          <PreviewDialog
            client={client}
            threadId={open.threadId}
            path={open.path}
            onClose={() => notices.closePreview(open)}
          />
        )}
      </Show>
      <Show when={settingsMounted()}>
        <SettingsDialog fallback={loadingDialog()} />
      </Show>
      <Show when={paletteMounted()}>
        <CommandPalette
          fallback={loadingDialog()}
          open={paletteOpen()}
          onClose={() => setPaletteOpen(false)}
          commands={commands()}
          threads={threadList.threads()}
          onOpenThread={(threadId) => void openThread.open(threadId).then(focusComposer)}
        />
      </Show>
      <Show when={helpMounted()}>
        <ShortcutsHelp fallback={loadingDialog()} open={helpOpen()} mac={mac} onClose={() => setHelpOpen(false)} />
      </Show>
      <UpdatePrompt />
    </div>
  );
}
