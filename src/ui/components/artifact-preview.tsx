// The body of an artifact's preview, for its kind: Markdown rendered and sanitized, HTML in a sandboxed iframe, images,
// PDF, code highlighted, CSV/TSV as a table, a skill archive's SKILL.md. Loaded the first time a preview opens.
import { createMemo, createResource, createSignal, Match, onCleanup, Show, Switch, type JSX } from "solid-js";
import type { ThreadFileContent } from "../../protocol/index.ts";
import {
  artifactKind,
  fileName,
  PREVIEW_MAX_BYTES,
  previewText,
  skillMarkdown,
  type ArtifactKind,
} from "../artifact-kinds.ts";
import { errorMessage, type GatewayClient } from "../gateway-client.ts";
import { inlineHtmlArtifact, linkedThreadFile, type ThreadFileReader } from "../html-artifact.ts";
import { formatBytes, t } from "../i18n/index.ts";
import { CodePreview } from "./artifact-preview-code.tsx";
import { TablePreview } from "./artifact-preview-table.tsx";
import { Markdown } from "./markdown-view.tsx";
import { createImageUrls, ThreadFilesContext, type ThreadFiles } from "./thread-files-context.ts";

type Loaded = { file: ThreadFileContent; error?: undefined } | { file?: undefined; error: string };

/** An object URL for the bytes as `type`, revoked when the preview closes or the bytes change. */
function objectUrl(bytes: () => Uint8Array, type: string): () => string {
  return createMemo(() => {
    const url = URL.createObjectURL(new Blob([bytes() as Uint8Array<ArrayBuffer>], { type }));
    onCleanup(() => URL.revokeObjectURL(url));
    return url;
  });
}

/**
 * The page runs its scripts in an opaque origin (`allow-scripts` without `allow-same-origin`): it cannot read
 * Fawn's storage or cookies, reach the page around it or navigate the tab. Its relative files come from the thread,
 * inline (src/ui/html-artifact.ts), since the frame can fetch none. Its web links open in a new tab, as ordinary
 * pages (`allow-popups` with `allow-popups-to-escape-sandbox`); its links to other thread files call `onOpenFile`.
 */
function HtmlFrame(props: {
  html: string;
  path: string;
  read: ThreadFileReader;
  onOpenFile: ((path: string) => void) | undefined;
}) {
  const [page] = createResource(
    () => ({ html: props.html, path: props.path }),
    ({ html, path }) => inlineHtmlArtifact(html, path, props.read),
  );
  let frame: HTMLIFrameElement | undefined;
  const onMessage = (event: MessageEvent) => {
    // Only this preview's own frame, and only a thread file.
    if (!frame || event.source !== frame.contentWindow) return;
    const path = linkedThreadFile(event.data, props.path);
    if (path) props.onOpenFile?.(path);
  };
  window.addEventListener("message", onMessage);
  onCleanup(() => window.removeEventListener("message", onMessage));
  return (
    <Show when={page()}>
      {(srcdoc) => (
        <iframe
          ref={frame}
          class="artifact-frame"
          title={t("artifacts.htmlPreview")}
          sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox"
          referrerPolicy="no-referrer"
          srcdoc={srcdoc()}
        />
      )}
    </Show>
  );
}

/** A Markdown file rendered, its pictures read from the thread and its links to thread files opening here. */
function MarkdownFile(props: {
  text: string;
  path: string;
  read: ThreadFileReader;
  onOpenFile: ((path: string) => void) | undefined;
}) {
  const images = createImageUrls((path) => props.read(path));
  const files: ThreadFiles = {
    get base() {
      return props.path;
    },
    imageUrl: images.imageUrl,
    open: (path) => props.onOpenFile?.(path),
  };
  return (
    <ThreadFilesContext.Provider value={files}>
      <Markdown source={props.text} class="artifact-markdown" />
    </ThreadFilesContext.Provider>
  );
}

/** Video or audio in the browser's own player, from an object URL revoked when the preview closes. */
function MediaView(props: { bytes: Uint8Array; mimeType: string; name: string; video: boolean }) {
  const url = objectUrl(() => props.bytes, props.mimeType);
  const [broken, setBroken] = createSignal(false);
  return (
    <Show when={!broken()} fallback={<p class="hint">{t("artifacts.mediaBroken")}</p>}>
      <Show
        when={props.video}
        fallback={
          <audio
            class="artifact-audio"
            controls
            src={url()}
            aria-label={t("artifacts.audioPreview", { name: props.name })}
            onError={() => setBroken(true)}
          />
        }
      >
        <video
          class="artifact-video"
          controls
          playsinline
          src={url()}
          aria-label={t("artifacts.videoPreview", { name: props.name })}
          onError={() => setBroken(true)}
        />
      </Show>
    </Show>
  );
}

function ImageView(props: { bytes: Uint8Array; mimeType: string; name: string }) {
  // An SVG shown through <img> is a static picture: its scripts and external loads never run.
  const url = objectUrl(() => props.bytes, props.mimeType);
  const [broken, setBroken] = createSignal(false);
  return (
    <Show when={!broken()} fallback={<p class="hint">{t("artifacts.imageBroken")}</p>}>
      <img class="artifact-image" src={url()} alt={props.name} onError={() => setBroken(true)} />
    </Show>
  );
}

function PdfView(props: { bytes: Uint8Array }) {
  // <object> shows its fallback where the browser has no PDF viewer, where an <iframe> would start a download.
  const url = objectUrl(() => props.bytes, "application/pdf");
  return (
    <object class="artifact-frame" type="application/pdf" data={url()} aria-label={t("artifacts.pdfPreview")}>
      <p class="hint">{t("artifacts.noPdf")}</p>
    </object>
  );
}

