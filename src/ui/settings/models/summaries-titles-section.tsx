// Settings → Models → "Summaries and titles" (DeerFlow's summarization and title config): when older messages are
// condensed for the model and what stays as it is, and whether new threads get a title, how long, from which prompt.
// A disclosure of its own with its own Save, so the Models form stays calm; the service checks and says each problem.
import { createSignal, For, onMount, Show } from "solid-js";
import { createStore } from "solid-js/store";
import {
  DEFAULT_SUMMARIES_AND_TITLES,
  type ContextSize,
  type ContextSizeKind,
  type GatewayApi,
  type SummariesAndTitles,
} from "../../../protocol/index.ts";
import { errorMessage } from "../../gateway-client.ts";
import { t, type TextKey } from "../../i18n/index.ts";
import { StatusLine, type Status } from "../../shared/status-line.tsx";
import { NumberField } from "../fields/number-field.tsx";
import { announceRefused, announceSaved } from "../settings-saved.ts";
import "./summaries-titles.css";

/** The Gateway methods the section calls. */
export type SummariesTitlesClient = {
  settings: Pick<GatewayApi["settings"], "getSummariesAndTitles" | "saveSummariesAndTitles">;
};

const KINDS: readonly ContextSizeKind[] = ["tokens", "messages", "fraction"];
const KIND_LABELS: Record<ContextSizeKind, TextKey> = {
  tokens: "summaries.kind.tokens",
  messages: "summaries.kind.messages",
  fraction: "summaries.kind.fraction",
};

/** The section's fields as typed: each trigger's text ("" = not a trigger), what is kept, the title's fields. */
interface SummariesTitlesForm {
  summarize: boolean;
  trigger: Record<ContextSizeKind, string>;
  keepType: ContextSizeKind;
  keepValue: string;
  titles: boolean;
  maxWords: string;
  maxChars: string;
  prompt: string;
}

function toForm(settings: SummariesAndTitles): SummariesTitlesForm {
  const trigger = { tokens: "", messages: "", fraction: "" };
  for (const size of settings.summarization.trigger) trigger[size.type] = String(size.value);
  return {
    summarize: settings.summarization.enabled,
    trigger,
    keepType: settings.summarization.keep.type,
    keepValue: String(settings.summarization.keep.value),
    titles: settings.titles.enabled,
    maxWords: String(settings.titles.maxWords),
    maxChars: String(settings.titles.maxChars),
    prompt: settings.titles.prompt ?? "",
  };
}

/** A typed number as it is ("" stays absent, text that is no number reaches the check, which names it). */
const numberOf = (text: string): number => (text.trim() === "" ? Number.NaN : Number(text));

function fromForm(form: SummariesTitlesForm): SummariesAndTitles {
  const trigger: ContextSize[] = KINDS.filter((kind) => form.trigger[kind].trim() !== "").map((kind) => ({
    type: kind,
    value: numberOf(form.trigger[kind]),
  }));
  return {
    summarization: {
      enabled: form.summarize,
      trigger,
      keep: { type: form.keepType, value: numberOf(form.keepValue) },
    },
    titles: {
      enabled: form.titles,
      maxWords: numberOf(form.maxWords),
      maxChars: numberOf(form.maxChars),
      ...(form.prompt.trim() !== "" && { prompt: form.prompt }),
    },
  };
}

const RANGES: Record<ContextSizeKind, { min: number; max: number; step: number }> = {
  tokens: { min: 100, max: 10_000_000, step: 1 },
  messages: { min: 1, max: 10_000, step: 1 },
  fraction: { min: 0.01, max: 1, step: 0.05 },
};

