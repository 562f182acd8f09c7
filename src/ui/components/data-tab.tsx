// Settings → Data: how much this browser stores for Fawn, how much it allows, and whether it may evict it; a backup
// of everything (export, import) and "Delete all data".
import { createResource, createSignal, Show } from "solid-js";
import { formatBytes } from "../../shared/text.ts";
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

const plural = (count: number, word: string) => `${count.toLocaleString("en")} ${word}${count === 1 ? "" : "s"}`;

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
      "Preparing the backup…",
      async () => {
        const backup = await client.exportData();
        download(backup.blob, backup.file_name);
        return `Saved ${backup.file_name} (${formatBytes(backup.blob.size)}).`;
      },
      "The backup could not be made:",
    );

  const importFrom = (file: File) =>
    act(
      `Checking ${file.name}…`,
      async () => (await client.importData(file)).message,
      `${file.name} was not imported, and nothing was changed:`,
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
      "Deleting…",
      async () => {
        await client.deleteAllData();
        return "All data was deleted from this browser.";
      },
      "Nothing was deleted:",
    );
  };

  return (
    <div class="settings-form">
      <Show when={report()} fallback={<p class="hint">This browser does not report its storage use.</p>}>
        {(current) => (
          <>
            <p role="status" aria-label="Storage used">
              Fawn uses <strong>{formatBytes(current().usage)}</strong> of the{" "}
              <strong>{formatBytes(current().quota)}</strong> this browser allows it.
            </p>
            <p>
              {current().persisted
                ? "Storage is persistent: the browser will not clear your threads to free space."
                : "Storage is not persistent yet: under storage pressure the browser may clear it."}
            </p>
            <Show when={!current().persisted}>
              <div class="actions">
                <button type="button" onClick={() => void requestPersistentStorage().then(() => refetch())}>
                  Keep my data
                </button>
              </div>
            </Show>
          </>
        )}
      </Show>

      {/* ---- Backup: export, import, delete (issue 7) ---- */}
      <section class="data-backup" aria-labelledby="data-backup-title">
        <h3 id="data-backup-title">Backup</h3>
        <p class="hint">
          One .zip with every thread and its files, the memory, installed skills and settings. API keys are never in it:
          after an import, enter them again in Models. Importing keeps what is already here and adds the rest.
        </p>
        <div class="data-actions">
          <button type="button" disabled={busy()} onClick={() => void exportAll()}>
            Export all data
          </button>
          <button type="button" disabled={busy()} onClick={() => picker.click()}>
            Import data
          </button>
          <input
            ref={picker}
            type="file"
            accept=".zip,application/zip"
            hidden
            aria-label="Backup file to import"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              event.currentTarget.value = "";
              if (file) void importFrom(file);
            }}
          />
          <button type="button" class="danger-text" disabled={busy()} onClick={() => void askDelete()}>
            Delete all data
          </button>
        </div>
        <Show when={loss()}>
          {(current) => (
            <div class="data-confirm" role="group" aria-label="Confirm deleting all data">
              <p>
                {`This deletes ${plural(current().threads, "thread")} with their files, ` +
                  `${plural(current().facts, "memory fact")}, ${plural(current().skills, "installed skill")}, all ` +
                  "settings and your API keys from this browser. It cannot be undone: export a backup first if you " +
                  "may want them back."}
              </p>
              <div class="inline">
                <button type="button" class="danger" disabled={busy()} onClick={() => void deleteAll()}>
                  Delete everything
                </button>
                <button type="button" class="ghost" onClick={() => setLoss(undefined)}>
                  Cancel
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
