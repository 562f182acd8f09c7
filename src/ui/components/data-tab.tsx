// Settings → Data: how much this browser stores for Fawn, how much it allows, and whether it may evict it; a backup
// of everything (export, import) and "Delete all data".
import { createResource, createSignal, Show } from "solid-js";
import { formatBytes, rich, t, tn } from "../i18n/index.ts";
import { connectGateway, errorMessage } from "../gateway-client.ts";
import { StatusLine, type Status } from "./status-line.tsx";

interface StorageReport {
  usage: number;
  quota: number;
  persisted: boolean;
}

async function readStorage(): Promise<StorageReport | undefined> {
  if (!navigator.storage?.estimate) return undefined;
  const [estimate, persisted] = await Promise.all([
    navigator.storage.estimate(),
    navigator.storage.persisted?.() ?? Promise.resolve(false),
  ]);
  return { usage: estimate.usage ?? 0, quota: estimate.quota ?? 0, persisted };
}

/** Asks the browser to keep Fawn's data under storage pressure; true when it agreed. */
export async function requestPersistentStorage(): Promise<boolean> {
  if (!navigator.storage?.persist) return false;
  if (await navigator.storage.persisted()) return true;
  return navigator.storage.persist();
}

/** Asks the browser to save `blob` as a file. */
function download(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers; the URL is only needed until it has started.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** What "Delete all data" would take away, counted when the user asks. */
interface Loss {
  threads: number;
  facts: number;
  skills: number;
}

export function DataTab() {
  const client = connectGateway();
  const [report, { refetch }] = createResource(readStorage);
  const [status, setStatus] = createSignal<Status | undefined>();
  const [busy, setBusy] = createSignal(false);
  const [loss, setLoss] = createSignal<Loss | undefined>();
  let picker!: HTMLInputElement;

  /** Runs one action at a time, its outcome in the status line; the storage report is read again after it. */
  const act = async (busyText: string, action: () => Promise<string>, failure: string) => {
    setBusy(true);
    setStatus({ kind: "busy", text: busyText });
    try {
      setStatus({ kind: "ok", text: await action() });
    } catch (error) {
      setStatus({ kind: "error", text: `${failure} ${errorMessage(error)}` });
    } finally {
      setBusy(false);
      void refetch();
    }
  };

  const exportAll = () =>
    act(
      t("data.preparing"),
      async () => {
        const backup = await client.exportData();
        download(backup.blob, backup.file_name);
        return t("data.saved", { file: backup.file_name, size: formatBytes(backup.blob.size) });
      },
      t("data.exportFailed"),
    );

  const importFrom = (file: File) =>
    act(
      t("data.checking", { file: file.name }),
      async () => (await client.importData(file)).message,
      t("data.importFailed", { file: file.name }),
    );

  const askDelete = async () => {
    setStatus(undefined);
    try {
      const [threads, memory, skills] = await Promise.all([
        client.listThreads(),
        client.getMemory(),
        client.listSkills(),
      ]);
      setLoss({
        threads: threads.length,
        facts: memory.facts.length,
        skills: skills.filter((skill) => skill.category === "custom").length,
      });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
    }
  };

  const deleteAll = () => {
    setLoss(undefined);
    return act(
      t("data.deleting"),
      async () => {
        await client.deleteAllData();
        return t("data.deleted");
      },
      t("data.deleteFailed"),
    );
  };

  return (
    <div class="settings-form">
      <Show when={report()} fallback={<p class="hint">{t("data.noReport")}</p>}>
        {(current) => (
          <>
            <p role="status" aria-label={t("data.storageUsed")}>
              {rich("data.usage", {
                used: <strong>{formatBytes(current().usage)}</strong>,
                quota: <strong>{formatBytes(current().quota)}</strong>,
              })}
            </p>
            <p>{current().persisted ? t("data.persistent") : t("data.notPersistent")}</p>
            <Show when={!current().persisted}>
              <div class="actions">
                <button type="button" onClick={() => void requestPersistentStorage().then(() => refetch())}>
                  {t("data.keep")}
                </button>
              </div>
            </Show>
          </>
        )}
      </Show>

      {/* ---- Backup: export, import, delete (issue 7) ---- */}
      <section class="data-backup" aria-labelledby="data-backup-title">
        <h3 id="data-backup-title">{t("data.backup")}</h3>
        <p class="hint">{t("data.backupHint")}</p>
        <div class="data-actions">
          <button type="button" disabled={busy()} onClick={() => void exportAll()}>
            {t("data.export")}
          </button>
          <button type="button" disabled={busy()} onClick={() => picker.click()}>
            {t("data.import")}
          </button>
          <input
            ref={picker}
            type="file"
            accept=".zip,application/zip"
            hidden
            aria-label={t("data.importFile")}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              event.currentTarget.value = "";
              if (file) void importFrom(file);
            }}
          />
          <button type="button" class="danger-text" disabled={busy()} onClick={() => void askDelete()}>
            {t("data.deleteAll")}
          </button>
        </div>
        <Show when={loss()}>
          {(current) => (
            <div class="data-confirm" role="group" aria-label={t("data.confirmGroup")}>
              <p>
                {t("data.confirm", {
                  threads: tn("data.threads", current().threads),
                  facts: tn("data.facts", current().facts),
                  skills: tn("data.skills", current().skills),
                })}
              </p>
              <div class="inline">
                <button type="button" class="danger" disabled={busy()} onClick={() => void deleteAll()}>
                  {t("data.deleteEverything")}
                </button>
                <button type="button" class="ghost" onClick={() => setLoss(undefined)}>
                  {t("common.cancel")}
                </button>
              </div>
            </div>
          )}
        </Show>
        <StatusLine status={status()} />
      </section>
    </div>
  );
}
