// The schedules, as Settings → Schedules and Thread actions → "Schedule…" show them: a note on where they run (this
// browser only while Fawn is open, or the server), each schedule a group named by its name (when it runs, its next
// run, how its last run went; "<name> on", "Edit <name>", "Delete <name>" with a confirm), and "New schedule" with
// its form. Given a thread, only that thread's schedules, and a new one is for that thread.
import { createSignal, For, onCleanup, onMount, Show } from "solid-js";
import type { GatewayApi, Schedule, ScheduleInput, ScheduleWhen } from "../../protocol/index.ts";
import { errorMessage } from "../gateway-client.ts";
import "../i18n/en-schedules.ts";
import { locale, t, tn } from "../i18n/index.ts";
import { StatusLine, type Status } from "../shared/status-line.tsx";
import { draftOf, type ScheduleRun } from "./schedule-draft.ts";
import { ScheduleForm } from "./schedule-form.tsx";
import "./schedules.css";

/** The Gateway methods the schedules call. */
export type SchedulesClient = {
  schedules: Pick<GatewayApi["schedules"], "list" | "create" | "update" | "delete">;
};

/** How often an open list reads the schedules again (their last runs and next times move on their own). */
const REFRESH_MS = 10_000;

function formatTime(iso: string): string {
  return new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

export function whenText(when: ScheduleWhen): string {
  switch (when.kind) {
    case "every":
      return tn(when.unit === "minutes" ? "schedules.when.minutes" : "schedules.when.hours", when.every);
    case "daily":
      return t("schedules.when.daily", { time: when.time });
    case "weekdays":
      return t("schedules.when.weekdays", { time: when.time });
    case "cron":
      return t("schedules.when.cron", { cron: when.cron });
    case "once":
      return t("schedules.when.once", { at: formatTime(when.at) });
  }
}

function ScheduleItem(props: {
  schedule: Schedule;
  busy: boolean;
  onToggle: (enabled: boolean) => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const [confirming, setConfirming] = createSignal(false);
  const name = () => props.schedule.name;
  return (
    <li>
      <div class="schedule-item" role="group" aria-label={name()}>
        <label class="schedule-toggle">
          <input
            type="checkbox"
            aria-label={t("schedules.turnOn", { name: name() })}
            checked={props.schedule.enabled}
            disabled={props.busy}
            onChange={(event) => props.onToggle(event.currentTarget.checked)}
          />
        </label>
        <div class="schedule-text">
          <span class="schedule-name">{name()}</span>
          <span class="schedule-when">{whenText(props.schedule.when)}</span>
          <small class="hint">
            {props.schedule.next_run_at
              ? t("schedules.next", { at: formatTime(props.schedule.next_run_at) })
              : t("schedules.off")}
          </small>
          <Show when={props.schedule.last_run_at}>
            {(at) => (
              <small class="hint" data-outcome={props.schedule.last_outcome}>
                {t("schedules.last", {
                  at: formatTime(at()),
                  outcome: t(`schedules.outcome.${props.schedule.last_outcome ?? "running"}`),
                })}
                <Show when={props.schedule.last_error}>{(error) => <> — {error()}</>}</Show>
              </small>
            )}
          </Show>
        </div>
        <div class="schedule-actions">
          <Show
            when={confirming()}
            fallback={
              <>
                <button
                  type="button"
                  class="ghost"
                  aria-label={t("schedules.editNamed", { name: name() })}
                  onClick={() => props.onEdit()}
                >
                  {t("schedules.edit")}
                </button>
                <button
                  type="button"
                  class="ghost"
                  aria-label={t("schedules.deleteNamed", { name: name() })}
                  disabled={props.busy}
                  onClick={() => setConfirming(true)}
                >
                  {t("common.delete")}
                </button>
              </>
            }
          >
            <button
              type="button"
              class="danger"
              disabled={props.busy}
              ref={(button) => queueMicrotask(() => button.focus())}
              onClick={() => props.onDelete()}
            >
              {t("common.confirmDelete")}
            </button>
            <button type="button" class="ghost" onClick={() => setConfirming(false)}>
              {t("schedules.keep")}
            </button>
          </Show>
        </div>
      </div>
    </li>
  );
}

export function SchedulesPanel(props: {
  client: SchedulesClient;
  /** Only this thread's schedules, and a new one is for it. */
  threadId?: string;
  /** The server that keeps and runs them (a server workspace); absent: this browser. */
  serverName?: string;
  /** How a new schedule runs (the composer's choice and the thread's agent). */
  run?: ScheduleRun;
}) {
  const [schedules, setSchedules] = createSignal<Schedule[] | undefined>();
  const [status, setStatus] = createSignal<Status | undefined>();
  const [busy, setBusy] = createSignal(false);
  /** The schedule being edited ("new" for a new one). */
  const [editing, setEditing] = createSignal<Schedule | "new" | undefined>();

  const refresh = async () => {
    const all = await props.client.schedules.list();
    setSchedules(props.threadId ? all.filter((schedule) => schedule.thread_id === props.threadId) : all);
  };
  onMount(() => {
    refresh().catch((error: unknown) => {
      setSchedules([]);
      setStatus({ kind: "error", text: errorMessage(error) });
    });
    const timer = setInterval(() => void refresh().catch(() => undefined), REFRESH_MS);
    onCleanup(() => clearInterval(timer));
  });

  const act = async (work: () => Promise<string>) => {
    setBusy(true);
    try {
      const done = await work();
      await refresh();
      setStatus({ kind: "ok", text: done });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  const save = async (input: ScheduleInput): Promise<string | undefined> => {
    const current = editing();
    try {
      const saved =
        current && current !== "new"
          ? await props.client.schedules.update(current.id, input)
          : await props.client.schedules.create(input);
      setEditing(undefined);
      await refresh();
      setStatus({ kind: "ok", text: t("schedules.saved", { name: saved.name }) });
      return undefined;
    } catch (error) {
      return errorMessage(error);
    }
  };

  /** The thread a form may keep: the panel's, or the edited schedule's own. */
  const formThread = () => {
    const current = editing();
    if (props.threadId) return { id: props.threadId, label: t("schedules.thisThread") };
    if (current && current !== "new" && current.thread_id)
      return { id: current.thread_id, label: t("schedules.keptThread") };
    return undefined;
  };

  return (
    <div class="schedules">
      <p class="hint schedules-note">
        {props.serverName ? t("schedules.serverNote", { server: props.serverName }) : t("schedules.browserNote")}
      </p>
      <Show when={schedules()} fallback={<p class="hint">{t("schedules.loading")}</p>}>
        {(list) => (
          <Show
            when={list().length > 0}
            fallback={<p>{props.threadId ? t("schedules.noneForThread") : t("schedules.none")}</p>}
          >
            <ul class="schedule-list" aria-label={t("schedules.title")}>
              <For each={list()}>
                {(schedule) => (
                  <ScheduleItem
                    schedule={schedule}
                    busy={busy()}
                    onToggle={(enabled) =>
                      void act(async () => {
                        const saved = await props.client.schedules.update(schedule.id, { enabled });
                        return t("schedules.saved", { name: saved.name });
                      })
                    }
                    onEdit={() => setEditing(schedule)}
                    onDelete={() =>
                      void act(async () => {
                        await props.client.schedules.delete(schedule.id);
                        return t("schedules.deleted", { name: schedule.name });
                      })
                    }
                  />
                )}
              </For>
            </ul>
          </Show>
        )}
      </Show>
      <StatusLine status={status()} />
      <Show
        when={editing()}
        keyed
        fallback={
          <div class="actions">
            <button type="button" class="primary" onClick={() => setEditing("new")}>
              {t("schedules.new")}
            </button>
          </div>
        }
      >
        {(current) => (
          <ScheduleForm
            draft={draftOf(current === "new" ? undefined : current, {
              threadId: props.threadId ?? null,
              ...(props.run && { run: props.run }),
            })}
            thread={formThread()}
            onSave={save}
            onCancel={() => setEditing(undefined)}
          />
        )}
      </Show>
    </div>
  );
}
