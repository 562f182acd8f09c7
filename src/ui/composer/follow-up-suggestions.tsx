// Follow-up suggestions: after a reply, up to three questions above the composer; a click sends one as the next
// message (it is a whole question, so there is nothing to edit first, as in DeerFlow).
import { For, Show } from "solid-js";
import { t } from "../i18n/index.ts";

export function FollowUpSuggestions(props: { questions: readonly string[]; onChoose: (question: string) => void }) {
  return (
    <Show when={props.questions.length > 0}>
      <div class="follow-ups" role="group" aria-label={t("suggestions.label")}>
        <For each={props.questions}>
          {(question) => (
            <button type="button" class="follow-up" onClick={() => props.onChoose(question)}>
              {question}
            </button>
          )}
        </For>
      </div>
    </Show>
  );
}
