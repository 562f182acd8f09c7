// Settings → Agents: the user's custom agents (DeerFlow's agents), each a group named by its name with Edit, Export
// and Delete (asked first); "New agent" opens the editor (agent-editor.tsx) in the list's place; "Import" takes a
// DeerFlow agents zip (`agents/<name>/config.yaml` + `SOUL.md`), "Export all" saves one; the examples Fawn ships are
// offered with "Add". Each change reads the composer's agents again (its "Agent" combobox).
import { createSignal, For, onMount, Show } from "solid-js";
import { createStore, reconcile, unwrap } from "solid-js/store";
import type { AgentDraft, AgentRecord, GatewayApi } from "../../../protocol/index.ts";
import { errorMessage } from "../../gateway-client.ts";
import { t } from "../../i18n/index.ts";
import { download, downloadBlob } from "../../shared/download.ts";
import { StatusLine, type Status } from "../../shared/status-line.tsx";
import { useAgentChoice, useModelChoice } from "../../state/stores.tsx";
import { AgentEditor, type AgentEditorClient } from "./agent-editor.tsx";
import { blankAgentForm, fromAgentForm } from "./agent-form.ts";
import "./agents.css";

/** The Gateway methods the Agents tab calls. */
export type AgentsClient = AgentEditorClient & {
  agents: Pick<GatewayApi["agents"], "list" | "delete" | "exportOne" | "exportAll" | "import" | "examples" | "create">;
};

/** What the editor shows: a new agent (from an example or blank), or one of the user's. */
type Editing = { kind: "new"; start: AgentDraft } | { kind: "edit"; agent: AgentRecord };

