// Thread actions → "Sandbox log": dialog "Sandbox log" with table "Sandbox log", one row per command the agent ran in
// the thread's sandbox (DeerFlow's SandboxAuditMiddleware): its time and duration, the command, its exit code (or why
// the sandbox stopped it) and the thread's files it added, changed or deleted. Loaded when first opened.
import { createEffect, createSignal, For, Show } from "solid-js";
import type { SandboxFileChange, SandboxLogEntry } from "../../protocol/index.ts";
import { errorMessage, type GatewayClient } from "../gateway-client.ts";
import "../i18n/en-thread-logs.ts";
import { formatNumber, locale, t } from "../i18n/index.ts";
import { StatusLine, type Status } from "../shared/status-line.tsx";
import "./thread-logs.css";

const USER_DATA = "/mnt/user-data/";

/** A path as the log shows it: from the thread's folders (`outputs/report.md`). */
function shortPath(path: string): string {
  return path.startsWith(USER_DATA) ? path.slice(USER_DATA.length) : path;
}

function changeText(change: SandboxFileChange): string {
  const path = shortPath(change.path);
  if (change.change === "added") return t("sandboxLog.added", { path });
  if (change.change === "deleted") return t("sandboxLog.deleted", { path });
  return t("sandboxLog.modified", { path });
}

/** When a command started: the time today, the date and time on another day. */
function startText(at: number): string {
  const when = new Date(at);
  const today = new Date().toDateString() === when.toDateString();
  return new Intl.DateTimeFormat(locale(), {
    ...(today ? {} : { dateStyle: "short" }),
    timeStyle: "medium",
  }).format(when);
}

function outcomeText(entry: SandboxLogEntry): string {
  if (entry.stopped) return t(`sandboxLog.stopped.${entry.stopped}`);
  if (entry.exit_code === -1) return t("sandboxLog.notRun");
  return formatNumber(entry.exit_code);
}

/** A modal dialog while `threadId` is set; `onClose` is called when it closes. */
export function SandboxLogDialog(props: { client: GatewayClient; threadId: string | undefined; onClose: () => void }) {
  let dialog!: HTMLDialogElement;
  const [entries, setEntries] = createSignal<SandboxLogEntry[] | undefined>();
  const [status, setStatus] = createSignal<Status | undefined>();
  createEffect(() => {
    const threadId = props.threadId;
    if (threadId !== undefined) {
      if (dialog.open) return;
      setEntries(undefined);
      setStatus(undefined);
      dialog.showModal();
      props.client.threads.sandboxLog(threadId).then(setEntries, (error: unknown) => {
        setEntries([]);
        setStatus({ kind: "error", text: errorMessage(error) });
      });
    } else if (dialog.open) dialog.close();
  });

  return (
    <dialog
      ref={dialog}
      class="sheet thread-log-dialog sandbox-log"
      aria-labelledby="sandbox-log-title"
      onClose={() => props.onClose()}
      onClick={(event) => {
        if (event.target === dialog) dialog.close();
      }}
    >
      <header>
        <h2 id="sandbox-log-title">{t("sandboxLog.title")}</h2>
        <button type="button" class="ghost" onClick={() => dialog.close()}>
          {t("threadLogs.close")}
        </button>
      </header>
      <p class="hint">{t("sandboxLog.intro")}</p>
      <Show when={entries()} fallback={<p class="hint">{t("sandboxLog.loading")}</p>}>
        {(logged) => (
          <Show
            when={logged().length > 0}
            fallback={
              <Show when={!status()}>
                <p>{t("sandboxLog.none")}</p>
              </Show>
            }
          >
            {/* Explicit roles: on a phone the rows are laid out as cards, which drops a table's own semantics. */}
            <div class="sandbox-log-scroll">
              <table class="sandbox-log-table" role="table" aria-label={t("sandboxLog.table")}>
                <thead role="rowgroup">
                  <tr role="row">
                    <th role="columnheader" scope="col">
                      {t("sandboxLog.time")}
                    </th>
                    <th role="columnheader" scope="col">
                      {t("sandboxLog.command")}
                    </th>
                    <th role="columnheader" scope="col">
                      {t("sandboxLog.exitCode")}
                    </th>
                    <th role="columnheader" scope="col">
                      {t("sandboxLog.files")}
                    </th>
                  </tr>
                </thead>
                <tbody role="rowgroup">
                  <For each={logged()}>
                    {(entry) => (
                      <tr role="row" data-failed={entry.exit_code !== 0 || entry.stopped ? "true" : undefined}>
                        <td role="cell" data-label={t("sandboxLog.time")}>
                          <div>
                            <time dateTime={new Date(entry.at).toISOString()}>{startText(entry.at)}</time>
                            <span class="sandbox-log-duration">
                              {t("sandboxLog.seconds", {
                                seconds: new Intl.NumberFormat(locale(), { maximumFractionDigits: 1 }).format(
                                  entry.duration_ms / 1000,
                                ),
                              })}
                            </span>
                          </div>
                        </td>
                        <td role="cell" data-label={t("sandboxLog.command")}>
                          <div>
                            <code class="sandbox-log-command">{entry.command}</code>
                            <Show when={entry.truncated}>
                              <span class="sandbox-log-note">{t("sandboxLog.cut")}</span>
                            </Show>
                          </div>
                        </td>
                        <td role="cell" data-label={t("sandboxLog.exitCode")} class="sandbox-log-exit">
                          <span>{outcomeText(entry)}</span>
                        </td>
                        <td role="cell" data-label={t("sandboxLog.files")}>
                          <Show
                            when={entry.files_changed.length > 0}
                            fallback={<span class="sandbox-log-note">{t("sandboxLog.noFiles")}</span>}
                          >
                            <ul class="sandbox-log-files">
                              <For each={entry.files_changed}>
                                {(change) => (
                                  <li data-change={change.change} title={change.path}>
                                    {changeText(change)}
                                  </li>
                                )}
                              </For>
                              <Show when={entry.files_more}>
                                {(more) => <li>{t("sandboxLog.more", { count: formatNumber(more()) })}</li>}
                              </Show>
                            </ul>
                          </Show>
                        </td>
                      </tr>
                    )}
                  </For>
                </tbody>
              </table>
            </div>
          </Show>
        )}
      </Show>
      <StatusLine status={status()} />
    </dialog>
  );
}
