// Settings → Subagents: how long and how many subagents may run, and the user's own subagent types, saved together.
import { createSignal, For, onMount, Show } from "solid-js";
import { createStore, reconcile } from "solid-js/store";
import { DEFAULT_SUBAGENT_SETTINGS, type GatewayApi, type SubagentSettings } from "../../../protocol/index.ts";
import { errorMessage } from "../../gateway-client.ts";
import { t } from "../../i18n/index.ts";
import {
  blankSubagentType,
  fromSubagentForm,
  subagentFormProblems,
  toSubagentForm,
  type SubagentForm,
  type SubagentTypeForm,
} from "./subagent-form.ts";
import { NumberField } from "../fields/number-field.tsx";
import { FieldError } from "../fields/text-field.tsx";
import { StatusLine, type Status } from "../../shared/status-line.tsx";
import { announceRefused, announceSaved } from "../settings-saved.ts";

/** The Gateway methods the Subagents tab calls. */
export type SubagentsClient = { settings: Pick<GatewayApi["settings"], "getSubagents" | "saveSubagents"> };

type TypeField = Exclude<keyof SubagentTypeForm, "key">;

/** One labelled one-line field of a subagent type. */
function TypeInput(props: {
  type: SubagentTypeForm;
  field: TypeField;
  label: string;
  kind?: "number";
  min?: number;
  max?: number;
  placeholder?: string;
  /** What is wrong with the value, shown under the field. */
  error?: string | undefined;
  onInput: (value: string) => void;
}) {
  const id = () => `${props.type.key}-${props.field}`;
  return (
    <div class="field">
      <label for={id()}>{props.label}</label>
      <input
        id={id()}
        type={props.kind ?? "text"}
        min={props.min}
        max={props.max}
        step={props.kind === "number" ? 1 : undefined}
        autocomplete="off"
        spellcheck={false}
        placeholder={props.placeholder}
        aria-invalid={props.error ? "true" : undefined}
        aria-describedby={props.error ? `${id()}-error` : undefined}
        value={props.type[props.field]}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
      <FieldError id={`${id()}-error`} error={props.error} />
    </div>
  );
}

