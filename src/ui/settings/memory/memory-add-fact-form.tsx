// Settings → Memory's "Add a fact" form: the fact's text, its category and the confidence it is held with.
import { createSignal, For } from "solid-js";
import { MEMORY_FACT_CATEGORIES, type GatewayApi } from "../../../protocol/index.ts";
import { t } from "../../i18n/index.ts";
import type { MemoryChange, MemoryStatus } from "./memory-status.tsx";
import { parseConfidence, type FactDraft } from "./memory-view.ts";

const DEFAULT_CONFIDENCE = "0.9";

/** The form "Add a fact"; the text clears once the fact is added, the category and confidence stay for the next. */
export function MemoryAddFactForm(props: {
  client: { memory: Pick<GatewayApi["memory"], "addFact"> };
  disabled: boolean;
  change: MemoryChange;
  onStatus: (status: MemoryStatus) => void;
}) {
  const [newFact, setNewFact] = createSignal<FactDraft>({
    content: "",
    category: MEMORY_FACT_CATEGORIES[0],
    confidence: DEFAULT_CONFIDENCE,
  });

  const addFact = async (event: SubmitEvent) => {
    event.preventDefault();
    const { content, category, confidence } = newFact();
    const value = parseConfidence(confidence);
    if (content.trim() === "") {
      props.onStatus({ kind: "error", text: t("memory.writeFactFirst"), area: "memory" });
      return;
    }
    if (value === undefined) {
      props.onStatus({ kind: "error", text: t("memory.confidenceProblem"), area: "memory" });
      return;
    }
    const fact = { content: content.trim(), category, confidence: value };
    if (await props.change(() => props.client.memory.addFact(fact), t("memory.factAdded"))) {
      setNewFact({ ...newFact(), content: "" });
    }
  };

  return (
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
        <button type="submit" disabled={props.disabled}>
          {t("memory.addFact")}
        </button>
      </div>
    </form>
  );
}
