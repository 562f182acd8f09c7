// The dialog "Shared thread", in the composer's place while a shared thread arrives (a share link, a `.fawn` opened
// with the installed app or shared to it): the thread itself shows above it, read-only, to be read first; the dialog
// says what it holds (its files preview from here), that nothing is saved until "Import", and offers "Import" and
// "Cancel". Not modal: the conversation stays in reach. A damaged link: its sentence and "Close".
import { createEffect, For, Match, on, Show, Switch } from "solid-js";
import { formatBytes, t, tn } from "../i18n/index.ts";
import { StatusLine } from "../shared/status-line.tsx";
import type { SharedThreadOffer } from "../state/shared-thread-offer.ts";

/** A thread file's path as the user knows it: `outputs/report.md` for `/mnt/user-data/outputs/report.md`. */
function shownPath(path: string): string {
  return path.replace(/^\/mnt\/user-data\//, "");
}

/**
 * `onImported` gets the imported thread's id; `onPreview` previews one of the shared thread's files (by virtual path).
 */
export function SharedThreadDialog(props: {
  shared: SharedThreadOffer;
  onImported: (threadId: string) => void;
  onPreview: (path: string) => void;
}) {
  let heading: HTMLHeadingElement | undefined;
  const ready = () => {
    const current = props.shared.offer();
    return current?.kind === "ready" ? current : undefined;
  };
  const failed = () => {
    const current = props.shared.offer();
    return current?.kind === "failed" ? current : undefined;
  };
  // Focus moves here as the thread arrives, so that a screen reader says what it is and what can be done.
  createEffect(
    on(
      () => props.shared.offer()?.kind,
      (kind) => kind !== "reading" && heading?.focus(),
    ),
  );

  const importOffered = async () => {
    const threadId = await props.shared.importOffered();
    if (threadId) props.onImported(threadId);
  };

  return (
    <dialog open class="shared-thread" aria-labelledby="shared-thread-title">
      <h2 id="shared-thread-title" tabindex="-1" ref={heading}>
        {t("shared.title")}
      </h2>
      <Switch>
        <Match when={props.shared.offer()?.kind === "reading"}>
          <StatusLine status={{ kind: "busy", text: t("shared.reading") }} />
        </Match>
        <Match when={failed()}>
          {(refused) => (
            <>
              <StatusLine status={{ kind: "error", text: refused().message }} />
              <div class="shared-thread-actions">
                <button type="button" class="ghost" onClick={() => props.shared.close()}>
                  {t("shared.close")}
                </button>
              </div>
            </>
          )}
        </Match>
        <Match when={ready()}>
          {(offered) => (
            <>
              <p class="shared-thread-summary">
                <span class="shared-thread-title">{offered().preview.title}</span>
                <span class="shared-thread-count">{tn("shared.messages", offered().preview.message_count)}</span>
              </p>
              <p class="hint">{t("shared.readFirst")}</p>
              <Show when={offered().preview.files.length > 0} fallback={<p class="hint">{t("shared.noFiles")}</p>}>
                <ul class="shared-thread-files" aria-label={t("shared.files")}>
                  <For each={offered().preview.files}>
                    {(file) => (
                      <li>
                        <button type="button" class="ghost" onClick={() => props.onPreview(file.path)}>
                          <span class="visually-hidden">{t("shared.previewFile")} </span>
                          {shownPath(file.path)} <span class="hint">({formatBytes(file.size)})</span>
                        </button>
                      </li>
                    )}
                  </For>
                </ul>
              </Show>
              <StatusLine
                status={
                  props.shared.importing()
                    ? { kind: "busy", text: t("shared.importing") }
                    : props.shared.failure()
                      ? { kind: "error", text: props.shared.failure() as string }
                      : undefined
                }
              />
              <div class="shared-thread-actions">
                <button type="button" class="ghost" onClick={() => props.shared.close()}>
                  {t("common.cancel")}
                </button>
                <button
                  type="button"
                  class="primary"
                  disabled={props.shared.importing()}
                  onClick={() => void importOffered()}
                >
                  {t("shared.import")}
                </button>
              </div>
            </>
          )}
        </Match>
      </Switch>
    </dialog>
  );
}