export function SubagentsTab(props: { client: SubagentsClient }) {
  // A store, so typing into one type's fields updates them in place instead of re-creating the list's elements.
  const [form, setForm] = createStore<SubagentForm>(toSubagentForm(DEFAULT_SUBAGENT_SETTINGS));
  const [loaded, setLoaded] = createSignal(false);
  const [status, setStatus] = createSignal<Status | undefined>();
  /** Whether a Save was refused since the last one taken: then each field's problem shows, as the user fixes it. */
  const [refused, setRefused] = createSignal(false);
  const problemAt = (id: string) =>
    refused() ? subagentFormProblems(form).find((problem) => problem.id === id)?.message : undefined;
  let addButton!: HTMLButtonElement;

  /** Shows saved settings, keeping the rows' keys (and so their elements) where the types are the same. */
  const show = (settings: SubagentSettings) => {
    const next = toSubagentForm(settings);
    next.types = next.types.map((type, index) => ({ ...type, key: form.types[index]?.key ?? type.key }));
    setForm(reconcile(next, { key: "key" }));
  };

  onMount(() => {
    props.client.settings
      .getSubagents()
      .then((settings) => {
        show(settings);
        setLoaded(true);
      })
      .catch((error: unknown) => setStatus({ kind: "error", text: errorMessage(error) }));
  });

  const setType = (key: string, field: TypeField, value: string) =>
    setForm("types", (type) => type.key === key, field, value);

  const addType = () => {
    const type = blankSubagentType();
    setForm("types", form.types.length, type);
    document.getElementById(`${type.key}-name`)?.focus();
  };

  const removeType = (key: string) => {
    setForm("types", (types) => types.filter((type) => type.key !== key));
    addButton.focus();
  };

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    const found = subagentFormProblems(form);
    if (found.length > 0) {
      // Each problem shows at its field; the cursor goes to the first.
      setRefused(true);
      setStatus(undefined);
      queueMicrotask(() => document.getElementById(found[0]!.id)?.focus());
      announceRefused(element);
      return;
    }
    const read = fromSubagentForm(form);
    if ("error" in read) {
      setStatus({ kind: "error", text: read.error });
      announceRefused(element);
      return;
    }
    setStatus({ kind: "busy", text: t("common.saving") });
    try {
      show(await props.client.settings.saveSubagents(read.settings));
      setLoaded(true);
      setRefused(false);
      announceSaved(element);
      setStatus({ kind: "ok", text: t("common.saved") });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
      announceRefused(element);
    }
  };

  return (
    <form class="settings-form subagents-tab" noValidate onSubmit={(event) => void save(event)}>
      <p class="hint">{t("subagents.intro")}</p>
      <div class="subagent-limits">
        <NumberField
          id="subagent-timeout"
          label={t("subagents.timeout")}
          min={10}
          max={7200}
          value={form.timeoutSeconds}
          onInput={(value) => setForm("timeoutSeconds", value)}
          error={problemAt("subagent-timeout")}
        />
        <NumberField
          id="subagent-max-concurrent"
          label={t("subagents.perResponse")}
          min={1}
          max={4}
          value={form.maxConcurrent}
          onInput={(value) => setForm("maxConcurrent", value)}
          error={problemAt("subagent-max-concurrent")}
        />
        <NumberField
          id="subagent-max-per-run"
          label={t("subagents.perRun")}
          min={1}
          max={50}
          value={form.maxPerRun}
          onInput={(value) => setForm("maxPerRun", value)}
          error={problemAt("subagent-max-per-run")}
        />
      </div>
      <p class="hint">{t("subagents.limitsHint")}</p>
      <h3>{t("subagents.yourTypes")}</h3>
      <Show when={loaded() && form.types.length === 0}>
        <p class="hint">{t("subagents.noTypes")}</p>
      </Show>
      <For each={form.types}>
        {(type) => (
          <fieldset class="subagent-type">
            <legend>{type.name.trim() || t("subagents.newType")}</legend>
            <TypeInput
              type={type}
              field="name"
              label={t("subagents.name")}
              placeholder="researcher"
              error={problemAt(`${type.key}-name`)}
              onInput={(value) => setType(type.key, "name", value)}
            />
            <TypeInput
              type={type}
              field="description"
              label={t("subagents.description")}
              placeholder={t("subagents.descriptionPlaceholder")}
              error={problemAt(`${type.key}-description`)}
              onInput={(value) => setType(type.key, "description", value)}
            />
            <div class="field">
              <label for={`${type.key}-instructions`}>{t("subagents.instructions")}</label>
              <textarea
                id={`${type.key}-instructions`}
                rows={4}
                aria-invalid={problemAt(`${type.key}-instructions`) ? "true" : undefined}
                aria-describedby={problemAt(`${type.key}-instructions`) ? `${type.key}-instructions-error` : undefined}
                value={type.instructions}
                onInput={(event) => setType(type.key, "instructions", event.currentTarget.value)}
              />
              <FieldError id={`${type.key}-instructions-error`} error={problemAt(`${type.key}-instructions`)} />
            </div>
            <TypeInput
              type={type}
              field="tools"
              label={t("subagents.tools")}
              placeholder="web_search, web_fetch, read_file"
              error={problemAt(`${type.key}-tools`)}
              onInput={(value) => setType(type.key, "tools", value)}
            />
            <div class="inline">
              <TypeInput
                type={type}
                field="maxTurns"
                label={t("subagents.maxTurns")}
                kind="number"
                min={1}
                max={500}
                placeholder={t("subagents.default")}
                error={problemAt(`${type.key}-maxTurns`)}
                onInput={(value) => setType(type.key, "maxTurns", value)}
              />
              <TypeInput
                type={type}
                field="timeoutSeconds"
                label={t("subagents.typeTimeout")}
                kind="number"
                min={10}
                max={7200}
                placeholder={t("subagents.asAbove")}
                error={problemAt(`${type.key}-timeoutSeconds`)}
                onInput={(value) => setType(type.key, "timeoutSeconds", value)}
              />
            </div>
            <div class="actions">
              <button
                type="button"
                class="ghost danger-text"
                aria-label={t("subagents.removeType", { name: type.name.trim() }).trim()}
                onClick={() => removeType(type.key)}
              >
                {t("subagents.remove")}
              </button>
            </div>
          </fieldset>
        )}
      </For>
      <div class="inline">
        <button type="button" ref={addButton} disabled={!loaded()} onClick={addType}>
          {t("subagents.addType")}
        </button>
      </div>
      <StatusLine status={status()} />
      <div class="actions">
        <button type="submit" class="primary" disabled={!loaded()}>
          {t("subagents.save")}
        </button>
      </div>
    </form>
  );
}
