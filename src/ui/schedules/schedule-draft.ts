// A schedule as its form holds it (every field a string, as inputs give them) and back: the draft a new or an existing
// schedule opens with, the ScheduleInput a Save sends (the Gateway checks it and says what is wrong), and the words
// that say when a schedule runs.
import type { AgentMode, Schedule, ScheduleInput, ScheduleWhen } from "../../protocol/index.ts";

export type RepeatKind = "minutes" | "hours" | "daily" | "weekdays" | "cron" | "once";

export const REPEAT_KINDS: readonly RepeatKind[] = ["minutes", "hours", "daily", "weekdays", "cron", "once"];

export interface ScheduleDraft {
  name: string;
  prompt: string;
  /** null: a new thread each time. */
  threadId: string | null;
  repeat: RepeatKind;
  every: string;
  time: string;
  cron: string;
  /** A `datetime-local` value, in this browser's time. */
  at: string;
  timezone: string;
  enabled: boolean;
  mode?: AgentMode;
  model?: string;
  endpoint?: string;
  agent?: string;
}

/** How a schedule's run runs: the composer's mode and model, and the thread's agent (absent: the defaults). */
export type ScheduleRun = Pick<ScheduleInput, "mode" | "model" | "endpoint" | "agent">;

function runOf(run: ScheduleRun): ScheduleRun {
  return {
    ...(run.mode && { mode: run.mode }),
    ...(run.model && { model: run.model }),
    ...(run.endpoint && { endpoint: run.endpoint }),
    ...(run.agent && { agent: run.agent }),
  };
}

/** This browser's time zone. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

const pad = (value: number) => String(value).padStart(2, "0");

/** `date` as a `datetime-local` value in this browser's time. */
export function localDateTime(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The draft a schedule opens with: its own values, or a new one's (daily at 09:00, in this browser's zone). */
export function draftOf(
  schedule: Schedule | undefined,
  defaults: { threadId: string | null; now?: Date; run?: ScheduleRun },
): ScheduleDraft {
  const inAnHour = new Date((defaults.now ?? new Date()).getTime() + 3600_000);
  const draft: ScheduleDraft = {
    name: schedule?.name ?? "",
    prompt: schedule?.prompt ?? "",
    threadId: schedule ? schedule.thread_id : defaults.threadId,
    repeat: "daily",
    every: "30",
    time: "09:00",
    cron: "0 9 * * 1-5",
    at: localDateTime(inAnHour),
    timezone: schedule?.timezone ?? browserTimeZone(),
    enabled: schedule?.enabled ?? true,
    ...runOf(schedule ?? defaults.run ?? {}),
  };
  const when = schedule?.when;
  if (!when) return draft;
  if (when.kind === "every") return { ...draft, repeat: when.unit, every: String(when.every) };
  if (when.kind === "daily" || when.kind === "weekdays") return { ...draft, repeat: when.kind, time: when.time };
  if (when.kind === "cron") return { ...draft, repeat: "cron", cron: when.cron };
  const at = new Date(when.at);
  return { ...draft, repeat: "once", at: Number.isNaN(at.getTime()) ? draft.at : localDateTime(at) };
}

function whenOf(draft: ScheduleDraft): ScheduleWhen {
  switch (draft.repeat) {
    case "minutes":
    case "hours":
      return { kind: "every", every: Number(draft.every), unit: draft.repeat };
    case "daily":
    case "weekdays":
      return { kind: draft.repeat, time: draft.time };
    case "cron":
      return { kind: "cron", cron: draft.cron };
    case "once": {
      const at = new Date(draft.at);
      return { kind: "once", at: Number.isNaN(at.getTime()) ? draft.at : at.toISOString() };
    }
  }
}

/** What Save sends. */
export function inputOf(draft: ScheduleDraft): ScheduleInput {
  return {
    name: draft.name,
    thread_id: draft.threadId,
    prompt: draft.prompt,
    when: whenOf(draft),
    timezone: draft.timezone.trim(),
    enabled: draft.enabled,
    ...runOf(draft),
  };
}
