// Settings → Memory: whether Fawn learns and uses memory, what it remembers (summaries and facts), and the user's
// own edits, export, import and clearing. Every change shows the document the worker returns, nothing else.
import { createSignal, For, onCleanup, onMount, Show } from "solid-js";
import {
  CHANGES_CHANNEL,
  isChangeNotice,
  MEMORY_FACT_CATEGORIES,
  type GatewayApi,
  type MemoryDocument,
  type MemoryFact,
  type MemorySettings,
} from "../../protocol/index.ts";
import { errorMessage } from "../gateway-client.ts";
import { locale, t, tn } from "../i18n/index.ts";
import { download } from "../shared/download.ts";
import {
  filterFacts,
  formatConfidence,
  formatLearned,
  fromMemorySettingsForm,
  isMemoryEmpty,
  MEMORY_EXPORT_FILE_NAME,
  memoryExportText,
  memorySummaries,
  parseConfidence,
  parseMemoryFile,
  toMemorySettingsForm,
  type MemorySettingsForm,
} from "./memory-view.ts";
import { StatusLine, type Status as BaseStatus } from "./status-line.tsx";

/** The Gateway methods the Memory tab calls. */
export type MemoryClient = Pick<
  GatewayApi,
  | "getMemory"
  | "addMemoryFact"
  | "updateMemoryFact"
  | "deleteMemoryFact"
  | "clearMemory"
  | "importMemory"
  | "getMemorySettings"
  | "saveMemorySettings"
>;

/** A message for the user, shown next to the part of the tab it is about. */
interface Status extends BaseStatus {
  area: "settings" | "memory";
}

/** What a fact row is doing instead of showing the fact: being edited, or asking to confirm its deletion. */
type RowAction = { id: string; kind: "edit" } | { id: string; kind: "delete" };

interface FactDraft {
  content: string;
  category: string;
  confidence: string;
}

const DEFAULT_CONFIDENCE = "0.9";

/** The status line of one area of the tab. */
function AreaStatus(props: { status: Status | undefined; area: Status["area"] }) {
  return <StatusLine status={props.status?.area === props.area ? props.status : undefined} />;
}

/** The categories a fact may be given here, its own first when the updater used another. */
function categoryChoices(current: string): string[] {
  const known: readonly string[] = MEMORY_FACT_CATEGORIES;
  return current === "" || known.includes(current) ? [...known] : [current, ...known];
}

