// The UI's stores, made once per workspace shown (this browser's, or a server's: state/workspaces.ts) and provided to
// every component through Solid's context: the thread list, the open thread (with its address and replay), runs, the
// model choice, notices and dialogs, and the composer's extras. A component takes the one it uses (useRuns(),
// useOpenThread()…). State modules import no feature folder (lint).
import { createContext, createSignal, useContext, type JSX } from "solid-js";
import {
  CHANGES_CHANNEL,
  isChangeNotice,
  PROTOCOL_VERSION,
  type ChangeNotice,
  type ServerSummary,
} from "../../protocol/index.ts";
import type { GatewayClient, WorkspaceClient } from "../gateway-client.ts";
import { t } from "../i18n/index.ts";
import { GATEWAY_READY_MARK } from "../shared/perf-marks.ts";
import { createWebContainerStarter } from "../webcontainer-starter.ts";
import { createAgentChoice } from "./agent-choice.ts";
import { createComposerExtras } from "./composer-extras.ts";
import { createModelChoice } from "./model-choice.ts";
import { createNotices } from "./notices.ts";
import { createOpenThread, threadIdFromHash } from "./open-thread.ts";
import { createRuns } from "./runs.ts";
import { createThreadList } from "./thread-list-store.ts";

/** A server's workspace the stores are made over (state/workspaces.ts); absent: this browser's. */
export interface StoresWorkspace {
  id: string;
  client: WorkspaceClient;
  /** Its server's record, once known (its name, what it offers). */
  server: () => ServerSummary | undefined;
}

/**
 * Makes the stores over `client` (this browser's Gateway, or a server's workspace with its change `channel`); `init`
 * then loads them and follows changes made elsewhere, until `dispose`.
 */
export function createStores(
  client: GatewayClient,
  options: { channel?: string; workspace?: StoresWorkspace; onInit?: () => void } = {},
) {
  const cleanups: (() => void)[] = [];
  // The stores ask each other through functions, called only once all are made.
  const notices = createNotices({
    openThreadId: () => openThread.current()?.thread_id,
    shownThreadId: () => openThread.thread()?.thread_id,
  });
  const openThread = createOpenThread({
    client,
    notices,
    isRunning: (id) => runs.isRunning(id),
    onOpened: (id) => void composerExtras.refreshUsage(id),
  });
  const modelChoice = createModelChoice(client);
  /** Follow-up suggestions, the context gauge, slash commands' work, and filling the composer. */
  const composerExtras = createComposerExtras({
    client,
    threadId: () => openThread.current()?.thread_id,
    model: modelChoice.runModel,
    setNotice: notices.setNotice,
  });
  const agentChoice = createAgentChoice({ client, thread: openThread.current });
  const runs = createRuns({ client, notices, openThread, modelChoice, agentChoice, composerExtras });
  const threadList = createThreadList({ client, notices, openThread });
  const webContainer = createWebContainerStarter(client, notices.setNotice);

  /** Another tab (or this tab's worker) changed data: refresh what is shown, unless a run here is writing it. */
  async function applyChange(notice: ChangeNotice): Promise<void> {
    // Settings → Memory listens for its own notices.
    if (notice.type === "memory-changed") return;
    if (notice.type === "settings-changed") {
      void agentChoice.reload();
      return modelChoice.reload();
    }
    await threadList.refresh();
    const open = openThread.current();
    if (notice.type === "threads-replaced") {
      if (!open) return;
      // The open thread may be gone (all data deleted) or unchanged (a backup adds threads, never replaces one).
      if (threadList.threads().some((summary) => summary.thread_id === open.thread_id))
        await openThread.reloadIfOpen(open.thread_id);
      else await openThread.open(undefined);
      return;
    }
    if (!open || open.thread_id !== notice.thread_id) return;
    if (notice.type === "thread-deleted") {
      await openThread.open(undefined);
      notices.setNotice(t("notice.deletedElsewhere"));
    } else {
      await openThread.reloadIfOpen(open.thread_id);
    }
  }

  async function init(): Promise<void> {
    // Listen before the first load: a change made while storage opens (a thread imported right away) must still
    // refresh the list, which the first load may have read before it.
    const changes = new BroadcastChannel(options.channel ?? CHANGES_CHANNEL);
    cleanups.push(() => changes.close());
    changes.onmessage = (event: MessageEvent<unknown>) => {
      if (isChangeNotice(event.data)) void applyChange(event.data);
    };
    const version = await client.protocolVersion();
    // The agent worker has answered its first call (bench/app-load.ts reads this mark).
    performance.mark(GATEWAY_READY_MARK);
    if (version !== PROTOCOL_VERSION) notices.setNotice(t("notice.updated"));
    await Promise.all([threadList.refresh(), modelChoice.reload(), agentChoice.reload()]);
    // The user may have started a thread while storage was opening: keep it rather than the address's.
    const fromHash = threadIdFromHash();
    if (fromHash && !openThread.current()) await openThread.open(fromHash);
    cleanups.push(openThread.followAddress());
    // Memory updates wait a while after a run; a tab being hidden (or closed) may not come back, so apply them now.
    const flush = () => {
      if (document.visibilityState === "hidden") void client.memory.flush().catch(() => undefined);
    };
    document.addEventListener("visibilitychange", flush);
    cleanups.push(() => document.removeEventListener("visibilitychange", flush));
    // A server thread's sandbox is on the server: only this browser's workspace starts the page's WebContainer.
    if (!options.workspace) void webContainer.startIfChosen().catch(() => undefined);
    options.onInit?.();
  }

  return {
    client,
    threadList,
    openThread,
    runs,
    modelChoice,
    agentChoice,
    notices,
    composerExtras,
    webContainer,
    init,
    workspace: options.workspace,
    /** Stops following changes and the address (the page switched to another workspace). */
    dispose: () => cleanups.splice(0).forEach((cleanup) => cleanup()),
  };
}

export type Stores = ReturnType<typeof createStores>;

const StoresContext = createContext<Stores>();

/** The stores on screen: main.tsx shows the app over them; switching workspace replaces them (state/workspaces.ts). */
export const [shownStores, showStores] = createSignal<Stores>();

/** Gives the stores to every component below it. */
export function StoresProvider(props: { stores: Stores; children: JSX.Element }) {
  return <StoresContext.Provider value={props.stores}>{props.children}</StoresContext.Provider>;
}

/** The stores (a component rendered outside StoresProvider fails on its first use of one). */
const useStores = () => useContext(StoresContext)!;

/** The Gateway client, for a component's own calls (a panel's files, a dialog's settings). */
export const useGateway = () => useStores().client;
export const useThreadList = () => useStores().threadList;
export const useOpenThread = () => useStores().openThread;
export const useRuns = () => useStores().runs;
export const useModelChoice = () => useStores().modelChoice;
/** The user's custom agents and the one the next message goes to (the composer's "Agent"). */
export const useAgentChoice = () => useStores().agentChoice;
export const useNotices = () => useStores().notices;
export const useComposerExtras = () => useStores().composerExtras;
/** Starts the page's WebContainer when Settings → Sandbox chooses it. */
export const useWebContainer = () => useStores().webContainer;
/** The server workspace on screen; undefined in this browser's. */
export const useWorkspace = () => useStores().workspace;
