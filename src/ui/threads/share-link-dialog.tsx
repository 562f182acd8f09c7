// Thread actions → Share link: the dialog "Share link" with the link (textbox "Share link", button "Copy link"), or,
// for a thread too big for a link, a sentence saying how big and the button "Export .fawn instead".
import { createEffect, createResource, createSignal, Match, Switch } from "solid-js";
import type { GatewayApi } from "../../protocol/index.ts";
import { errorMessage } from "../gateway-client.ts";
import { formatBytes, t } from "../i18n/index.ts";
import { writeClipboard } from "../shared/copy-button.tsx";
import { StatusLine, type Status } from "../shared/status-line.tsx";
import { appBaseUrl, shareLinkUrl } from "../state/shared-thread-sources.ts";

export type ShareLinkClient = { sharing: Pick<GatewayApi["sharing"], "link"> };

/** Open while `threadId` is set; closing it (Escape, "Close") calls `onClose`. */
export function ShareLinkDialog(props: {
  client: ShareLinkClient;
  threadId: string | undefined;
  onExportFawn: (threadId: string) => void;
  onClose: () => void;
}) {
  let dialog!: HTMLDialogElement;
  const [copied, setCopied] = createSignal<Status | undefined>();
  const [link] = createResource(
    () => props.threadId,
    (threadId) => props.client.sharing.link(threadId),
  );
  createEffect(() => {
    if (props.threadId) {
      setCopied(undefined);
      if (!dialog.open) dialog.showModal();
    } else if (dialog.open) dialog.close();
  });

  const answer = () => (link.state === "ready" ? link() : undefined);
  const url = () => {
    const ready = answer();
    return ready && "data" in ready ? shareLinkUrl(ready.data, appBaseUrl()) : undefined;
  };
  const tooBig = () => {
    const ready = answer();
    return ready && "too_big" in ready ? ready.too_big : undefined;
  };
  const copy = async (text: string) => {
    try {
      await writeClipboard(text);
      setCopied({ kind: "ok", text: t("share.copied") });
    } catch {
      setCopied({ kind: "error", text: t("share.copyFailed") });
    }
  };

  return (
    <dialog
      ref={dialog}
      class="sheet share-link"
      aria-labelledby="share-link-title"
      onClose={() => {
        if (props.threadId) props.onClose();
      }}
    >
      <h2 id="share-link-title">{t("share.title")}</h2>
      <Switch>
        <Match when={link.loading}>
          <StatusLine status={{ kind: "busy", text: t("share.making") }} />
        </Match>
        <Match when={link.state === "errored"}>
          <StatusLine status={{ kind: "error", text: t("share.failed", { error: errorMessage(link.error) }) }} />
        </Match>
        <Match when={url()}>
          {(href) => (
            <>
              <p class="hint">{t("share.hint")}</p>
              <input
                class="share-link-url"
                type="text"
                readOnly
                value={href()}
                aria-label={t("share.linkLabel")}
                onFocus={(event) => event.currentTarget.select()}
              />
              <div class="inline">
                <button type="button" onClick={() => void copy(href())}>
                  {t("share.copy")}
                </button>
              </div>
              <StatusLine status={copied()} />
            </>
          )}
        </Match>
        <Match when={tooBig()}>
          {(size) => (
            <>
              <p role="alert">
                {t("share.tooBig", { size: formatBytes(size().size), limit: formatBytes(size().limit) })}
              </p>
              <div class="inline">
                <button
                  type="button"
                  onClick={() => {
                    if (props.threadId) props.onExportFawn(props.threadId);
                  }}
                >
                  {t("share.exportFawn")}
                </button>
              </div>
            </>
          )}
        </Match>
      </Switch>
      <div class="inline dialog-actions">
        <button type="button" class="ghost" onClick={() => props.onClose()}>
          {t("share.close")}
        </button>
      </div>
    </dialog>
  );
}
