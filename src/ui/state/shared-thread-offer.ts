// A shared thread arriving (a share link, a `.fawn` opened with or shared to the installed app), from the moment its
// source is seen until the user imports it or lets it go: the receiver reads it first, shown in the conversation view
// in place of the open thread, and nothing is stored until "Import". docs/architecture.md#d8-bundles.
import { createSignal } from "solid-js";
import type { GatewayApi, SharedThreadReading } from "../../protocol/index.ts";
import { errorMessage } from "../gateway-client.ts";
import { t } from "../i18n/index.ts";
import {
  isSharedHash,
  onLaunchedFiles,
  shareDataFromHash,
  sharedFileIdFromHash,
  takeSharedFile,
  type SharedSource,
} from "./shared-thread-sources.ts";

export type SharedThreadClient = {
  sharing: Pick<GatewayApi["sharing"], "readLink" | "openBundle" | "close">;
  bundles: Pick<GatewayApi["bundles"], "import">;
};

/** Where a shared thread stands: being read from its source, ready to read and import, or refused. */
export type SharedOffer =
  { kind: "reading" } | ({ kind: "ready" } & SharedThreadReading) | { kind: "failed"; message: string };

export function createSharedThreadOffer(client: SharedThreadClient) {
  const [offer, setOffer] = createSignal<SharedOffer | undefined>();
  const [importing, setImporting] = createSignal(false);
  const [failure, setFailure] = createSignal<string | undefined>();
  /** The fragment to go back to when the offer closes (the thread that was open when a link was pasted). */
  let returnHash = "";
  /** Counts sources, so a slow one that a newer one replaced does not show. */
  let shown = 0;

  const ready = () => {
    const current = offer();
    return current?.kind === "ready" ? current : undefined;
  };

  /** Lets the shared thread go: the worker forgets it, and a link's fragment leaves the address. */
  const release = () => {
    const current = ready();
    if (current) void client.sharing.close(current.thread.thread_id).catch(() => undefined);
    shown++;
    setOffer(undefined);
    setFailure(undefined);
  };

  const show = async (source: SharedSource) => {
    release();
    const id = shown;
    setOffer({ kind: "reading" });
    try {
      const reading =
        source.kind === "link"
          ? await client.sharing.readLink(source.data)
          : await client.sharing.openBundle(source.file);
      if (id === shown) setOffer({ kind: "ready", ...reading });
      else void client.sharing.close(reading.thread.thread_id).catch(() => undefined);
    } catch (error) {
      if (id === shown) setOffer({ kind: "failed", message: errorMessage(error) });
    }
  };

  const readAddress = async () => {
    const data = shareDataFromHash(location.hash);
    if (data !== undefined) return show({ kind: "link", data });
    const id = sharedFileIdFromHash(location.hash);
    if (id === undefined) return;
    const file = await takeSharedFile(id).catch(() => undefined);
    if (file) await show({ kind: "file", file });
    else setOffer({ kind: "failed", message: t("shared.fileGone") });
  };

  /** Cancel or Close: the shared thread goes, and the address returns to what it was before the link. */
  const close = () => {
    release();
    if (isSharedHash(location.hash)) history.replaceState(null, "", location.pathname + location.search + returnHash);
    returnHash = "";
  };

  return {
    offer,
    importing,
    /** Why the import was refused. */
    failure,
    /** The shared thread to read, while one is offered. */
    reading: () => ready()?.thread,
    /**
     * Watches every source of shared threads: the address now and as it changes, and files the system opens with the
     * installed app. Returns the function that stops watching the address.
     */
    listen(): () => void {
      void readAddress();
      // A link pasted into the address bar of a Fawn tab already open changes only the fragment; the thread open
      // before keeps its address once the offer closes.
      const onHashChange = (event: HashChangeEvent) => {
        const before = new URL(event.oldURL).hash;
        if (!isSharedHash(before)) returnHash = before;
        if (isSharedHash(location.hash)) void readAddress();
      };
      window.addEventListener("hashchange", onHashChange);
      onLaunchedFiles((file) => void show({ kind: "file", file }));
      return () => window.removeEventListener("hashchange", onHashChange);
    },
    close,
    /** The user went elsewhere (another thread, a new one): the shared thread goes, the address is theirs. */
    dismiss: () => {
      if (offer()) release();
      returnHash = "";
    },
    /** "Import": stores the thread and answers its id; a refusal stays on screen (`failure`). */
    async importOffered(): Promise<string | undefined> {
      const current = ready();
      if (!current || importing()) return undefined;
      setImporting(true);
      setFailure(undefined);
      try {
        const thread = await client.bundles.import(current.bundle);
        close();
        return thread.thread_id;
      } catch (error) {
        setFailure(errorMessage(error));
        return undefined;
      } finally {
        setImporting(false);
      }
    },
  };
}

export type SharedThreadOffer = ReturnType<typeof createSharedThreadOffer>;
