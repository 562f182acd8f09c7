// Settings → Memory: whether Fawn learns and uses memory, what it remembers (summaries and facts), and the user's
// own edits, export, import and clearing. Every change shows the document the worker returns, nothing else.
import { createSignal, For, onCleanup, onMount, Show } from "solid-js";
import { CHANGES_CHANNEL, isChangeNotice, type GatewayApi, type MemoryDocument } from "../../../protocol/index.ts";
import { errorMessage } from "../../gateway-client.ts";
import { t, tn } from "../../i18n/index.ts";
import { download } from "../../shared/download.ts";
import { MemoryAddFactForm } from "./memory-add-fact-form.tsx";
import { MemoryFactsTable } from "./memory-facts-table.tsx";
import { MemorySettingsSection } from "./memory-settings-section.tsx";
import { AreaStatus, type MemoryStatus } from "./memory-status.tsx";
import {
  filterFacts,
  isMemoryEmpty,
  MEMORY_EXPORT_FILE_NAME,
  memoryExportText,
  memorySummaries,
  parseMemoryFile,
} from "./memory-view.ts";

/** The Gateway methods the Memory tab calls. */
export type MemoryClient = {
  memory: Pick<
    GatewayApi["memory"],
    "get" | "addFact" | "updateFact" | "deleteFact" | "clear" | "import" | "getSettings" | "saveSettings"
  >;
};

/**
 * The tab: its settings (memory-settings-section.tsx), the summaries, the searchable facts (memory-facts-table.tsx),
 * "Add a fact" (memory-add-fact-form.tsx), and export, import and clearing. One status line per area, one message at
 * a time; a change shows the document the worker returns.
 */
