// The composer's "Agent" combobox: Fawn (the lead agent, the default), then each of the user's custom agents by
// name. The choice is the open thread's (shown again when it is reopened), and a new thread starts with the last
// one chosen (state/agent-choice.ts). Shown once the user has an agent.
import { For, Show } from "solid-js";
import "./agent-picker.css";
import { LEAD_AGENT_LABEL } from "../../protocol/index.ts";
import { t } from "../i18n/index.ts";
import { useAgentChoice } from "../state/stores.tsx";

export function AgentPicker() {
  const choice = useAgentChoice();
  return (
    <Show when={choice.agents().length > 0}>
      <select
        class="model-choice agent-choice"
        aria-label={t("composer.agent")}
        value={choice.chosen() ?? ""}
        onChange={(event) => {
          choice.choose(event.currentTarget.value || undefined);
        }}
      >
        {/* Each option says whether it is chosen: the list may be read after the select's value was set. */}
        <option value="" selected={choice.chosen() === undefined}>
          {LEAD_AGENT_LABEL}
        </option>
        <For each={choice.agents()}>
          {(agent) => (
            <option value={agent.name} title={agent.description || undefined} selected={agent.name === choice.chosen()}>
              {agent.name}
            </option>
          )}
        </For>
      </select>
    </Show>
  );
}
