// The modal preview of one of the thread's files, opened from the Artifacts panel or from a link or image in a
// message. Its body (artifact-preview.tsx) loads the first time a preview opens.
import { createMemo, createSignal, lazy, onMount, Show, Suspense } from "solid-js";
import { artifactKind, fileName } from "../shared/artifact-kinds.ts";
import { errorMessage, type GatewayClient } from "../gateway-client.ts";
import { t } from "../i18n/index.ts";
import { download, downloadBlob } from "../shared/download.ts";

const ArtifactPreview = lazy(() => import("./artifact-preview.tsx"));

/**
 * Saves one of the thread's files through a temporary object URL of plain bytes (download.ts downloadBlob): even
 * opened in a tab, an HTML or SVG file is then saved, never run as a page of Fawn's origin.
 */
export async function downloadThreadFile(client: GatewayClient, threadId: string, path: string): Promise<void> {
  const file = await client.threads.readFile(threadId, path);
  download(downloadBlob(file.bytes), fileName(path));
}

/**
 * The modal dialog "Preview: <file name>" with Source (Markdown and HTML), Download and "Close preview"; Escape
 * closes it too, and focus returns to what opened it. A link in an HTML page or a Markdown file to another of the
 * thread's files (or a picture in a Markdown file) shows that file here, with Back to return.
 */
export function PreviewDialog(props: { client: GatewayClient; threadId: string; path: string; onClose: () => void }) {
  let dialog!: HTMLDialogElement;
  // The files shown in this dialog, the one on screen last: Back steps down the trail.
  const [trail, setTrail] = createSignal<readonly string[]>([props.path]);
  const shown = () => trail().at(-1) ?? props.path;
  const previous = () => trail().at(-2);
  const name = () => fileName(shown());
  const kind = createMemo(() => artifactKind(shown()).kind);
  const [source, setSource] = createSignal(false);
  const [failure, setFailure] = createSignal<string | undefined>();
  const show = (next: readonly string[]) => {
    setTrail(next);
    setSource(false);
    setFailure(undefined);
  };
  const open = (path: string) => {
    if (path !== shown()) show([...trail(), path]);
  };
  const goBack = () => {
    if (previous() !== undefined) show(trail().slice(0, -1));
  };
  onMount(() => dialog.showModal());
  return (
    <dialog
      ref={dialog}
      class="artifact-preview"
      aria-label={t("artifacts.previewOf", { name: name() })}
      onClose={() => props.onClose()}
    >
      <header>
        <Show when={previous()}>
          {(previous) => (
            <button
              type="button"
              class="ghost"
              aria-label={t("artifacts.backTo", { name: fileName(previous()) })}
              onClick={goBack}
            >
              {t("artifacts.back")}
            </button>
          )}
        </Show>
        <h2 title={shown()}>{name()}</h2>
        <Show when={kind() === "markdown" || kind() === "html"}>
          <button type="button" class="ghost" aria-pressed={source()} onClick={() => setSource(!source())}>
            {t("artifacts.source")}
          </button>
        </Show>
        <button
          type="button"
          class="ghost"
          onClick={() => {
            setFailure(undefined);
            downloadThreadFile(props.client, props.threadId, shown()).catch((error: unknown) =>
              setFailure(errorMessage(error)),
            );
          }}
        >
          {t("artifacts.download")}
        </button>
        <button
          type="button"
          class="ghost icon"
          aria-label={t("artifacts.closePreview")}
          onClick={() => dialog.close()}
        >
          ×
        </button>
      </header>
      <Show when={failure()}>
        <p class="status error" role="alert">
          {failure()}
        </p>
      </Show>
      <div class="artifact-preview-body">
        <Suspense fallback={<p class="hint">{t("artifacts.loading")}</p>}>
          <ArtifactPreview
            client={props.client}
            threadId={props.threadId}
            path={shown()}
            source={source()}
            onOpenFile={open}
          />
        </Suspense>
      </div>
    </dialog>
  );
}