export function AgentsTab(props: { client: AgentsClient }) {
  const agentChoice = useAgentChoice();
  const modelChoice = useModelChoice();
  const [state, setState] = createStore<{ agents: AgentRecord[]; examples: AgentDraft[]; loaded: boolean }>({
    agents: [],
    examples: [],
    loaded: false,
  });
  const [status, setStatus] = createSignal<Status | undefined>();
  const [busy, setBusy] = createSignal(false);
  const [confirming, setConfirming] = createSignal<string | undefined>();
  const [editing, setEditing] = createSignal<Editing | undefined>();
  let picker!: HTMLInputElement;
  let newButton!: HTMLButtonElement;

  const refresh = async () => {
    const [agents, examples] = await Promise.all([
      props.client.agents.list(),
      props.client.agents.examples().catch(() => [] as AgentDraft[]),
    ]);
    setState("agents", reconcile(agents, { key: "name" }));
    setState("examples", reconcile(examples, { key: "name" }));
    setState("loaded", true);
    void agentChoice.reload();
  };

  onMount(() => {
    refresh().catch((error: unknown) => setStatus({ kind: "error", text: errorMessage(error) }));
  });

  const names = () => state.agents.map((agent) => agent.name);
  const offered = () => state.examples.filter((example) => !names().includes(example.name));

  /** Runs `action` with the list's buttons off; its sentence (or its refusal's) shows in the status line. */
  const act = async (action: () => Promise<string | undefined>) => {
    setBusy(true);
    try {
      const text = await action();
      setStatus(text ? { kind: "ok", text } : undefined);
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  const remove = (name: string) =>
    act(async () => {
      await props.client.agents.delete(name);
      setConfirming(undefined);
      await refresh();
      newButton.focus();
      return t("agents.deleted", { name });
    });

  /** Saves the zip the Gateway made (one agent's, or all of them). */
  const exportArchive = (make: () => Promise<{ name: string; bytes: Uint8Array }>) =>
    act(async () => {
      const archive = await make();
      download(downloadBlob(archive.bytes), archive.name);
      return undefined;
    });

  const importArchive = (file: File) =>
    act(async () => {
      setStatus({ kind: "busy", text: t("agents.importing", { file: file.name }) });
      const added = await props.client.agents.import({
        name: file.name,
        bytes: new Uint8Array(await file.arrayBuffer()),
      });
      await refresh();
      return t("agents.imported", { names: added.map((agent) => agent.name).join(", ") });
    });

  const addExample = (example: AgentDraft) =>
    act(async () => {
      // The example itself, not the store's proxy of it: only plain data crosses to the worker.
      const created = await props.client.agents.create(structuredClone(unwrap(example)));
      await refresh();
      return t("agents.added", { name: created.name });
    });

  const closeEditor = (text?: string) => {
    setEditing(undefined);
    setStatus(text ? { kind: "ok", text } : undefined);
    queueMicrotask(() => newButton?.focus());
  };

  /** What a kept agent uses, in a few words: its model (or the thread's) and its memory. */
  const summary = (agent: AgentRecord) => {
    const model = agent.model
      ? (modelChoice.modelChoices().find((choice) => choice.key === agent.model)?.entry.id ?? agent.model)
      : t("agents.threadModel");
    return `${model} · ${t(agent.memory === "own" ? "agents.summaryOwn" : "agents.summaryShared")}`;
  };

  return (
    <div class="settings-form agents-tab">
      <Show
        when={editing()}
        fallback={
          <>
            <p class="hint">{t("agents.intro")}</p>
            <div class="agents-actions">
              <button
                type="button"
                ref={newButton}
                class="primary"
                disabled={!state.loaded}
                onClick={() => setEditing({ kind: "new", start: fromAgentForm(blankAgentForm()) })}
              >
                {t("agents.new")}
              </button>
              <button type="button" disabled={busy() || !state.loaded} onClick={() => picker.click()}>
                {t("agents.import")}
              </button>
              <input
                ref={picker}
                type="file"
                accept=".zip,application/zip"
                hidden
                aria-label={t("agents.archive")}
                onChange={(event) => {
                  const file = event.currentTarget.files?.[0];
                  event.currentTarget.value = "";
                  if (file) void importArchive(file);
                }}
              />
              <button
                type="button"
                disabled={busy() || state.agents.length === 0}
                onClick={() => void exportArchive(() => props.client.agents.exportAll())}
              >
                {t("agents.exportAll")}
              </button>
            </div>
            <StatusLine status={status()} />
            <Show when={state.loaded} fallback={<p class="hint">{t("agents.loading")}</p>}>
              <section class="agents-group" aria-labelledby="agents-yours">
                <h3 id="agents-yours">{t("agents.yours")}</h3>
                <Show when={state.agents.length > 0} fallback={<p class="hint">{t("agents.none")}</p>}>
                  <ul class="agent-list">
                    <For each={state.agents}>
                      {(agent) => (
                        <li>
                          <div class="agent-card" role="group" aria-labelledby={`agent-title-${agent.name}`}>
                            <div class="agent-text">
                              <span class="agent-name" id={`agent-title-${agent.name}`}>
                                {agent.name}
                              </span>
                              <Show when={agent.description}>
                                <span class="agent-description">{agent.description}</span>
                              </Show>
                              <small class="agent-summary">{summary(agent)}</small>
                            </div>
                            <div class="agent-card-actions">
                              <Show
                                when={confirming() === agent.name}
                                fallback={
                                  <>
                                    <button
                                      type="button"
                                      class="ghost"
                                      disabled={busy()}
                                      onClick={() => setEditing({ kind: "edit", agent })}
                                    >
                                      {t("agents.edit")}
                                    </button>
                                    <button
                                      type="button"
                                      class="ghost"
                                      disabled={busy()}
                                      onClick={() =>
                                        void exportArchive(() => props.client.agents.exportOne(agent.name))
                                      }
                                    >
                                      {t("agents.export")}
                                    </button>
                                    <button
                                      type="button"
                                      class="ghost"
                                      disabled={busy()}
                                      onClick={() => {
                                        setConfirming(agent.name);
                                        document.getElementById(`agent-confirm-delete-${agent.name}`)?.focus();
                                      }}
                                    >
                                      {t("common.delete")}
                                    </button>
                                  </>
                                }
                              >
                                <button
                                  type="button"
                                  id={`agent-confirm-delete-${agent.name}`}
                                  class="danger"
                                  disabled={busy()}
                                  onClick={() => void remove(agent.name)}
                                >
                                  {t("common.confirmDelete")}
                                </button>
                                <button type="button" class="ghost" onClick={() => setConfirming(undefined)}>
                                  {t("agents.keep")}
                                </button>
                              </Show>
                            </div>
                          </div>
                        </li>
                      )}
                    </For>
                  </ul>
                </Show>
              </section>
              <Show when={offered().length > 0}>
                <section class="agents-group" aria-labelledby="agents-examples">
                  <h3 id="agents-examples">{t("agents.examples")}</h3>
                  <p class="hint">{t("agents.examplesHint")}</p>
                  <ul class="agent-list">
                    <For each={offered()}>
                      {(example) => (
                        <li class="agent-card example">
                          <div class="agent-text">
                            <span class="agent-name">{example.name}</span>
                            <span class="agent-description">{example.description}</span>
                          </div>
                          <div class="agent-card-actions">
                            <button
                              type="button"
                              aria-label={t("agents.addExample", { name: example.name })}
                              disabled={busy()}
                              onClick={() => void addExample(example)}
                            >
                              {t("agents.add")}
                            </button>
                          </div>
                        </li>
                      )}
                    </For>
                  </ul>
                </section>
              </Show>
            </Show>
          </>
        }
      >
        {(shown) => {
          const current = shown();
          return (
            <AgentEditor
              client={props.client}
              {...(current.kind === "edit" && { agent: current.agent })}
              start={current.kind === "new" ? current.start : current.agent}
              taken={names()}
              onSaved={() => {
                closeEditor(t("common.saved"));
                void refresh().catch(() => undefined);
              }}
              onCancel={() => closeEditor()}
            />
          );
        }}
      </Show>
    </div>
  );
}
