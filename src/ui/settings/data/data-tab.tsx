// Settings → Data: how much this browser stores for Fawn, how much it allows, and whether it may evict it; a backup
// of everything (export, import) and "Delete all data".
import { createEffect, createResource, createSignal, For, Show, type JSX } from "solid-js";
import { needsConfirmation, type ImportAddition } from "../../../protocol/index.ts";
import { formatBytes, rich, t, tn } from "../../i18n/index.ts";
import { download } from "../../shared/download.ts";
import { requestPersistentStorage } from "../../shared/persistent-storage.ts";
import { connectGateway, errorMessage } from "../../gateway-client.ts";
import { StatusLine, type Status } from "../../shared/status-line.tsx";
import { FeedbackCount } from "./feedback-count.tsx";

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

/** What an addition a backup would make is, as Settings names it. */
function additionLabel(addition: ImportAddition): string {
  switch (addition.kind) {
    case "endpoint":
      return t("data.addressEndpoint", { name: addition.name });
    case "web-search":
      return t("data.addressSearch", { name: addition.name });
    case "web-fetch":
      return t("data.addressFetch", { name: addition.name });
    case "proxy":
      return t("data.addressProxy");
    case "mcp-server":
      return t(addition.via_proxy ? "data.additionMcpProxy" : "data.additionMcp", { name: addition.name });
    case "skill-scripts":
      return t("data.additionSkill", { name: addition.name });
    case "schedule":
      return t(addition.enabled ? "data.additionSchedule" : "data.additionScheduleOff", { name: addition.name });
  }
}

/** What the addition points at: an address, a skill's scripts, or the prompt a schedule sends. */
function additionDetail(addition: ImportAddition): JSX.Element {
  if (addition.kind === "schedule") return <q>{addition.prompt}</q>;
  if (addition.kind !== "skill-scripts") return <code>{addition.address}</code>;
  return (
    <For each={addition.scripts}>
      {(script, index) => (
        <>
          {index() > 0 && ", "}
          <code>{script}</code>
        </>
      )}
    </For>
  );
}

/**
 * Asks before a backup adds what can act or send data (model endpoints, web services, the proxy, MCP servers, skills
 * with scripts): one list, Confirm or Cancel. Escape or Cancel leaves everything as it is.
 */
function AdditionsConfirm(props: {
  additions: ImportAddition[] | undefined;
  busy: boolean;
  onImport: () => void;
  onCancel: () => void;
}) {
  let dialog!: HTMLDialogElement;
  createEffect(() => {
    if (props.additions) {
      if (!dialog.open) dialog.showModal();
    } else if (dialog.open) dialog.close();
  });
  return (
    <dialog
      ref={dialog}
      class="sheet import-confirm"
      aria-labelledby="import-confirm-title"
      aria-describedby="import-confirm-hint"
      onClose={() => {
        if (props.additions) props.onCancel();
      }}
    >
      <h2 id="import-confirm-title">{t("data.additionsTitle")}</h2>
      <p>{t("data.additionsIntro")}</p>
      <ul aria-label={t("data.additionsList")}>
        <For each={props.additions ?? []}>
          {(addition) => (
            <li>
              {additionLabel(addition)}: {additionDetail(addition)}
            </li>
          )}
        </For>
      </ul>
      <p id="import-confirm-hint" class="hint">
        {t("data.additionsHint")}
      </p>
      <div class="inline">
        <button type="button" disabled={props.busy} onClick={() => props.onImport()}>
          {t("data.importWithAdditions")}
        </button>
        <button type="button" class="ghost" onClick={() => props.onCancel()}>
          {t("common.cancel")}
        </button>
      </div>
    </dialog>
  );
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
  const [keepDenied, setKeepDenied] = createSignal(false);
  const keepData = async () => {
    setKeepDenied(!(await requestPersistentStorage()));
    await refetch();
  };
  const [status, setStatus] = createSignal<Status | undefined>();
  const [busy, setBusy] = createSignal(false);
  const [loss, setLoss] = createSignal<Loss | undefined>();
  /** A backup that would add what can act or send data, waiting for the user to accept it (nothing is written yet). */
  const [pending, setPending] = createSignal<{ file: File; additions: ImportAddition[] } | undefined>();
  let picker!: HTMLInputElement;

  /**
   * Runs one action at a time, its outcome in the status line (none when the action says nothing); the storage
   * report is read again after it.
   */
  const act = async (busyText: string, action: () => Promise<string | undefined>, failure: string) => {
    setBusy(true);
    setStatus({ kind: "busy", text: busyText });
    try {
      const text = await action();
      setStatus(text === undefined ? undefined : { kind: "ok", text });
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
        const backup = await client.data.export();
        download(backup.blob, backup.file_name);
        return t("data.saved", { file: backup.file_name, size: formatBytes(backup.blob.size) });
      },
      t("data.exportFailed"),
    );

  /** Imports the backup; one that would add what can act or send data is written only after the user accepts it. */
  const importFrom = (file: File, acceptAdditions = false) =>
    act(
      t("data.checking", { file: file.name }),
      async () => {
        const answer = await client.data.import(file, { acceptAdditions });
        if (!needsConfirmation(answer)) return answer.message;
        setPending({ file, additions: answer.additions });
        return undefined;
      },
      t("data.importFailed", { file: file.name }),
    );

  const acceptAdditions = () => {
    const waiting = pending();
    setPending(undefined);
    if (waiting) void importFrom(waiting.file, true);
  };

  const refuseAdditions = () => {
    setPending(undefined);
    setStatus({ kind: "ok", text: t("data.importCancelled") });
  };

  const askDelete = async () => {
    setStatus(undefined);
    try {
      const [threads, memory, skills] = await Promise.all([
        client.threads.list(),
        client.memory.get(),
        client.skills.list(),
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
        await client.data.deleteAll();
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
                <button type="button" onClick={() => void keepData()}>
                  {t("data.keep")}
                </button>
              </div>
              {/* A refusal changes nothing else on screen: without this sentence the button would seem broken. */}
              <Show when={keepDenied()}>
                <p role="status">{t("data.keepDenied")}</p>
              </Show>
            </Show>
          </>
        )}
      </Show>

      <FeedbackCount client={client} refresh={report()} />

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
        <AdditionsConfirm
          additions={pending()?.additions}
          busy={busy()}
          onImport={acceptAdditions}
          onCancel={refuseAdditions}
        />
      </section>
    </div>
  );
}
