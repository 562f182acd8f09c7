// Thread actions → "Uploads": dialog "Uploads" lists the files attached to the thread (DeerFlow's uploads list), each
// with its size, its Markdown copy when it is a converted document, "Download <name>" and "Delete <name>"; Delete asks
// first in dialog "Delete upload?". Works the same for a server's thread (the workspace's uploads routes). Loaded
// when first opened: the first screen's script stays within its budget.
import { createEffect, createSignal, For, Show } from "solid-js";
import type { UploadListEntry } from "../../protocol/index.ts";
import { downloadThreadFile } from "../artifacts/preview-dialog.tsx";
import { errorMessage, type GatewayClient } from "../gateway-client.ts";
import "../i18n/en-thread-logs.ts";
import { formatBytes, t } from "../i18n/index.ts";
import { StatusLine, type Status } from "../shared/status-line.tsx";
import { uploadRows, type UploadRow } from "./upload-rows.ts";
import "./thread-logs.css";

/** A modal dialog while `threadId` is set; `onClose` is called when it closes. */
export function UploadsDialog(props: { client: GatewayClient; threadId: string | undefined; onClose: () => void }) {
  let dialog!: HTMLDialogElement;
  let confirm!: HTMLDialogElement;
  const [files, setFiles] = createSignal<UploadListEntry[] | undefined>();
  const [status, setStatus] = createSignal<Status | undefined>();
  /** The row Delete asks about, while dialog "Delete upload?" is open. */
  const [asking, setAsking] = createSignal<UploadRow | undefined>();

  const load = async (threadId: string) => {
    try {
      setFiles(await props.client.threads.listUploads(threadId));
    } catch (error) {
      setFiles([]);
      setStatus({ kind: "error", text: errorMessage(error) });
    }
  };
  createEffect(() => {
    const threadId = props.threadId;
    if (threadId !== undefined) {
      if (dialog.open) return;
      setFiles(undefined);
      setStatus(undefined);
      dialog.showModal();
      void load(threadId);
    } else if (dialog.open) dialog.close();
  });

  const askDelete = (row: UploadRow) => {
    setAsking(row);
    confirm.showModal();
  };
  const remove = async () => {
    const row = asking();
    const threadId = props.threadId;
    confirm.close();
    if (!row || threadId === undefined) return;
    setStatus(undefined);
    try {
      await props.client.threads.deleteUpload(threadId, row.file.filename);
      setStatus({ kind: "ok", text: t("uploads.deleted", { name: row.file.filename }) });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
    }
    await load(threadId);
  };
  const download = (path: string) => {
    const threadId = props.threadId;
    if (threadId === undefined) return;
    setStatus(undefined);
    downloadThreadFile(props.client, threadId, path).catch((error: unknown) =>
      setStatus({ kind: "error", text: errorMessage(error) }),
    );
  };

  return (
    <dialog
      ref={dialog}
      class="sheet thread-log-dialog"
      aria-labelledby="uploads-title"
      onClose={() => props.onClose()}
      onClick={(event) => {
        if (event.target === dialog) dialog.close();
      }}
    >
      <header>
        <h2 id="uploads-title">{t("uploads.title")}</h2>
        <button type="button" class="ghost" onClick={() => dialog.close()}>
          {t("threadLogs.close")}
        </button>
      </header>
      <p class="hint">{t("uploads.intro")}</p>
      <Show when={files()} fallback={<p class="hint">{t("uploads.loading")}</p>}>
        {(listed) => (
          <Show when={listed().length > 0} fallback={<p>{t("uploads.none")}</p>}>
            <ul class="upload-list" aria-label={t("uploads.list")}>
              <For each={uploadRows(listed())}>
                {(row) => (
                  <li>
                    <div class="upload-name">
                      <span class="upload-file" title={row.file.virtual_path}>
                        {row.file.filename}
                      </span>
                      <span class="upload-size">{formatBytes(row.file.size)}</span>
                      <Show when={row.markdown}>
                        {(copy) => (
                          <span class="upload-markdown">{t("uploads.markdown", { name: copy().filename })}</span>
                        )}
                      </Show>
                    </div>
                    <div class="upload-actions">
                      <button
                        type="button"
                        class="ghost"
                        aria-label={t("uploads.download", { name: row.file.filename })}
                        onClick={() => download(row.file.virtual_path)}
                      >
                        {t("artifacts.download")}
                      </button>
                      <button
                        type="button"
                        class="ghost danger-text"
                        aria-label={t("uploads.delete", { name: row.file.filename })}
                        onClick={() => askDelete(row)}
                      >
                        {t("common.delete")}
                      </button>
                    </div>
                  </li>
                )}
              </For>
            </ul>
          </Show>
        )}
      </Show>
      <StatusLine status={status()} />
      <dialog
        ref={confirm}
        class="sheet confirm-dialog"
        aria-labelledby="upload-delete-title"
        aria-describedby="upload-delete-text"
        onClose={() => setAsking(undefined)}
      >
        <h2 id="upload-delete-title">{t("uploads.confirmTitle")}</h2>
        <p id="upload-delete-text">
          <Show when={asking()?.markdown} fallback={t("uploads.confirmText", { name: asking()?.file.filename ?? "" })}>
            {(copy) =>
              t("uploads.confirmTextMarkdown", { name: asking()?.file.filename ?? "", markdown: copy().filename })
            }
          </Show>
        </p>
        <div class="actions">
          <button type="button" class="ghost" autofocus onClick={() => confirm.close()}>
            {t("common.cancel")}
          </button>
          <button type="button" class="danger" onClick={() => void remove()}>
            {t("common.delete")}
          </button>
        </div>
      </dialog>
    </dialog>
  );
}
