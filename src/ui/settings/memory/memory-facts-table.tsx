// Settings → Memory's table of facts: each fact with its category, confidence and when it was learned, edited in its
// row (Enter saves, Escape cancels) or deleted after a confirmation in the row.
import { createSignal, For, Show } from "solid-js";
import type { GatewayApi, MemoryFact } from "../../../protocol/index.ts";
import { locale, t } from "../../i18n/index.ts";
import type { MemoryChange, MemoryStatus } from "./memory-status.tsx";
import { categoryChoices, formatConfidence, formatLearned, parseConfidence, type FactDraft } from "./memory-view.ts";

/** What a fact row is doing instead of showing the fact: being edited, or asking to confirm its deletion. */
type RowAction = { id: string; kind: "edit" } | { id: string; kind: "delete" };

/** The table "Facts" of the facts shown (the search's matches); at most one row is edited or confirming at a time. */
export function MemoryFactsTable(props: {
  client: { memory: Pick<GatewayApi["memory"], "updateFact" | "deleteFact"> };
  facts: MemoryFact[];
  busy: boolean;
  change: MemoryChange;
  onStatus: (status: MemoryStatus) => void;
}) {
  const [rowAction, setRowAction] = createSignal<RowAction | undefined>();
  const [draft, setDraft] = createSignal<FactDraft>({ content: "", category: "", confidence: "" });

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
      props.onStatus({ kind: "error", text: t("memory.factNeedsText"), area: "memory" });
      return;
    }
    if (value === undefined) {
      props.onStatus({ kind: "error", text: t("memory.confidenceProblem"), area: "memory" });
      return;
    }
    const patch = { content: content.trim(), category, confidence: value };
    if (await props.change(() => props.client.memory.updateFact(fact.id, patch), t("memory.factSaved")))
      setRowAction(undefined);
  };

  const deleteFact = async (fact: MemoryFact) => {
    if (await props.change(() => props.client.memory.deleteFact(fact.id), t("memory.factDeleted")))
      setRowAction(undefined);
  };

  const action = (fact: MemoryFact, kind: RowAction["kind"]) => {
    const current = rowAction();
    return current?.id === fact.id && current.kind === kind;
  };

  return (
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
          <For each={props.facts}>
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
                                disabled={props.busy}
                                onClick={() => startEdit(fact)}
                              >
                                {t("memory.edit")}
                              </button>
                              <button
                                type="button"
                                class="ghost"
                                aria-label={t("memory.deleteFact", { fact: fact.content })}
                                disabled={props.busy}
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
                            disabled={props.busy}
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
                    <button type="button" class="primary" disabled={props.busy} onClick={() => void saveEdit(fact)}>
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
  );
}
