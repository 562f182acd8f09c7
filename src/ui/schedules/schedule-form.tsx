// The form of one schedule: "Name", "Prompt", its thread (this or its thread, or a new thread each time), "Repeat"
// (every N minutes or hours, daily, weekdays, a cron expression, once) with the field that kind needs, "Time zone",
// "On", then "Save" and "Cancel". Save sends the schedule as the Gateway takes it; its refusal (one sentence per
// problem) shows under the form and nothing is lost.
import { createSignal, For, Match, Show, Switch } from "solid-js";
import { createStore } from "solid-js/store";
import { AGENT_MODES, type AgentMode, type ScheduleInput } from "../../protocol/index.ts";
import { t } from "../i18n/index.ts";
import { StatusLine, type Status } from "../shared/status-line.tsx";
import { inputOf, REPEAT_KINDS, type ScheduleDraft } from "./schedule-draft.ts";

export function ScheduleForm(props: {
  draft: ScheduleDraft;
  /** The thread the schedule may keep ("This thread" or, for an existing one, "Its thread"); none: new each time. */
  thread: { id: string; label: string } | undefined;
  onSave: (input: ScheduleInput) => Promise<string | undefined>;
  onCancel: () => void;
}) {
  // The form keeps its own copy: the caller's draft is where it starts.
  const [draft, setDraft] = createStore<ScheduleDraft>({ ...props.draft });
  const [status, setStatus] = createSignal<Status | undefined>();
  const [saving, setSaving] = createSignal(false);
  const id = `schedule-${Math.random().toString(36).slice(2, 8)}`;

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setSaving(true);
    setStatus(undefined);
    const refused = await props.onSave(inputOf(draft));
    setSaving(false);
    if (refused) setStatus({ kind: "error", text: refused });
  };

  return (
    <form class="schedule-form" aria-label={t("schedules.new")} onSubmit={(event) => void submit(event)}>
      <label class="schedule-field">
        <span>{t("schedules.name")}</span>
        <input
          type="text"
          value={draft.name}
          maxLength={100}
          required
          onInput={(event) => setDraft("name", event.currentTarget.value)}
        />
      </label>
      <label class="schedule-field">
        <span>{t("schedules.prompt")}</span>
        <textarea rows={3} value={draft.prompt} onInput={(event) => setDraft("prompt", event.currentTarget.value)} />
      </label>
      <label class="schedule-field">
        <span>{t("schedules.thread")}</span>
        <select
          value={draft.threadId ?? ""}
          onChange={(event) => setDraft("threadId", event.currentTarget.value || null)}
        >
          <Show when={props.thread}>{(thread) => <option value={thread().id}>{thread().label}</option>}</Show>
          <option value="">{t("schedules.newThread")}</option>
        </select>
      </label>
      <div class="schedule-row">
        <label class="schedule-field">
          <span>{t("schedules.repeat")}</span>
          <select
            value={draft.repeat}
            onChange={(event) => setDraft("repeat", event.currentTarget.value as ScheduleDraft["repeat"])}
          >
            <For each={REPEAT_KINDS}>{(kind) => <option value={kind}>{t(`schedules.repeat.${kind}`)}</option>}</For>
          </select>
        </label>
        <Switch>
          <Match when={draft.repeat === "minutes" || draft.repeat === "hours"}>
            <label class="schedule-field schedule-narrow">
              <span>{t("schedules.every")}</span>
              <input
                type="number"
                min={1}
                max={draft.repeat === "minutes" ? 59 : 23}
                value={draft.every}
                onInput={(event) => setDraft("every", event.currentTarget.value)}
              />
            </label>
          </Match>
          <Match when={draft.repeat === "daily" || draft.repeat === "weekdays"}>
            <label class="schedule-field schedule-narrow">
              <span>{t("schedules.time")}</span>
              <input type="time" value={draft.time} onInput={(event) => setDraft("time", event.currentTarget.value)} />
            </label>
          </Match>
          <Match when={draft.repeat === "cron"}>
            <label class="schedule-field">
              <span>{t("schedules.cron")}</span>
              <input
                type="text"
                value={draft.cron}
                spellcheck={false}
                aria-describedby={`${id}-cron-hint`}
                onInput={(event) => setDraft("cron", event.currentTarget.value)}
              />
              <small id={`${id}-cron-hint`} class="hint">
                {t("schedules.cronHint")}
              </small>
            </label>
          </Match>
          <Match when={draft.repeat === "once"}>
            <label class="schedule-field">
              <span>{t("schedules.at")}</span>
              <input
                type="datetime-local"
                value={draft.at}
                onInput={(event) => setDraft("at", event.currentTarget.value)}
              />
            </label>
          </Match>
        </Switch>
      </div>
      <label class="schedule-field">
        <span>{t("schedules.mode")}</span>
        <select
          value={draft.mode ?? "flash"}
          onChange={(event) => setDraft("mode", event.currentTarget.value as AgentMode)}
        >
          <For each={AGENT_MODES}>{(mode) => <option value={mode}>{t(`composer.mode.${mode}`)}</option>}</For>
        </select>
        <Show when={draft.model || draft.agent}>
          <small class="hint">
            {[
              draft.model && t("schedules.model", { model: draft.model }),
              draft.agent && t("schedules.agent", { agent: draft.agent }),
            ]
              .filter(Boolean)
              .join(" · ")}
          </small>
        </Show>
      </label>
      <Show when={draft.repeat !== "once"}>
        <label class="schedule-field">
          <span>{t("schedules.timezone")}</span>
          <input
            type="text"
            value={draft.timezone}
            spellcheck={false}
            onInput={(event) => setDraft("timezone", event.currentTarget.value)}
          />
        </label>
      </Show>
      <label class="check">
        <input
          type="checkbox"
          checked={draft.enabled}
          onChange={(event) => setDraft("enabled", event.currentTarget.checked)}
        />
        {t("schedules.on")}
      </label>
      <StatusLine status={status()} />
      <div class="actions">
        <button type="button" class="ghost" onClick={() => props.onCancel()}>
          {t("common.cancel")}
        </button>
        <button type="submit" class="primary" disabled={saving()}>
          {t("common.save")}
        </button>
      </div>
    </form>
  );
}
