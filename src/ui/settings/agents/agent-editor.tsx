// Settings → Agents' editor: a new agent, or one of the user's to change (its name stays). Name, description and
// instructions; the model (the composer's models, or the thread's); tool groups and skills as ticks; shared or own
// memory; the guardrail's allowed and denied tools; temperature and max tokens. A refused Save shows each problem
// under its field and puts the cursor in the first (as the other tabs do); the Gateway's refusal shows below.
import { createSignal, For, onMount, Show } from "solid-js";
import { createStore } from "solid-js/store";
import {
  AGENT_TOOL_GROUPS,
  type AgentDraft,
  type AgentRecord,
  type AgentToolGroup,
  type GatewayApi,
} from "../../../protocol/index.ts";
import { errorMessage } from "../../gateway-client.ts";
import { t, type TextKey } from "../../i18n/index.ts";
import { StatusLine, type Status } from "../../shared/status-line.tsx";
import { useModelChoice } from "../../state/stores.tsx";
import { FieldError } from "../fields/text-field.tsx";
import { announceRefused, announceSaved } from "../settings-saved.ts";
import { agentFormProblems, AGENT_FIELD_IDS, fromAgentForm, toAgentForm, type AgentForm } from "./agent-form.ts";

/** The Gateway methods the editor calls. */
export type AgentEditorClient = {
  agents: Pick<GatewayApi["agents"], "create" | "update">;
  skills: Pick<GatewayApi["skills"], "list">;
};

const GROUP_NAMES: Record<AgentToolGroup, TextKey> = {
  bash: "agents.group.bash",
  "file:read": "agents.group.fileRead",
  "file:write": "agents.group.fileWrite",
  web: "agents.group.web",
  mcp: "agents.group.mcp",
};

type TextFieldName = "description" | "allow" | "deny" | "temperature" | "maxTokens";

