// The UI's state: threads, the open thread, the live run, settings; all data comes from the Gateway.
import { batch, createSignal } from "solid-js";
import type { ModelSettings, RunEvent, ThreadDetail, ThreadSummary } from "../protocol/index.ts";
import { CHANGES_CHANNEL, isChangeNotice, PROTOCOL_VERSION, type ChangeNotice } from "../protocol/index.ts";
import { newId } from "../shared/ids.ts";
import { errorMessage, streamRun, type GatewayClient } from "./gateway-client.ts";
import { applyRunEvent, startRunView, type RunView } from "./run-view.ts";
import { createWebContainerStarter } from "./webcontainer-starter.ts";

function threadIdFromHash(): string | undefined {
  const match = /^#\/t\/([\w-]+)$/.exec(location.hash);
  return match?.[1];
}

export function createAppState(client: GatewayClient) {
  const [threads, setThreads] = createSignal<ThreadSummary[]>([]);
  const [thread, setThread] = createSignal<ThreadDetail | undefined>();
  /** Live runs by thread id: threads run side by side, one run per thread. */
  const [runs, setRuns] = createSignal<Readonly<Record<string, RunView>>>({});
  const run = () => runs()[thread()?.thread_id ?? ""];
  const isRunning = (threadId: string) => threadId in runs();
  const setRun = (threadId: string, update: (view: RunView | undefined) => RunView | undefined) =>
    setRuns((all) => {
      const next = { ...all };
      const view = update(all[threadId]);
      if (view) next[threadId] = view;
      else delete next[threadId];
      return next;
    });
  const [settings, setSettings] = createSignal<ModelSettings | undefined>();
  const [notice, setNotice] = createSignal<string | undefined>();
  const [settingsOpen, setSettingsOpen] = createSignal(false);
  const webContainer = createWebContainerStarter(client, setNotice);

  async function refreshThreads(): Promise<void> {
    setThreads(await client.listThreads());
  }

  async function openThread(threadId: string | undefined): Promise<void> {
    if (!threadId) {
      setThread(undefined);
      if (location.hash) history.replaceState(null, "", location.pathname + location.search);
      return;
    }
    const detail = await client.getThread(threadId);
    setThread(detail);
    if (!detail) setNotice("That thread no longer exists.");
    const hash = detail ? `#/t/${detail.thread_id}` : "";
    if (location.hash !== hash) history.pushState(null, "", hash || location.pathname + location.search);
  }

  async function init(): Promise<void> {
    const version = await client.protocolVersion();
    if (version !== PROTOCOL_VERSION) setNotice("Fawn was updated. Reload the page to use the new version.");
    const [, loaded] = await Promise.all([refreshThreads(), client.getModelSettings()]);
    setSettings(loaded);
    // The user may have started a thread while storage was opening: keep it rather than the address's.
    const fromHash = threadIdFromHash();
    if (fromHash && !thread()) await openThread(fromHash);
    window.addEventListener("popstate", () => void openThread(threadIdFromHash()));
    void webContainer.startIfChosen().catch(() => undefined);
    const changes = new BroadcastChannel(CHANGES_CHANNEL);
    changes.onmessage = (event: MessageEvent<unknown>) => {
      if (isChangeNotice(event.data)) void applyChange(event.data);
    };
  }

  /** Another tab (or this tab's worker) changed data: refresh what is shown, unless a run here is writing it. */
  async function applyChange(notice: ChangeNotice): Promise<void> {
    if (notice.type === "settings-changed") {
      setSettings(await client.getModelSettings());
      return;
    }
    await refreshThreads();
    const open = thread();
    if (!open || open.thread_id !== notice.thread_id) return;
    if (notice.type === "thread-deleted") {
      await openThread(undefined);
      setNotice("This thread was deleted in another tab.");
    } else {
      await reloadIfOpen(open.thread_id);
    }
  }

  /** Sends `text` to the open thread (creating one when none is open) and streams the reply. */
  async function send(text: string): Promise<void> {
    if (text.trim().length === 0 || run()) return;
    let current = thread();
    if (!current) {
      const created = await client.createThread();
      current = { ...created, entries: [] };
      setThread(current);
      history.pushState(null, "", `#/t/${created.thread_id}`);
    }
    const threadId = current.thread_id;
    const historyLength = current.entries.filter((entry) => entry.kind === "message").length;
    const runId = newId();
    setRun(threadId, () => startRunView(runId, threadId, text, historyLength));
    void refreshThreads();
    // Events come through their own message port, so the call can return before the last events arrive:
    // the run is over for the UI when `end` has been applied.
    let endApplied!: () => void;
    const ended = new Promise<void>((resolve) => (endApplied = resolve));
    const onEvent = (event: RunEvent): void => {
      setRun(threadId, (view) => (view && view.runId === runId ? applyRunEvent(view, event) : view));
      if (event.event === "end") endApplied();
    };
    try {
      await streamRun(
        client,
        { run_id: runId, thread_id: threadId, input: { messages: [{ type: "human", content: text }] } },
        onEvent,
      );
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 5000))]);
    } catch (error) {
      setNotice(`The run could not start: ${errorMessage(error)}`);
    }
    const last = runs()[threadId];
    // A refused run (busy in another tab) saved nothing: keep its reason on screen.
    if (last?.runId === runId && last.error?.error === "busy") setNotice(last.error.message);
    const detail = await client.getThread(threadId);
    batch(() => {
      if (thread()?.thread_id === threadId) setThread(detail);
      setRun(threadId, () => undefined);
    });
    await refreshThreads();
  }

  async function stop(): Promise<void> {
    const view = run();
    if (view) await client.cancelRun(view.runId);
  }

  async function newThread(): Promise<void> {
    await openThread(undefined);
  }

  /** Applies a change to a thread, then shows it; a refusal becomes a notice. */
  async function changeThread(threadId: string, change: () => Promise<unknown>): Promise<void> {
    try {
      await change();
      await Promise.all([refreshThreads(), reloadIfOpen(threadId)]);
    } catch (error) {
      setNotice(errorMessage(error));
    }
  }

  const renameThread = (threadId: string, title: string) =>
    changeThread(threadId, () => client.renameThread(threadId, title));
  const pinThread = (threadId: string, pinned: boolean) =>
    changeThread(threadId, () => client.pinThread(threadId, pinned));

  async function deleteThread(threadId: string): Promise<void> {
    try {
      await client.deleteThread(threadId);
      if (thread()?.thread_id === threadId) await openThread(undefined);
      await refreshThreads();
    } catch (error) {
      setNotice(errorMessage(error));
    }
  }

  async function reloadIfOpen(threadId: string): Promise<void> {
    if (thread()?.thread_id !== threadId || isRunning(threadId)) return;
    const detail = await client.getThread(threadId);
    if (thread()?.thread_id === threadId && !isRunning(threadId)) setThread(detail);
  }

  async function saveSettings(next: ModelSettings): Promise<ModelSettings> {
    const saved = await client.saveModelSettings(next);
    setSettings(saved);
    return saved;
  }

  return {
    client,
    webContainer,
    threads,
    thread,
    run,
    isRunning,
    settings,
    notice,
    setNotice,
    settingsOpen,
    setSettingsOpen,
    init,
    send,
    stop,
    newThread,
    openThread,
    renameThread,
    pinThread,
    deleteThread,
    saveSettings,
    listModels: (endpoint: Pick<ModelSettings, "baseUrl" | "apiKey">) => client.listModels(endpoint),
  };
}

export type AppState = ReturnType<typeof createAppState>;
