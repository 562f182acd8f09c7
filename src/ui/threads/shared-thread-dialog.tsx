// The dialog "Shared thread": what a shared thread holds (a share link, a `.fawn` opened with the installed app or
// shared to it), read and checked by the Gateway without writing anything, and the question: "Import" or "Cancel".
// Either way a link's fragment leaves the address, so a reload does not ask again.
import { createEffect, createSignal, For, Match, onCleanup, onMount, Show, Switch } from "solid-js";
import type { GatewayApi, ThreadBundlePreview } from "../../protocol/index.ts";
import { errorMessage } from "../gateway-client.ts";
import { formatBytes, t, tn } from "../i18n/index.ts";
import { StatusLine } from "../shared/status-line.tsx";
import {
  isSharedHash,
  onLaunchedFiles,
  shareDataFromHash,
  sharedFileIdFromHash,
  takeSharedFile,
  type SharedSource,
} from "./shared-thread-sources.ts";

export type SharedThreadClient = Pick<GatewayApi, "readShareLink" | "inspectThreadBundle" | "importThreadBundle">;

type Offer =
  | { kind: "reading" }
  | { kind: "ready"; bundle: Blob; preview: ThreadBundlePreview }
  | { kind: "failed"; message: string };

/** A thread file's path as the user knows it: `outputs/report.md` for `/mnt/user-data/outputs/report.md`. */
function shownPath(path: string): string {
  return path.replace(/^\/mnt\/user-data\//, "");
}

/** Listens for shared threads from every source for as long as it is mounted; `onImported` gets the new thread's id. */
export function SharedThreadDialog(props: { client: SharedThreadClient; onImported: (threadId: string) => void }) {
  let dialog!: HTMLDialogElement;
  const [offer, setOffer] = createSignal<Offer | undefined>();
  const [importing, setImporting] = createSignal(false);
  const [failure, setFailure] = createSignal<string | undefined>();
  /** The fragment to go back to when the dialog closes (the thread that was open when a link was pasted). */
  let returnHash = "";

  const show = async (source: SharedSource) => {
    setFailure(undefined);
    setOffer({ kind: "reading" });
    try {
      if (source.kind === "link") {
        const shared = await props.client.readShareLink(source.data);
        setOffer({ kind: "ready", bundle: shared.bundle, preview: shared.preview });
      } else {
        const preview = await props.client.inspectThreadBundle(source.file);
        setOffer({ kind: "ready", bundle: source.file, preview });
      }
    } catch (error) {
      setOffer({ kind: "failed", message: errorMessage(error) });
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

  onMount(() => {
    void readAddress();
    // A link pasted into the address bar of a Fawn tab already open changes only the fragment; the thread open before
    // keeps its address once the dialog closes.
    const onHashChange = (event: HashChangeEvent) => {
      const before = new URL(event.oldURL).hash;
      if (!isSharedHash(before)) returnHash = before;
      void readAddress();
    };
    window.addEventListener("hashchange", onHashChange);
    onCleanup(() => window.removeEventListener("hashchange", onHashChange));
    onLaunchedFiles((file) => void show({ kind: "file", file }));
  });

  createEffect(() => {
    if (offer()) {
      if (!dialog.open) dialog.showModal();
    } else if (dialog.open) dialog.close();
  });

  const failed = () => {
    const current = offer();
    return current?.kind === "failed" ? current : undefined;
  };
  const ready = () => {
    const current = offer();
    return current?.kind === "ready" ? current : undefined;
  };

  const close = () => {
    setOffer(undefined);
    setFailure(undefined);
    if (isSharedHash(location.hash)) history.replaceState(null, "", location.pathname + location.search + returnHash);
    returnHash = "";
  };

  const importOffered = async (bundle: Blob) => {
    setImporting(true);
    setFailure(undefined);
    try {
      const thread = await props.client.importThreadBundle(bundle);
      close();
      props.onImported(thread.thread_id);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setImporting(false);
    }
  };

  return (
    <dialog
      ref={dialog}
      class="sheet shared-thread"
      aria-labelledby="shared-thread-title"
      onClose={() => {
        if (offer()) close();
      }}
    >
      <h2 id="shared-thread-title">{t("shared.title")}</h2>
      <Switch>
        <Match when={offer()?.kind === "reading"}>
          <StatusLine status={{ kind: "busy", text: t("shared.reading") }} />
        </Match>
        <Match when={failed()}>
          {(refused) => (
            <>
              <StatusLine status={{ kind: "error", text: refused().message }} />
              <div class="inline">
                <button type="button" class="ghost" onClick={close}>
                  {t("shared.close")}
                </button>
              </div>
            </>
          )}
        </Match>
        <Match when={ready()}>
          {(offered) => (
            <>
              <p class="shared-thread-title">{offered().preview.title}</p>
              <p>{tn("shared.messages", offered().preview.message_count)}</p>
              <Show when={offered().preview.files.length > 0} fallback={<p class="hint">{t("shared.noFiles")}</p>}>
                <ul aria-label={t("shared.files")}>
                  <For each={offered().preview.files}>
                    {(file) => (
                      <li>
                        {shownPath(file.path)} <span class="hint">({formatBytes(file.size)})</span>
                      </li>
                    )}
                  </For>
                </ul>
              </Show>
              <p class="hint">{t("shared.question")}</p>
              <StatusLine
                status={
                  importing()
                    ? { kind: "busy", text: t("shared.importing") }
                    : failure()
                      ? { kind: "error", text: failure() as string }
                      : undefined
                }
              />
              <div class="inline">
                <button type="button" disabled={importing()} onClick={() => void importOffered(offered().bundle)}>
                  {t("shared.import")}
                </button>
                <button type="button" class="ghost" onClick={close}>
                  {t("common.cancel")}
                </button>
              </div>
            </>
          )}
        </Match>
      </Switch>
    </dialog>
  );
}