export function MemoryTab(props: { client: MemoryClient }) {
  const [memory, setMemory] = createSignal<MemoryDocument | undefined>();
  const [savedSettings, setSavedSettings] = createSignal<MemorySettings | undefined>();
  const [settingsForm, setSettingsForm] = createSignal<MemorySettingsForm | undefined>();
  const [status, setStatus] = createSignal<Status | undefined>();
  const [busy, setBusy] = createSignal(false);
  const [query, setQuery] = createSignal("");
  const [rowAction, setRowAction] = createSignal<RowAction | undefined>();
  const [draft, setDraft] = createSignal<FactDraft>({ content: "", category: "", confidence: "" });
  const [newFact, setNewFact] = createSignal<FactDraft>({
    content: "",
    category: MEMORY_FACT_CATEGORIES[0],
    confidence: DEFAULT_CONFIDENCE,
  });
  const [pendingImport, setPendingImport] = createSignal<
    { fileName: string; document: unknown; factCount: number } | undefined
  >();
  const [confirmingClear, setConfirmingClear] = createSignal(false);
  let picker!: HTMLInputElement;

  onMount(() => {
    props.client
      .getMemorySettings()
      .then((settings) => {
        setSavedSettings(settings);
        setSettingsForm(toMemorySettingsForm(settings));
      })
      .catch((error: unknown) => setStatus({ kind: "error", text: errorMessage(error), area: "settings" }));
    props.client
      .getMemory()
      .then(setMemory)
      .catch((error: unknown) => setStatus({ kind: "error", text: errorMessage(error), area: "memory" }));
    // A run's memory update (or another tab) changed it: show what is stored now, unless a change here is under way.
    if (typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(CHANGES_CHANNEL);
    channel.onmessage = (event: MessageEvent) => {
      if (!isChangeNotice(event.data) || event.data.type !== "memory-changed" || busy()) return;
      props.client
        .getMemory()
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

  const saveSettings = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = settingsForm();
    const base = savedSettings();
    if (!form || !base) return;
    const read = fromMemorySettingsForm(form, base);
    if ("error" in read) {
      setStatus({ kind: "error", text: read.error, area: "settings" });
      return;
    }
    setStatus({ kind: "busy", text: t("common.saving"), area: "settings" });
    try {
      const saved = await props.client.saveMemorySettings(read.settings);
      setSavedSettings(saved);
      setSettingsForm(toMemorySettingsForm(saved));
      setStatus({ kind: "ok", text: t("common.saved"), area: "settings" });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error), area: "settings" });
    }
  };

  const setSetting = <K extends keyof MemorySettingsForm>(key: K, value: MemorySettingsForm[K]) => {
    const form = settingsForm();
    if (form) setSettingsForm({ ...form, [key]: value });
  };

  const startEdit = (fact: MemoryFact) => {
    setDraft({ content: fact.content, category: fact.category, confidence: String(fact.confidence) });
    setRowAction({ id: fact.id, kind: "edit" });
    document.getElementById(`memory-edit-${fact.id}`)?.focus();
  };

  const startDelete = (fact: MemoryFact) => {
    setRowAction({ id: fact.id, kind: "delete" });
    document.getElementById(`memory-confirm-delete-${fact.id}`)?.focus();
  };

  const saveEdit = async (fact: MemoryFact) => {
    const { content, category, confidence } = draft();
    const value = parseConfidence(confidence);
    if (content.trim() === "") {
      setStatus({ kind: "error", text: t("memory.factNeedsText"), area: "memory" });
      return;
    }
    if (value === undefined) {
      setStatus({ kind: "error", text: t("memory.confidenceProblem"), area: "memory" });
      return;
    }
    const patch = { content: content.trim(), category, confidence: value };
    if (await change(() => props.client.updateMemoryFact(fact.id, patch), t("memory.factSaved")))
      setRowAction(undefined);
  };

  const deleteFact = async (fact: MemoryFact) => {
    if (await change(() => props.client.deleteMemoryFact(fact.id), t("memory.factDeleted"))) setRowAction(undefined);
  };

  const addFact = async (event: SubmitEvent) => {
    event.preventDefault();
    const { content, category, confidence } = newFact();
    const value = parseConfidence(confidence);
    if (content.trim() === "") {
      setStatus({ kind: "error", text: t("memory.writeFactFirst"), area: "memory" });
      return;
    }
    if (value === undefined) {
      setStatus({ kind: "error", text: t("memory.confidenceProblem"), area: "memory" });
      return;
    }
    const fact = { content: content.trim(), category, confidence: value };
    if (await change(() => props.client.addMemoryFact(fact), t("memory.factAdded"))) {
      setNewFact({ ...newFact(), content: "" });
    }
  };

  const exportMemory = async () => {
    try {
      const current = await props.client.getMemory();
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
    await change(() => props.client.importMemory(pending.document), t("memory.imported"));
  };

  const clearMemory = async () => {
    setConfirmingClear(false);
    await change(() => props.client.clearMemory(), t("memory.cleared"));
  };

  const shownFacts = () => filterFacts(memory()?.facts ?? [], query());
  const action = (fact: MemoryFact, kind: RowAction["kind"]) => {
    const current = rowAction();
    return current?.id === fact.id && current.kind === kind;
  };

  return (
    <div class="settings-form memory-tab">
      <form
        class="memory-settings"
        aria-label={t("memory.settings")}
        noValidate
        onSubmit={(event) => void saveSettings(event)}
      >
        <p class="hint">{t("memory.intro")}</p>
        <label class="check">
          <input
            type="checkbox"
            checked={settingsForm()?.enabled ?? false}
            disabled={!settingsForm()}
            onChange={(event) => setSetting("enabled", event.currentTarget.checked)}
          />
          {t("memory.use")}
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={settingsForm()?.injectionEnabled ?? false}
            disabled={!settingsForm()}
            onChange={(event) => setSetting("injectionEnabled", event.currentTarget.checked)}
          />
          {t("memory.inject")}
        </label>
        <Show when={settingsForm()?.enabled === false}>
          <p class="hint">{t("memory.off")}</p>
        </Show>
        <div class="memory-numbers">
          <div class="field">
            <label for="memory-debounce">{t("memory.debounce")}</label>
            <input
              id="memory-debounce"
              type="number"
              min="0"
              max="3600"
              step="1"
              value={settingsForm()?.debounceSeconds ?? ""}
              disabled={!settingsForm()}
              onInput={(event) => setSetting("debounceSeconds", event.currentTarget.value)}
            />
            <p class="hint">{t("memory.debounceHint")}</p>
          </div>
          <div class="field">
            <label for="memory-budget">{t("memory.budget")}</label>
            <input
              id="memory-budget"
              type="number"
              min="100"
              max="20000"
              step="100"
              value={settingsForm()?.maxInjectionTokens ?? ""}
              disabled={!settingsForm()}
              onInput={(event) => setSetting("maxInjectionTokens", event.currentTarget.value)}
            />
            <p class="hint">{t("memory.budgetHint")}</p>
          </div>
        </div>
        <AreaStatus status={status()} area="settings" />
        <div class="actions">
          <button type="submit" class="primary" disabled={!settingsForm()}>
            {t("memory.saveSettings")}
          </button>
        </div>
      </form>

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
              <div class="memory-facts-scroll">
                <table class="memory-facts">
                  <caption>{t("memory.facts")}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t("memory.fact")}</th>
                      <th scope="col">{t("memory.category")}</th>
                      <th scope="col">{t("memory.confidence")}</th>
                      <th scope="col">{t("memory.learned")}</th>
                      <th scope="col">
                        <span class="visually-hidden">{t("memory.actions")}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    <For each={shownFacts()}>
                      {(fact) => (
                        <tr>
                          <Show
                            when={action(fact, "edit")}
                            fallback={
                              <>
                                <td class="memory-fact">
                                  {fact.content}
                                  <Show when={fact.sourceError}>
                                    {(wrong) => <small class="hint">{t("memory.insteadOf", { wrong: wrong() })}</small>}
                                  </Show>
                                </td>
                                <td>{fact.category}</td>
                                <td>{formatConfidence(fact.confidence)}</td>
                                <td>
                                  <time datetime={fact.createdAt}>{formatLearned(fact.createdAt, locale())}</time>
                                </td>
                                <td class="memory-row-actions">
                                  <Show
                                    when={action(fact, "delete")}
                                    fallback={
                                      <>
                                        <button
                                          type="button"
                                          class="ghost"
                                          aria-label={t("memory.editFact", { fact: fact.content })}
                                          disabled={busy()}
                                          onClick={() => startEdit(fact)}
                                        >
                                          {t("memory.edit")}
                                        </button>
                                        <button
                                          type="button"
                                          class="ghost"
                                          aria-label={t("memory.deleteFact", { fact: fact.content })}
                                          disabled={busy()}
                                          onClick={() => startDelete(fact)}
                                        >
                                          {t("common.delete")}
                                        </button>
                                      </>
                                    }
                                  >
                                    <button
                                      type="button"
                                      id={`memory-confirm-delete-${fact.id}`}
                                      class="danger"
                                      disabled={busy()}
                                      onClick={() => void deleteFact(fact)}
                                    >
                                      {t("common.confirmDelete")}
                                    </button>
                                    <button type="button" class="ghost" onClick={() => setRowAction(undefined)}>
                                      {t("memory.keepFact")}
                                    </button>
                                  </Show>
                                </td>
                              </>
                            }
                          >
                            <td>
                              <input
                                id={`memory-edit-${fact.id}`}
                                type="text"
                                aria-label={t("memory.fact")}
                                value={draft().content}
                                onInput={(event) => setDraft({ ...draft(), content: event.currentTarget.value })}
                                onKeyDown={(event) => {
                                  if (event.key === "Enter") {
                                    event.preventDefault();
                                    void saveEdit(fact);
                                  } else if (event.key === "Escape") {
                                    // Escape would otherwise close the whole Settings dialog.
                                    event.preventDefault();
                                    setRowAction(undefined);
                                  }
                                }}
                              />
                            </td>
                            <td>
                              <select
                                aria-label={t("memory.category")}
                                value={draft().category}
                                onChange={(event) => setDraft({ ...draft(), category: event.currentTarget.value })}
                              >
                                <For each={categoryChoices(fact.category)}>
                                  {(category) => <option value={category}>{category}</option>}
                                </For>
                              </select>
                            </td>
                            <td>
                              <input
                                type="number"
                                aria-label={t("memory.confidence")}
                                min="0"
                                max="1"
                                step="0.05"
                                value={draft().confidence}
                                onInput={(event) => setDraft({ ...draft(), confidence: event.currentTarget.value })}
                              />
                            </td>
                            <td>
                              <time datetime={fact.createdAt}>{formatLearned(fact.createdAt, locale())}</time>
                            </td>
                            <td class="memory-row-actions">
                              <button
                                type="button"
                                class="primary"
                                disabled={busy()}
                                onClick={() => void saveEdit(fact)}
                              >
                                {t("memory.saveFact")}
                              </button>
                              <button type="button" class="ghost" onClick={() => setRowAction(undefined)}>
                                {t("common.cancel")}
                              </button>
                            </td>
                          </Show>
                        </tr>
                      )}
                    </For>
                  </tbody>
                </table>
              </div>
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

      <form class="memory-add" aria-labelledby="memory-add-title" noValidate onSubmit={(event) => void addFact(event)}>
        <h3 id="memory-add-title">{t("memory.addTitle")}</h3>
        <div class="field">
          <label for="memory-new-fact">{t("memory.newFact")}</label>
          <input
            id="memory-new-fact"
            type="text"
            autocomplete="off"
            placeholder={t("memory.newFactPlaceholder")}
            value={newFact().content}
            onInput={(event) => setNewFact({ ...newFact(), content: event.currentTarget.value })}
          />
        </div>
        <div class="inline">
          <div class="field">
            <label for="memory-new-category">{t("memory.category")}</label>
            <select
              id="memory-new-category"
              value={newFact().category}
              onChange={(event) => setNewFact({ ...newFact(), category: event.currentTarget.value })}
            >
              <For each={MEMORY_FACT_CATEGORIES}>{(category) => <option value={category}>{category}</option>}</For>
            </select>
          </div>
          <div class="field">
            <label for="memory-new-confidence">{t("memory.confidence")}</label>
            <input
              id="memory-new-confidence"
              type="number"
              min="0"
              max="1"
              step="0.05"
              value={newFact().confidence}
              onInput={(event) => setNewFact({ ...newFact(), confidence: event.currentTarget.value })}
            />
          </div>
        </div>
        <div class="actions">
          <button type="submit" disabled={busy() || !memory()}>
            {t("memory.addFact")}
          </button>
        </div>
      </form>

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
