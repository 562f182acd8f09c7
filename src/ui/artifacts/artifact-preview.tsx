// The body of an artifact's preview, for its kind: Markdown rendered and sanitized, HTML in a sandboxed iframe (with
// its "Allow network" switch), images, PDF, code highlighted, CSV/TSV as a table, a skill archive's SKILL.md. Loaded
// the first time a preview opens.
import {
  createEffect,
  createMemo,
  createResource,
  createSignal,
  Match,
  on,
  onCleanup,
  Show,
  Switch,
  type JSX,
} from "solid-js";
import type { ThreadFileContent } from "../../protocol/index.ts";
import {
  artifactKind,
  fileName,
  PREVIEW_MAX_BYTES,
  previewText,
  skillMarkdown,
  type ArtifactKind,
} from "../shared/artifact-kinds.ts";
import { errorMessage, type GatewayClient } from "../gateway-client.ts";
import { inlineHtmlArtifact, linkedThreadFile, type ThreadFileReader } from "./html-artifact.ts";
import { formatBytes, t } from "../i18n/index.ts";
import { imageUrl, releaseImageUrl } from "../shared/image-urls.ts";
import { previewFramePath, type PreviewFrameReport, type PreviewFrameShow } from "./preview-frame-protocol.ts";
import { CodePreview } from "./artifact-preview-code.tsx";
import { TablePreview } from "./artifact-preview-table.tsx";
import { Markdown } from "../markdown/lazy-markdown.tsx";
import { createImageUrls, ThreadFilesContext, type ThreadFiles } from "../markdown/thread-files-context.ts";

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
 * The page runs its scripts in an opaque origin, with no network unless the user turns on "Allow network" for this
 * preview: Fawn's own frame document (frames/preview.html, or frames/preview-network.html, with their
 * Content-Security-Policies) shows it in a child iframe sandboxed without allow-same-origin (preview-frame.ts),
 * which inherits the frame's policy. It cannot read Fawn's storage or cookies, reach the page around it or navigate the
 * tab. Its relative files come from the thread, inline (html-artifact.ts), since it can fetch none. Its web
 * links open in a new tab, as ordinary pages (`allow-popups` with `allow-popups-to-escape-sandbox`); its links to other
 * thread files reach `onOpenFile` through the frame.
 */
function HtmlFrame(props: {
  html: string;
  path: string;
  read: ThreadFileReader;
  onOpenFile: ((path: string) => void) | undefined;
}) {
  // Off for each file shown: the user allows the network for one page at a time.
  const [network, setNetwork] = createSignal(false);
  createEffect(
    on(
      () => props.path,
      () => setNetwork(false),
      { defer: true },
    ),
  );
  let frame: HTMLIFrameElement | undefined;
  // Whether the frame document now in `frame` has said it listens; which page preparation is the latest.
  let ready = false;
  let latest = 0;
  /**
   * Prepares the page (its relative files inline) and sends it to the frame. The markup is parsed by the frame's own
   * DOMParser: a parsed document is inert either way, but under the page's policy every inline handler it holds
   * (`onclick="…"`) would log a CSP violation on Fawn's console.
   */
  const show = () => {
    const target = frame;
    const view = target?.contentWindow as (Window & typeof globalThis) | null | undefined;
    if (!ready || !view) return;
    const preparing = ++latest;
    const { html, path } = props;
    void inlineHtmlArtifact(html, path, props.read, new view.DOMParser()).then((page) => {
      if (preparing !== latest || frame !== target) return;
      const message: PreviewFrameShow = { type: "fawn-preview-show", html: page, title: fileName(path) };
      view.postMessage(message, location.origin);
    });
  };
  createEffect(on([() => props.html, () => props.path], show, { defer: true }));
  const onMessage = (event: MessageEvent) => {
    // Only this preview's own frame document, which is Fawn's.
    if (!frame || event.source !== frame.contentWindow || event.origin !== location.origin) return;
    const report = event.data as Partial<PreviewFrameReport> | null;
    if (report?.type === "fawn-preview-ready") {
      ready = true;
      show();
    } else if (report?.type === "fawn-preview-relay") {
      // What the page itself posted: only a link to a thread file counts.
      const path = linkedThreadFile(report.data, props.path);
      if (path) props.onOpenFile?.(path);
    }
  };
  window.addEventListener("message", onMessage);
  onCleanup(() => window.removeEventListener("message", onMessage));
  // A new frame element for each setting (no history entry, as changing `src` would make); it says when it is ready.
  const frameElement = (withNetwork: boolean) => (
    <iframe
      ref={(element) => {
        frame = element;
        ready = false;
      }}
      class="artifact-frame"
      title={t("artifacts.htmlPreview")}
      referrerPolicy="no-referrer"
      src={new URL(`${import.meta.env.BASE_URL}${previewFramePath(withNetwork)}`, location.href).href}
    />
  );
  return (
    <>
      <label class="check preview-network">
        <input
          type="checkbox"
          role="switch"
          checked={network()}
          onChange={(event) => setNetwork(event.currentTarget.checked)}
        />
        {t("artifacts.allowNetwork")}
      </label>
      <Show when={network()} fallback={frameElement(false)}>
        {frameElement(true)}
      </Show>
    </>
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
  // image-urls.ts: an SVG is sanitized and shown from a data: URL, so even opened in a tab of its own it is never a
  // document of Fawn's origin; through <img> its scripts and external loads would not run anyway.
  const url = createMemo(() => {
    const shown = imageUrl(props.bytes, props.mimeType);
    if (shown !== undefined) onCleanup(() => releaseImageUrl(shown));
    return shown;
  });
  const [broken, setBroken] = createSignal(false);
  return (
    <Show when={!broken() && url()} fallback={<p class="hint">{t("artifacts.imageBroken")}</p>}>
      {(src) => <img class="artifact-image" src={src()} alt={props.name} onError={() => setBroken(true)} />}
    </Show>
  );
}

/**
 * The browser's PDF viewer in a frame (the page's policy allows blob: frames, no <object>). Without a viewer such a
 * frame would start a download, so the preview says to use Download instead.
 */
function PdfView(props: { bytes: Uint8Array }) {
  return (
    <Show when={navigator.pdfViewerEnabled} fallback={<p class="hint">{t("artifacts.noPdf")}</p>}>
      <PdfFrame bytes={props.bytes} />
    </Show>
  );
}

function PdfFrame(props: { bytes: Uint8Array }) {
  const url = objectUrl(() => props.bytes, "application/pdf");
  return <iframe class="artifact-frame" src={url()} title={t("artifacts.pdfPreview")} />;
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
    props.client.threads.readFile(props.threadId, path).then(
      (file) => file,
      () => undefined,
    );
  const [loaded] = createResource(
    () => ({ threadId: props.threadId, path: props.path }),
    ({ threadId, path }): Promise<Loaded> =>
      props.client.threads.readFile(threadId, path).then(
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
