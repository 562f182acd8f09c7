// The workspaces: this browser's, and a workspace per connected server (Settings → Servers). The one on screen has
// stores of its own (stores.tsx `showStores`): switching makes them over the server's workspace (`openWorkspace`,
// a comlink proxy of the agent worker's RemoteWorkspace) with its change channel, and drops the previous ones. The
// choice is kept across reloads (localStorage `fawn.workspace`). Loaded on first use: the first screen has none of it.
import { createEffect, createRoot, createSignal, untrack } from "solid-js";
import { workspaceChannel, type ServerSummary, type ThreadSummary } from "../../protocol/index.ts";
import { connectGateway, errorMessage, type GatewayClient, type WorkspaceClient } from "../gateway-client.ts";
import { t } from "../i18n/index.ts";
import { laterClient } from "./later-client.ts";
import { joinRun } from "./run-join.ts";
import { createStores, showStores, shownStores, type Stores } from "./stores.tsx";

/** Where the choice is kept (main.tsx reads it too, by its value); absent: this browser's workspace. */
const WORKSPACE_KEY = "fawn.workspace";
/** The id of this browser's workspace (a server's is its server id). */
export const THIS_BROWSER = "browser";

const [servers, setServers] = createSignal<ServerSummary[]>([]);
const [currentId, setCurrentId] = createSignal(savedWorkspace() ?? THIS_BROWSER);

/** The connected servers, as last listed (refreshServers). */
export { servers };
/** The workspace on screen: THIS_BROWSER or a server's id. */
export { currentId };

/** The workspace kept from the last visit, if it is a server's. */
function savedWorkspace(): string | undefined {
  try {
    return localStorage.getItem(WORKSPACE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

function keep(id: string): void {
  try {
    if (id === THIS_BROWSER) localStorage.removeItem(WORKSPACE_KEY);
    else localStorage.setItem(WORKSPACE_KEY, id);
  } catch {
    // Storage refused (private mode): the choice lasts this visit.
  }
}

/** Reads the connected servers again (after Settings → Servers changed them). */
export async function refreshServers(): Promise<ServerSummary[]> {
  const list = await connectGateway().servers.list();
  setServers(list);
  return list;
}

/** A workspace's name as the switcher shows it. */
export function workspaceName(id: string): string {
  if (id === THIS_BROWSER) return t("workspace.thisBrowser");
  return servers().find((server) => server.id === id)?.name ?? id;
}

/** Opens server `id`'s workspace (its watch starts; the worker keeps one per server). */
export async function openWorkspace(id: string): Promise<WorkspaceClient> {
  return (await connectGateway().openWorkspace(id)) as unknown as WorkspaceClient;
}

/** The workspace's client to call once, e.g. Copy to…'s target: this browser's Gateway, or the server's workspace. */
export async function workspaceClient(id: string): Promise<GatewayClient> {
  return id === THIS_BROWSER ? connectGateway() : openWorkspace(id);
}

/** Ends what the stores on screen follow: their listeners, a server's watch, a joined run's effect. */
let closeShown: (() => void) | undefined;

/**
 * Shows workspace `id`: new stores over it, shown at once (their calls wait for the workspace to open). A server that
 * cannot be opened (disconnected meanwhile, or the worker refuses) leaves this browser's workspace shown, with the
 * reason in its notice line.
 */
export function switchWorkspace(
  id: string,
  options: { then?: (stores: Stores) => void; keepAddress?: boolean } = {},
): Stores {
  const { then } = options;
  // The stores main.tsx made at the page's start were never given a closeShown: they end here too.
  if (closeShown) closeShown();
  else shownStores()?.dispose();
  keep(id);
  setCurrentId(id);
  // The address named a thread of the previous workspace (at the page's start, of this one).
  if (location.hash && !options.keepAddress) history.replaceState(null, "", location.pathname + location.search);
  if (id === THIS_BROWSER) {
    const stores = createStores(connectGateway(), { ...(then && { onInit: () => then(stores) }) });
    closeShown = stores.dispose;
    showStores(stores);
    return stores;
  }
  const opening = openWorkspace(id);
  const [server, setServer] = createSignal(servers().find((known) => known.id === id));
  const client = laterClient(opening);
  const stores = createStores(client, {
    channel: workspaceChannel(id),
    workspace: { id, client, server },
    ...(then && { onInit: () => then(stores) }),
  });
  // A run started elsewhere (another device, another tab) shows live once the open thread says it is busy.
  const endFollow = createRoot((dispose) => {
    createEffect(() => {
      const open = stores.openThread.current();
      if (open?.status === "busy") untrack(() => void joinRun(stores, open.thread_id));
    });
    return dispose;
  });
  let closed = false;
  closeShown = () => {
    closed = true;
    endFollow();
    stores.dispose();
    void opening.then((workspace) => workspace.workspace.close()).catch(() => undefined);
  };
  showStores(stores);
  opening.then(
    (workspace) => void workspace.workspace.server().then(setServer, () => undefined),
    (error: unknown) => {
      if (closed) return;
      const fallback = switchWorkspace(THIS_BROWSER);
      fallback.notices.setNotice(t("workspace.notOpened", { name: workspaceName(id), error: errorMessage(error) }));
    },
  );
  return stores;
}

/** main.tsx: the kept workspace's stores, at the page's start. */
export function startSavedWorkspace(id: string): Stores {
  void refreshServers().catch(() => undefined);
  return switchWorkspace(id, { keepAddress: true });
}

/**
 * Thread actions → Copy to…: the thread (messages, history and files, as a `.fawn`) exported from the workspace on
 * screen and imported into `targetId`. The user's own thread stays theirs there, writable; one that was imported or
 * holds another person's messages arrives read-only, to be continued as ever: the target decides from the bundle's
 * own marks (ThreadBundles.import), never from what this page says. Resolves the copy's summary there; rejects with
 * the sentence of the side that refused.
 */
export async function copyThread(threadId: string, targetId: string): Promise<ThreadSummary> {
  const source = shownStores()?.client ?? connectGateway();
  const exported = await source.bundles.export(threadId, "fawn");
  const target = await workspaceClient(targetId);
  const bytes = new Uint8Array(await exported.blob.arrayBuffer());
  try {
    return await target.bundles.import(bytes, { own: true });
  } finally {
    // A workspace opened only for the copy stops watching its server.
    if (targetId !== THIS_BROWSER && targetId !== currentId())
      void (target as WorkspaceClient).workspace.close().catch(() => undefined);
  }
}