export function AgentEditor(props: {
  client: AgentEditorClient;
  /** The agent to change; absent: a new one, starting from `start` (an example) or blank. */
  agent?: AgentRecord;
  start: AgentDraft;
  /** The other agents' names: a new agent may not take one. */
  taken: readonly string[];
  onSaved: (agent: AgentRecord) => void;
  onCancel: () => void;
}) {
  const modelChoice = useModelChoice();
  const [form, setForm] = createStore<AgentForm>(toAgentForm(props.agent ?? props.start));
  const [skills, setSkills] = createSignal<string[]>([]);
  const [status, setStatus] = createSignal<Status | undefined>();
  /** Whether a Save was refused since the last one taken: then each field's problem shows, as the user fixes it. */
  const [refused, setRefused] = createSignal(false);
  const problemAt = (id: string) =>
    refused() ? agentFormProblems(form, props.agent ? [] : props.taken).find((p) => p.id === id)?.message : undefined;
  const described = (id: string, hint?: string) =>
    [problemAt(id) ? `${id}-error` : undefined, hint].filter(Boolean).join(" ") || undefined;
  let element!: HTMLFormElement;

  onMount(() => {
    document.getElementById(props.agent ? AGENT_FIELD_IDS.description : AGENT_FIELD_IDS.name)?.focus();
    props.client.skills
      .list()
      .then((list) => setSkills(list.map((skill) => skill.name)))
      .catch(() => setSkills([]));
  });

  /** The models to choose from: the composer's, and a kept agent's model that Settings → Models no longer has. */
  const models = () => {
    const choices = modelChoice.modelChoices().map((choice) => ({ key: choice.key, label: choice.entry.id }));
    const several = new Set(modelChoice.modelChoices().map((choice) => choice.endpoint)).size > 1;
    if (several)
      for (const [index, choice] of modelChoice.modelChoices().entries())
        choices[index]!.label = `${choice.entry.id} (${choice.endpointName})`;
    if (form.model && !choices.some((choice) => choice.key === form.model))
      choices.push({ key: form.model, label: t("agents.unknownModel", { key: form.model }) });
    return choices;
  };

  /** Ticks or unticks `value` in a list of the form. */
  const toggle = <T extends string>(list: readonly T[], value: T, on: boolean): T[] =>
    on ? [...list.filter((item) => item !== value), value] : list.filter((item) => item !== value);

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    const found = agentFormProblems(form, props.agent ? [] : props.taken);
    if (found.length > 0) {
      setRefused(true);
      setStatus(undefined);
      queueMicrotask(() => document.getElementById(found[0]!.id)?.focus());
      announceRefused(element);
      return;
    }
    const draft = fromAgentForm(form);
    setStatus({ kind: "busy", text: t("common.saving") });
    try {
      const { name, ...changes } = draft;
      const saved = props.agent
        ? await props.client.agents.update(props.agent.name, changes)
        : await props.client.agents.create({ ...draft, name });
      setRefused(false);
      announceSaved(element);
      props.onSaved(saved);
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
      announceRefused(element);
    }
  };

  /** A labelled one-line input of the form, its problem and hint under it. */
  const input = (field: TextFieldName, id: string, label: TextKey, extra: { hint?: TextKey; placeholder?: string }) => (
    <div class="field">
      <label for={id}>{t(label)}</label>
      <input
        id={id}
        type="text"
        inputMode={field === "temperature" ? "decimal" : field === "maxTokens" ? "numeric" : undefined}
        autocomplete="off"
        spellcheck={false}
        placeholder={extra.placeholder}
        aria-invalid={problemAt(id) ? "true" : undefined}
        aria-describedby={described(id, extra.hint && `${id}-hint`)}
        value={form[field]}
        onInput={(event) => setForm(field, event.currentTarget.value)}
      />
      <FieldError id={`${id}-error`} error={problemAt(id)} />
      <Show when={extra.hint}>
        {(hint) => (
          <p class="hint" id={`${id}-hint`}>
            {t(hint())}
          </p>
        )}
      </Show>
    </div>
  );

  return (
    <form ref={element} class="settings-form agent-editor" noValidate onSubmit={(event) => void save(event)}>
      <h3>{props.agent ? t("agents.editTitle", { name: props.agent.name }) : t("agents.newTitle")}</h3>
      <div class="field">
        <label for={AGENT_FIELD_IDS.name}>{t("agents.name")}</label>
        <input
          id={AGENT_FIELD_IDS.name}
          type="text"
          autocomplete="off"
          spellcheck={false}
          placeholder="researcher"
          readOnly={Boolean(props.agent)}
          aria-invalid={problemAt(AGENT_FIELD_IDS.name) ? "true" : undefined}
          aria-describedby={described(AGENT_FIELD_IDS.name, "agent-name-hint")}
          value={form.name}
          onInput={(event) => setForm("name", event.currentTarget.value)}
        />
        <FieldError id="agent-name-error" error={problemAt(AGENT_FIELD_IDS.name)} />
        <p class="hint" id="agent-name-hint">
          {t(props.agent ? "agents.nameFixed" : "agents.nameHint")}
        </p>
      </div>
      {input("description", AGENT_FIELD_IDS.description, "agents.description", {
        placeholder: t("agents.descriptionPlaceholder"),
      })}
      <div class="field">
        <label for={AGENT_FIELD_IDS.soul}>{t("agents.instructions")}</label>
        <textarea
          id={AGENT_FIELD_IDS.soul}
          rows={6}
          aria-invalid={problemAt(AGENT_FIELD_IDS.soul) ? "true" : undefined}
          aria-describedby={described(AGENT_FIELD_IDS.soul, "agent-soul-hint")}
          value={form.soul}
          onInput={(event) => setForm("soul", event.currentTarget.value)}
        />
        <FieldError id="agent-soul-error" error={problemAt(AGENT_FIELD_IDS.soul)} />
        <p class="hint" id="agent-soul-hint">
          {t("agents.instructionsHint")}
        </p>
      </div>
      <div class="field">
        <label for={AGENT_FIELD_IDS.model}>{t("agents.model")}</label>
        <select
          id={AGENT_FIELD_IDS.model}
          aria-invalid={problemAt(AGENT_FIELD_IDS.model) ? "true" : undefined}
          aria-describedby={described(AGENT_FIELD_IDS.model)}
          onChange={(event) => setForm("model", event.currentTarget.value)}
        >
          <option value="" selected={form.model === ""}>
            {t("agents.threadModel")}
          </option>
          <For each={models()}>
            {(choice) => (
              <option value={choice.key} selected={choice.key === form.model}>
                {choice.label}
              </option>
            )}
          </For>
        </select>
        <FieldError id="agent-model-error" error={problemAt(AGENT_FIELD_IDS.model)} />
      </div>
      <fieldset class="agent-choices" aria-describedby="agent-groups-hint">
        <legend>{t("agents.toolGroups")}</legend>
        <p class="hint" id="agent-groups-hint">
          {t("agents.toolGroupsHint")}
        </p>
        <For each={AGENT_TOOL_GROUPS}>
          {(group) => (
            <label>
              <input
                type="checkbox"
                id={`agent-group-${group.replace(":", "-")}`}
                checked={form.toolGroups.includes(group)}
                onChange={(event) => setForm("toolGroups", toggle(form.toolGroups, group, event.currentTarget.checked))}
              />
              <span>{t(GROUP_NAMES[group])}</span>
            </label>
          )}
        </For>
        <FieldError id="agent-groups-error" error={problemAt(AGENT_FIELD_IDS.tool_groups)} />
      </fieldset>
      <fieldset class="agent-choices">
        <legend>{t("agents.skills")}</legend>
        <label>
          <input
            type="radio"
            name="agent-skills"
            id="agent-skills-all"
            checked={form.skillsMode === "all"}
            onChange={() => setForm("skillsMode", "all")}
          />
          <span>{t("agents.skillsAll")}</span>
        </label>
        <label>
          <input
            type="radio"
            name="agent-skills"
            checked={form.skillsMode === "chosen"}
            onChange={() => setForm("skillsMode", "chosen")}
          />
          <span>{t("agents.skillsChosen")}</span>
        </label>
        <Show when={form.skillsMode === "chosen"}>
          <div class="agent-skill-list">
            <Show when={skills().length > 0} fallback={<p class="hint">{t("agents.noSkills")}</p>}>
              <For each={skills()}>
                {(skill) => (
                  <label>
                    <input
                      type="checkbox"
                      checked={form.skills.includes(skill)}
                      onChange={(event) => setForm("skills", toggle(form.skills, skill, event.currentTarget.checked))}
                    />
                    <span>{skill}</span>
                  </label>
                )}
              </For>
            </Show>
          </div>
        </Show>
        <FieldError id="agent-skills-error" error={problemAt(AGENT_FIELD_IDS.skills)} />
      </fieldset>
      <fieldset class="agent-choices">
        <legend>{t("agents.memory")}</legend>
        <label>
          <input
            type="radio"
            name="agent-memory"
            id="agent-memory-shared"
            checked={form.memory === "shared"}
            onChange={() => setForm("memory", "shared")}
          />
          <span>{t("agents.memoryShared")}</span>
        </label>
        <label>
          <input
            type="radio"
            name="agent-memory"
            checked={form.memory === "own"}
            onChange={() => setForm("memory", "own")}
          />
          <span>{t("agents.memoryOwn")}</span>
        </label>
      </fieldset>
      <fieldset class="agent-choices">
        <legend>{t("agents.guardrail")}</legend>
        {input("allow", AGENT_FIELD_IDS.guardrail, "agents.allow", {
          hint: "agents.allowHint",
          placeholder: "web_search, read_file",
        })}
        {input("deny", "agent-deny", "agents.deny", { hint: "agents.denyHint", placeholder: "bash" })}
      </fieldset>
      <div class="agent-numbers">
        {input("temperature", AGENT_FIELD_IDS.temperature, "agents.temperature", {
          placeholder: t("agents.modelDefault"),
        })}
        {input("maxTokens", AGENT_FIELD_IDS.max_tokens, "agents.maxTokens", { placeholder: t("agents.modelDefault") })}
      </div>
      <StatusLine status={status()} />
      <div class="actions">
        <button
          type="button"
          class="ghost"
          onClick={() => {
            // The draft is dropped: the tab has nothing left unsaved.
            announceSaved(element);
            props.onCancel();
          }}
        >
          {t("common.cancel")}
        </button>
        <button type="submit" class="primary" disabled={status()?.kind === "busy"}>
          {t("common.save")}
        </button>
      </div>
    </form>
  );
}