export function SummariesTitlesSection(props: { client: SummariesTitlesClient }) {
  const [form, setForm] = createStore<SummariesTitlesForm>(toForm(DEFAULT_SUMMARIES_AND_TITLES));
  const [status, setStatus] = createSignal<Status | undefined>();

  onMount(() => {
    props.client.settings
      .getSummariesAndTitles()
      .then((settings) => setForm(toForm(settings)))
      .catch((error: unknown) => setStatus({ kind: "error", text: errorMessage(error) }));
  });

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    setStatus({ kind: "busy", text: t("common.saving") });
    try {
      setForm(toForm(await props.client.settings.saveSummariesAndTitles(fromForm(form))));
      announceSaved(element);
      setStatus({ kind: "ok", text: t("common.saved") });
    } catch (error) {
      // The service's sentences, one per problem; nothing typed is lost.
      setStatus({ kind: "error", text: errorMessage(error) });
      announceRefused(element);
    }
  };

  return (
    <details class="summaries-titles">
      <summary>{t("summaries.title")}</summary>
      <form class="settings-form" noValidate onSubmit={(event) => void save(event)}>
        <p class="hint">{t("summaries.hint")}</p>
        <fieldset class="model-list">
          <legend>{t("summaries.summaries")}</legend>
          <label class="check">
            <input
              type="checkbox"
              checked={form.summarize}
              onChange={(event) => setForm("summarize", event.currentTarget.checked)}
            />
            {t("summaries.summarize")}
          </label>
          <Show when={form.summarize}>
            <p class="hint">{t("summaries.triggerHint")}</p>
            <div class="inline summaries-fields">
              <For each={KINDS}>
                {(kind) => (
                  <NumberField
                    id={`summaries-trigger-${kind}`}
                    label={t(`summaries.trigger.${kind}`)}
                    {...RANGES[kind]}
                    value={form.trigger[kind]}
                    onInput={(value) => setForm("trigger", kind, value)}
                  />
                )}
              </For>
            </div>
            <div class="inline summaries-fields">
              <div class="field">
                <label for="summaries-keep-type">{t("summaries.keepType")}</label>
                <select
                  id="summaries-keep-type"
                  value={form.keepType}
                  onChange={(event) => setForm("keepType", event.currentTarget.value as ContextSizeKind)}
                >
                  <For each={KINDS}>
                    {(kind) => (
                      <option value={kind} selected={kind === form.keepType}>
                        {t(KIND_LABELS[kind])}
                      </option>
                    )}
                  </For>
                </select>
              </div>
              <NumberField
                id="summaries-keep-value"
                label={t("summaries.keepValue")}
                {...RANGES[form.keepType]}
                value={form.keepValue}
                onInput={(value) => setForm("keepValue", value)}
              />
            </div>
          </Show>
        </fieldset>
        <fieldset class="model-list">
          <legend>{t("summaries.titles")}</legend>
          <label class="check">
            <input
              type="checkbox"
              checked={form.titles}
              onChange={(event) => setForm("titles", event.currentTarget.checked)}
            />
            {t("summaries.titlesOn")}
          </label>
          <Show when={form.titles}>
            <div class="inline summaries-fields">
              <NumberField
                id="summaries-max-words"
                label={t("summaries.maxWords")}
                min={1}
                max={20}
                value={form.maxWords}
                onInput={(value) => setForm("maxWords", value)}
              />
              <NumberField
                id="summaries-max-chars"
                label={t("summaries.maxChars")}
                min={10}
                max={200}
                value={form.maxChars}
                onInput={(value) => setForm("maxChars", value)}
              />
            </div>
            <div class="field">
              <label for="summaries-title-prompt">{t("summaries.prompt")}</label>
              <textarea
                id="summaries-title-prompt"
                rows={4}
                aria-describedby="summaries-title-prompt-hint"
                value={form.prompt}
                onInput={(event) => setForm("prompt", event.currentTarget.value)}
              />
              <p class="hint" id="summaries-title-prompt-hint">
                {t("summaries.promptHint")}
              </p>
            </div>
          </Show>
        </fieldset>
        <StatusLine status={status()} />
        <div class="actions">
          <button type="submit" class="primary">
            {t("summaries.save")}
          </button>
        </div>
      </form>
    </details>
  );
}