/** A `.skill` archive previews as its SKILL.md. */
function SkillView(props: { bytes: Uint8Array }) {
  const [skill] = createResource(
    () => props.bytes,
    (bytes): Promise<{ source?: string; note?: string }> =>
      skillMarkdown(bytes).then(
        (source) => (source === undefined ? { note: t("artifacts.noSkillMd") } : { source }),
        () => ({ note: t("artifacts.badSkill") }),
      ),
  );
  return (
    <Show when={skill()}>
      {(result) => (
        <Show when={result().source} fallback={<p class="hint">{result().note}</p>}>
          {(source) => <Markdown source={source()} class="artifact-markdown" />}
        </Show>
      )}
    </Show>
  );
}

/** The kind when it is `name`, narrowed; for `<Match when>`. */
function ofKind<K extends ArtifactKind["kind"]>(
  kind: ArtifactKind,
  name: K,
): Extract<ArtifactKind, { kind: K }> | undefined {
  return kind.kind === name ? (kind as Extract<ArtifactKind, { kind: K }>) : undefined;
}

function TextPreview(props: {
  file: ThreadFileContent;
  kind: ArtifactKind;
  source: boolean;
  read: ThreadFileReader;
  onOpenFile: ((path: string) => void) | undefined;
}): JSX.Element {
  const preview = createMemo(() => previewText(props.file.bytes));
  const label = () => t("artifacts.sourceOf", { name: fileName(props.file.path) });
  const name = () => fileName(props.file.path);
  return (
    <>
      <Show when={preview().truncated}>
        <p class="hint" role="note">
          {t(props.kind.kind === "html" ? "artifacts.truncatedHtml" : "artifacts.truncated", {
            shown: formatBytes(PREVIEW_MAX_BYTES),
            total: formatBytes(preview().totalBytes),
          })}
        </p>
      </Show>
      <Switch>
        <Match when={preview().totalBytes === 0}>
          <p class="hint">{t("artifacts.empty")}</p>
        </Match>
        <Match when={props.kind.kind === "markdown" && !props.source}>
          <MarkdownFile text={preview().text} path={props.file.path} read={props.read} onOpenFile={props.onOpenFile} />
        </Match>
        <Match when={props.kind.kind === "html" && !props.source && !preview().truncated}>
          <HtmlFrame html={preview().text} path={props.file.path} read={props.read} onOpenFile={props.onOpenFile} />
        </Match>
        <Match when={ofKind(props.kind, "table")}>
          {(table) => (
            <TablePreview
              text={preview().text}
              delimiter={table().delimiter}
              label={t("artifacts.tableOf", { name: name() })}
            />
          )}
        </Match>
        <Match when={ofKind(props.kind, "code")}>
          {(code) => <CodePreview text={preview().text} language={code().language} label={label()} />}
        </Match>
        <Match when={ofKind(props.kind, "markdown") ?? ofKind(props.kind, "html")}>
          {(document) => <CodePreview text={preview().text} language={document().source} label={label()} />}
        </Match>
      </Switch>
    </>
  );
}

/**
 * Reads the file and shows it for its kind. `source` asks for the source of a Markdown or HTML file instead of the
 * rendered page. Suspends while the file is read.
 */
export default function ArtifactPreview(props: {
  client: GatewayClient;
  threadId: string;
  path: string;
  source: boolean;
  /** A link (or a picture) in an HTML page or a Markdown file naming another of the thread's files was clicked. */
  onOpenFile?: (path: string) => void;
}) {
  // The page's own relative files, for an HTML preview.
  const read: ThreadFileReader = (path) =>
    props.client.readThreadFile(props.threadId, path).then(
      (file) => file,
      () => undefined,
    );
  const [loaded] = createResource(
    () => ({ threadId: props.threadId, path: props.path }),
    ({ threadId, path }): Promise<Loaded> =>
      props.client.readThreadFile(threadId, path).then(
        (file) => ({ file }),
        (error: unknown) => ({ error: errorMessage(error) }),
      ),
  );
  return (
    <Show when={loaded()}>
      {(result) => (
        <Show
          when={result().file}
          fallback={
            <p class="status error" role="alert">
              {result().error}
            </p>
          }
        >
          {(file) => {
            const kind = createMemo(() => artifactKind(file().path, file().mime_type));
            return (
              <Switch>
                <Match when={ofKind(kind(), "image")}>
                  {(image) => (
                    <ImageView bytes={file().bytes} mimeType={image().mimeType} name={fileName(file().path)} />
                  )}
                </Match>
                <Match when={ofKind(kind(), "video") ?? ofKind(kind(), "audio")}>
                  {(media) => (
                    <MediaView
                      bytes={file().bytes}
                      mimeType={media().mimeType}
                      name={fileName(file().path)}
                      video={media().kind === "video"}
                    />
                  )}
                </Match>
                <Match when={kind().kind === "pdf"}>
                  <PdfView bytes={file().bytes} />
                </Match>
                <Match when={kind().kind === "skill"}>
                  <SkillView bytes={file().bytes} />
                </Match>
                <Match when={kind().kind === "none"}>
                  <p class="hint">{t("artifacts.noPreview")}</p>
                </Match>
                <Match when={true}>
                  <TextPreview
                    file={file()}
                    kind={kind()}
                    source={props.source}
                    read={read}
                    onOpenFile={props.onOpenFile}
                  />
                </Match>
              </Switch>
            );
          }}
        </Show>
      )}
    </Show>
  );
}
