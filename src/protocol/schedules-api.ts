// The schedules domain's contract (`gateway.schedules`): scheduled runs (DeerFlow's scheduled tasks). A schedule sends
// its prompt to a thread (or to a new thread each time) at set times; a Fawn server runs them in its process, a
// browser only while one of its tabs is open (one tab at a time holds the "fawn-schedules" lock and drives them).
import type { AgentMode } from "./model-endpoints.ts";

/** When a schedule runs, in its time zone. Every kind is a cron expression underneath (scheduleCron). */
export type ScheduleWhen =
  /** Every `every` minutes (1–59, from the hour) or hours (1–23, from midnight, on the hour). */
  | { kind: "every"; every: number; unit: "minutes" | "hours" }
  /** Every day at `time` ("HH:MM", 24 h). */
  | { kind: "daily"; time: string }
  /** Monday to Friday at `time`. */
  | { kind: "weekdays"; time: string }
  /** A five-field cron expression (minute hour day-of-month month day-of-week). */
  | { kind: "cron"; cron: string }
  /** Once, at `at` (ISO 8601); off afterwards. */
  | { kind: "once"; at: string };

/** How the last scheduled run went: `running` until it ends; `skipped` when it could not start (the sentence why). */
export type ScheduleOutcome = "running" | "success" | "error" | "interrupted" | "skipped";

/** What a user sets. `thread_id` null: a new thread each time. */
export interface ScheduleInput {
  name: string;
  thread_id: string | null;
  prompt: string;
  when: ScheduleWhen;
  /** An IANA time zone ("Europe/Paris"); the times of `when` are read in it. */
  timezone: string;
  enabled: boolean;
  /** The run's mode and model as the composer sends them, and its agent (absent: the defaults). */
  mode?: AgentMode;
  model?: string;
  endpoint?: string;
  agent?: string;
}

export interface Schedule extends ScheduleInput {
  id: string;
  /** ISO 8601; null when off or a `once` that has run. */
  next_run_at: string | null;
  last_run_at?: string;
  last_outcome?: ScheduleOutcome;
  /** The sentence of a failed or skipped run. */
  last_error?: string;
  last_thread_id?: string;
  last_run_id?: string;
  run_count: number;
  created_at: string;
  updated_at: string;
}

/** A schedule whose time has come, taken by one driver: its run's id and the thread it runs in (made if new). */
export interface ScheduleClaim {
  schedule: Schedule;
  run_id: string;
  thread_id: string;
}

const SCHEDULE_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** `when` as a five-field cron expression; undefined for `once` (and for a time that is not "HH:MM"). */
export function scheduleCron(when: ScheduleWhen): string | undefined {
  switch (when.kind) {
    case "every":
      return when.unit === "minutes" ? `*/${when.every} * * * *` : `0 */${when.every} * * *`;
    case "daily":
    case "weekdays": {
      const match = SCHEDULE_TIME.exec(when.time);
      if (!match) return undefined;
      const day = when.kind === "daily" ? "*" : "1-5";
      return `${Number(match[2])} ${Number(match[1])} * * ${day}`;
    }
    case "cron":
      return when.cron.trim().split(/\s+/).join(" ");
    case "once":
      return undefined;
  }
}

/** Limits every implementation checks. */
export const SCHEDULE_LIMITS = { schedules: 100, name: 100, prompt: 20_000 } as const;

/** The Web Lock one tab of this browser holds while it drives the schedules. */
export const SCHEDULES_LOCK = "fawn-schedules";

export interface SchedulesApi {
  /** Every schedule, by name. */
  list(): Promise<Schedule[]>;
  /** Rejects with one sentence per problem (UserError) before writing anything. */
  create(input: ScheduleInput): Promise<Schedule>;
  /** Changes what `changes` names; its next time is computed again. Rejects for an unknown id. */
  update(id: string, changes: Partial<ScheduleInput>): Promise<Schedule>;
  delete(id: string): Promise<void>;
  /**
   * Takes every schedule due at `now` (ms; default the clock): each moves to its next time after `now` (a time missed
   * while nothing was running runs once, not once per missed time) and is marked running. Creates the thread of a
   * "new thread each time" schedule; a schedule whose thread is gone is marked skipped. The caller starts each run
   * and reports its end with `finish`.
   */
  claimDue(now?: number): Promise<ScheduleClaim[]>;
  /** Records how a claimed run ended (ignored when a later run of the schedule has started since). */
  finish(id: string, runId: string, outcome: Exclude<ScheduleOutcome, "running">, error?: string): Promise<void>;
}