export function MemoryTab(props: { client: MemoryClient }) {
  const [memory, setMemory] = createSignal<MemoryDocument | undefined>();
  const [status, setStatus] = createSignal<MemoryStatus | undefined>();
  const [busy, setBusy] = createSignal(false);
  const [query, setQuery] = createSignal("");
  const [pendingImport, setPendingImport] = createSignal<
    { fileName: string; document: unknown; factCount: number } | undefined
  >();
  const [confirmingClear, setConfirmingClear] = createSignal(false);
  let picker!: HTMLInputElement;

  onMount(() => {
    props.client.memory
      .get()
      .then(setMemory)
      .catch((error: unknown) => setStatus({ kind: "error", text: errorMessage(error), area: "memory" }));
    // A run's memory update (or another tab) changed it: show what is stored now, unless a change here is under way.
    if (typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(CHANGES_CHANNEL);
    channel.onmessage = (event: MessageEvent) => {
      if (!isChangeNotice(event.data) || event.data.type !== "memory-changed" || busy()) return;
      props.client.memory
        .get()
        .then(setMemory)
        .catch(() => undefined);
    };
    onCleanup(() => channel.close());
  });

  /** Runs one change of the memory and shows the document it returns; false when it was refused. */
  const change = async (action: () => Promise<MemoryDocument>, done: string): Promise<boolean> => {
    setBusy(true);
    setStatus({ kind: "busy", text: t("memory.working"), area: "memory" });
    try {
      setMemory(await action());
      setStatus({ kind: "ok", text: done, area: "memory" });
      return true;
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error), area: "memory" });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const exportMemory = async () => {
    try {
      const current = await props.client.memory.get();
      setMemory(current);
      download(new Blob([memoryExportText(current)], { type: "application/json" }), MEMORY_EXPORT_FILE_NAME);
      setStatus({ kind: "ok", text: t("memory.exported", { file: MEMORY_EXPORT_FILE_NAME }), area: "memory" });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error), area: "memory" });
    }
  };

  const chooseImport = async (file: File) => {
    setConfirmingClear(false);
    setPendingImport(undefined);
    let text: string;
    try {
      text = await file.text();
    } catch (error) {
      setStatus({
        kind: "error",
        text: t("memory.unreadable", { file: file.name, error: errorMessage(error) }),
        area: "memory",
      });
      return;
    }
    const read = parseMemoryFile(text);
    if ("error" in read) {
      setStatus({ kind: "error", text: read.error, area: "memory" });
      return;
    }
    setStatus(undefined);
    setPendingImport({ fileName: file.name, ...read });
  };

  const replaceMemory = async () => {
    const pending = pendingImport();
    if (!pending) return;
    setPendingImport(undefined);
    await change(() => props.client.memory.import(pending.document), t("memory.imported"));
  };

  const clearMemory = async () => {
    setConfirmingClear(false);
    await change(() => props.client.memory.clear(), t("memory.cleared"));
  };

  const shownFacts = () => filterFacts(memory()?.facts ?? [], query());

  return (
    <div class="settings-form memory-tab">
      <MemorySettingsSection client={props.client} status={status()} onStatus={setStatus} />

      <Show when={memory()} fallback={<p class="hint">{t("memory.loading")}</p>}>
        {(current) => (
          <>
            <Show when={isMemoryEmpty(current())}>
              <p class="hint">{t("memory.empty")}</p>
            </Show>
            <For each={memorySummaries(current())}>
              {(group) => (
                <section class="memory-summaries">
                  <h3>{group.title}</h3>
                  <dl>
                    <For each={group.items}>
                      {(item) => (
                        <>
                          <dt>{item.label}</dt>
                          <dd>{item.summary}</dd>
                        </>
                      )}
                    </For>
                  </dl>
                </section>
              )}
            </For>
            <Show when={current().facts.length > 0}>
              <input
                type="search"
                class="memory-search"
                aria-label={t("memory.search")}
                placeholder={t("memory.searchPlaceholder")}
                value={query()}
                onInput={(event) => setQuery(event.currentTarget.value)}
              />
              <MemoryFactsTable
                client={props.client}
                facts={shownFacts()}
                busy={busy()}
                change={change}
                onStatus={setStatus}
              />
              <Show when={shownFacts().length === 0}>
                <p class="hint">{t("memory.noMatch", { query: query().trim() })}</p>
              </Show>
            </Show>
            <Show when={current().facts.length === 0 && !isMemoryEmpty(current())}>
              <p class="hint">{t("memory.noFacts")}</p>
            </Show>
          </>
        )}
      </Show>

      <MemoryAddFactForm client={props.client} disabled={busy() || !memory()} change={change} onStatus={setStatus} />

      <AreaStatus status={status()} area="memory" />
      <Show when={pendingImport()}>
        {(pending) => (
          <div class="memory-confirm">
            <p>{tn("memory.replace", pending().factCount, { file: pending().fileName })}</p>
            <div class="inline">
              <button type="button" class="danger" disabled={busy()} onClick={() => void replaceMemory()}>
                {t("memory.replaceButton")}
              </button>
              <button type="button" class="ghost" onClick={() => setPendingImport(undefined)}>
                {t("memory.cancelImport")}
              </button>
            </div>
          </div>
        )}
      </Show>
      <Show when={confirmingClear()}>
        <div class="memory-confirm">
          <p>{t("memory.clearConfirm")}</p>
          <div class="inline">
            <button type="button" class="danger" disabled={busy()} onClick={() => void clearMemory()}>
              {t("memory.confirmClear")}
            </button>
            <button type="button" class="ghost" onClick={() => setConfirmingClear(false)}>
              {t("memory.keepMemory")}
            </button>
          </div>
        </div>
      </Show>
      <div class="memory-actions">
        <button type="button" disabled={busy() || !memory()} onClick={() => void exportMemory()}>
          {t("memory.export")}
        </button>
        <button type="button" disabled={busy()} onClick={() => picker.click()}>
          {t("memory.import")}
        </button>
        <input
          ref={picker}
          type="file"
          accept=".json,application/json"
          hidden
          aria-label={t("memory.importFile")}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            event.currentTarget.value = "";
            if (file) void chooseImport(file);
          }}
        />
        <button
          type="button"
          class="danger-text"
          disabled={busy() || !memory()}
          onClick={() => {
            setPendingImport(undefined);
            setConfirmingClear(true);
          }}
        >
          {t("memory.clear")}
        </button>
      </div>
    </div>
  );
}
