// The Artifacts region: the files the agent presented (`present_files`), by name, each with a Download button, and
// an Install button for a `.skill` archive. Clicking a name opens the preview dialog, whose body loads on first use.
import { createMemo, createSignal, For, Index, lazy, onMount, Show, Suspense } from "solid-js";
import { artifactKind, fileName } from "../artifact-kinds.ts";
import { errorMessage, type GatewayClient } from "../gateway-client.ts";
import { t } from "../i18n/index.ts";
import type { FileBeingWritten } from "../run-view.ts";

/** Lines of a file being written that the panel shows: the last ones, where the writing is. */
const LIVE_LINES = 14;

function lastLines(text: string): string {
  const lines = text.split("\n");
  return lines.length > LIVE_LINES ? lines.slice(-LIVE_LINES).join("\n") : text;
}

const ArtifactPreview = lazy(() => import("./artifact-preview.tsx"));

/** Saves one of the thread's files through a temporary object URL. */
async function download(client: GatewayClient, threadId: string, path: string): Promise<void> {
  const file = await client.readThreadFile(threadId, path);
  const url = URL.createObjectURL(new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.mime_type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName(path);
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The modal dialog "Preview: <file name>" with Source (Markdown and HTML), Download and "Close preview"; Escape
 * closes it too, and focus returns to the file's button. A link in an HTML page to another of the thread's files
 * shows that file here, with Back to return.
 */
function PreviewDialog(props: { client: GatewayClient; threadId: string; path: string; onClose: () => void }) {
  let dialog!: HTMLDialogElement;
  // The files shown before this one, most recent last.
  const [trail, setTrail] = createSignal<readonly string[]>([]);
  const [shown, setShown] = createSignal(props.path);
  const name = () => fileName(shown());
  const kind = createMemo(() => artifactKind(shown()).kind);
  const [source, setSource] = createSignal(false);
  const [failure, setFailure] = createSignal<string | undefined>();
  const show = (path: string, back: readonly string[]) => {
    setTrail(back);
    setShown(path);
    setSource(false);
    setFailure(undefined);
  };
  const open = (path: string) => {
    if (path !== shown()) show(path, [...trail(), shown()]);
  };
  const goBack = () => {
    const previous = trail().at(-1);
    if (previous !== undefined) show(previous, trail().slice(0, -1));
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
        <Show when={trail().at(-1)}>
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
            download(props.client, props.threadId, shown()).catch((error: unknown) => setFailure(errorMessage(error)));
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

export function ArtifactsPanel(props: {
  client: GatewayClient;
  threadId: string;
  paths: readonly string[];
  /** Files the agent is writing right now, shown as they grow. */
  writing?: readonly FileBeingWritten[];
}) {
  const writing = () => props.writing ?? [];
  const [failure, setFailure] = createSignal<string | undefined>();
  const [installed, setInstalled] = createSignal<string | undefined>();
  const [previewing, setPreviewing] = createSignal<{ threadId: string; path: string } | undefined>();
  // The open preview, while its file is still among this thread's artifacts.
  const preview = createMemo(() => {
    const open = previewing();
    return open && open.threadId === props.threadId && props.paths.includes(open.path) ? open.path : undefined;
  });
  const install = (path: string) => {
    setFailure(undefined);
    setInstalled(undefined);
    props.client
      .installSkillFromThread(props.threadId, path)
      .then((skill) => setInstalled(t("artifacts.installed", { name: skill.name })))
      .catch((error: unknown) => setFailure(errorMessage(error)));
  };
  return (
    <Show when={props.paths.length > 0 || writing().length > 0}>
      <section class="artifacts" aria-label={t("artifacts.region")}>
        <h2>{t("artifacts.region")}</h2>
        <Show when={writing().length > 0}>
          <ul class="artifacts-writing" aria-label={t("artifacts.beingWritten")}>
            <Index each={writing()}>
              {(file) => (
                <li>
                  <p class="writing-name" title={file().path}>
                    <span class="step-status" data-status="running" aria-hidden="true" />
                    {t("artifacts.writingFile", { name: fileName(file().path) })}
                  </p>
                  <pre class="writing-content" aria-label={t("artifacts.liveContent", { name: fileName(file().path) })}>
                    {lastLines(file().content)}
                  </pre>
                </li>
              )}
            </Index>
          </ul>
        </Show>
        <ul>
          <For each={props.paths}>
            {(path) => (
              <li>
                <button
                  type="button"
                  class="artifact-name"
                  title={path}
                  aria-label={t("artifacts.preview", { name: fileName(path) })}
                  aria-haspopup="dialog"
                  onClick={() => setPreviewing({ threadId: props.threadId, path })}
                >
                  {fileName(path)}
                </button>
                <button
                  type="button"
                  class="ghost"
                  aria-label={t("artifacts.downloadFile", { name: fileName(path) })}
                  onClick={() => {
                    setFailure(undefined);
                    download(props.client, props.threadId, path).catch((error: unknown) =>
                      setFailure(errorMessage(error)),
                    );
                  }}
                >
                  {t("artifacts.download")}
                </button>
                <Show when={path.endsWith(".skill")}>
                  <button
                    type="button"
                    class="ghost"
                    aria-label={t("artifacts.installSkill", { name: fileName(path) })}
                    onClick={() => install(path)}
                  >
                    {t("artifacts.install")}
                  </button>
                </Show>
              </li>
            )}
          </For>
        </ul>
        <Show when={installed()}>
          <p class="status" role="status">
            {installed()}
          </p>
        </Show>
        <Show when={failure()}>
          <p class="status error" role="alert">
            {failure()}
          </p>
        </Show>
      </section>
      <Show when={preview()} keyed>
        {(path) => (
          <PreviewDialog
            client={props.client}
            threadId={props.threadId}
            path={path}
            onClose={() => setPreviewing(undefined)}
          />
        )}
      </Show>
    </Show>
  );
}
