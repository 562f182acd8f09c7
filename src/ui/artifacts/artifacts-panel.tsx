// The Artifacts region: the files the agent presented (`present_files`), by name, each with a Download button, and
// an Install button for a `.skill` archive. Clicking a name opens the preview dialog, whose body loads on first use.
import { createSignal, For, Index, Show } from "solid-js";
import { fileName } from "../shared/artifact-kinds.ts";
import { errorMessage, type GatewayClient } from "../gateway-client.ts";
import { t } from "../i18n/index.ts";
import type { FileBeingWritten } from "../state/run-view.ts";
import { StatusLine, type Status } from "../shared/status-line.tsx";
import { downloadThreadFile } from "./preview-dialog.tsx";

/** Lines of a file being written that the panel shows: the last ones, where the writing is. */
const LIVE_LINES = 14;

function lastLines(text: string): string {
  const lines = text.split("\n");
  return lines.length > LIVE_LINES ? lines.slice(-LIVE_LINES).join("\n") : text;
}

export function ArtifactsPanel(props: {
  client: GatewayClient;
  threadId: string;
  paths: readonly string[];
  /** Files the agent is writing right now, shown as they grow. */
  writing?: readonly FileBeingWritten[];
  /** Opens the preview of one of the files. */
  onPreview: (path: string) => void;
}) {
  const writing = () => props.writing ?? [];
  const [failure, setFailure] = createSignal<string | undefined>();
  const [installed, setInstalled] = createSignal<string | undefined>();
  /** The last Download's or Install's outcome: a failure, else an installed skill. */
  const outcome = (): Status | undefined => {
    const failed = failure();
    if (failed) return { kind: "error", text: failed };
    const done = installed();
    return done ? { kind: "ok", text: done } : undefined;
  };
  const install = (path: string) => {
    setFailure(undefined);
    setInstalled(undefined);
    props.client.skills
      .installFromThread(props.threadId, path)
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
                  onClick={() => props.onPreview(path)}
                >
                  {fileName(path)}
                </button>
                <button
                  type="button"
                  class="ghost"
                  aria-label={t("artifacts.downloadFile", { name: fileName(path) })}
                  onClick={() => {
                    setFailure(undefined);
                    downloadThreadFile(props.client, props.threadId, path).catch((error: unknown) =>
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
        <StatusLine status={outcome()} />
      </section>
    </Show>
  );
}
