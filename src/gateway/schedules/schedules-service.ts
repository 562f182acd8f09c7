// The schedules domain (`gateway.schedules`): scheduled runs kept in the settings record "schedules" (so backups carry
// them), checked whole before each write, and handed to whoever drives them (the server's scheduler, or the one tab of
// this browser that holds the schedules lock) through claimDue and finish. Reads and writes take turns in this
// service; the server's scheduler also holds one Postgres lock per tick, so two replicas never claim the same time.
import {
  SCHEDULE_LIMITS,
  type ChangeNotice,
  type Schedule,
  type ScheduleClaim,
  type ScheduleInput,
  type ScheduleOutcome,
  type SchedulesApi,
} from "../../protocol/index.ts";
import { newId } from "../../shared/ids.ts";
import { UserError } from "../../shared/user-error.ts";
import type { SettingsStorage } from "../../storage/index.ts";

/** The settings record the schedules live in. */
export const SCHEDULES_SETTINGS_KEY = "schedules";

export interface SchedulesServiceOptions {
  settings: Pick<SettingsStorage, "get" | "put">;
  threads: { exists(threadId: string): Promise<boolean>; create(): Promise<{ thread_id: string }> };
  notify: (notice: ChangeNotice) => void;
  /** The clock (tests move it). */
  now?: () => number;
}

export class SchedulesService implements SchedulesApi {
  private turn: Promise<unknown> = Promise.resolve();
  private readonly now: () => number;

  constructor(private readonly options: SchedulesServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  async list(): Promise<Schedule[]> {
    const all = await this.read();
    return all.sort((a, b) => a.name.localeCompare(b.name));
  }

  create(input: ScheduleInput): Promise<Schedule> {
    return this.change(async (all) => {
      if (all.length >= SCHEDULE_LIMITS.schedules)
        throw new UserError(`Fawn keeps at most ${SCHEDULE_LIMITS.schedules} schedules: delete one first.`);
      const checked = await this.checked(input);
      const at = new Date(this.now()).toISOString();
      const schedule: Schedule = {
        ...checked,
        id: newId(),
        next_run_at: null,
        run_count: 0,
        created_at: at,
        updated_at: at,
      };
      schedule.next_run_at = await this.nextTime(schedule);
      all.push(schedule);
      return schedule;
    });
  }

  update(id: string, changes: Partial<ScheduleInput>): Promise<Schedule> {
    return this.change(async (all) => {
      const index = all.findIndex((schedule) => schedule.id === id);
      const current = all[index];
      if (!current) throw new UserError("That schedule no longer exists.", "conflict");
      const { id: _id, next_run_at: _next, ...kept } = current;
      const checked = await this.checked({ ...kept, ...changes });
      const updated: Schedule = { ...current, ...checked, updated_at: new Date(this.now()).toISOString() };
      updated.next_run_at = await this.nextTime(updated);
      all[index] = updated;
      return updated;
    });
  }

  async delete(id: string): Promise<void> {
    await this.change(async (all) => {
      const index = all.findIndex((schedule) => schedule.id === id);
      if (index >= 0) all.splice(index, 1);
      return undefined;
    });
  }

  claimDue(now: number = this.now()): Promise<ScheduleClaim[]> {
    return this.change(async (all) => {
      const claims: ScheduleClaim[] = [];
      const { nextRunAt } = await import("./schedule-times.ts");
      const at = new Date(now);
      for (const [index, schedule] of all.entries()) {
        if (!schedule.enabled || !schedule.next_run_at || Date.parse(schedule.next_run_at) > now) continue;
        // However many times were missed, the schedule runs once and moves to its next time after now.
        const next = nextRunAt(schedule.when, schedule.timezone, at);
        const taken: Schedule = {
          ...schedule,
          next_run_at: next?.toISOString() ?? null,
          ...(schedule.when.kind === "once" && { enabled: false }),
          last_run_at: at.toISOString(),
        };
        delete taken.last_error;
        const threadId = schedule.thread_id ?? (await this.options.threads.create()).thread_id;
        if (schedule.thread_id && !(await this.options.threads.exists(schedule.thread_id))) {
          all[index] = { ...taken, last_outcome: "skipped", last_error: "The schedule's thread no longer exists." };
          continue;
        }
        const runId = newId();
        all[index] = {
          ...taken,
          last_outcome: "running",
          last_run_id: runId,
          last_thread_id: threadId,
          run_count: schedule.run_count + 1,
        };
        claims.push({ schedule: all[index], run_id: runId, thread_id: threadId });
      }
      return claims;
    });
  }

  async finish(id: string, runId: string, outcome: Exclude<ScheduleOutcome, "running">, error?: string) {
    await this.change(async (all) => {
      const index = all.findIndex((schedule) => schedule.id === id);
      const schedule = all[index];
      if (!schedule || schedule.last_run_id !== runId) return undefined;
      all[index] = { ...schedule, last_outcome: outcome };
      if (error) all[index].last_error = error.slice(0, 2000);
      return undefined;
    });
  }

  /** Every stored schedule that reads as one (a malformed entry, e.g. from an old backup, is left out). */
  private async read(): Promise<Schedule[]> {
    const stored = await this.options.settings.get(SCHEDULES_SETTINGS_KEY);
    if (!Array.isArray(stored)) return [];
    const { storedSchema } = await import("./schedule-schemas.ts");
    return stored.flatMap((entry) => {
      const parsed = storedSchema.safeParse(entry);
      return parsed.success ? [parsed.data as Schedule] : [];
    });
  }

  /** Reads, changes and writes the schedules, one change at a time; writes only when `change` returns. */
  private change<T>(change: (all: Schedule[]) => Promise<T>): Promise<T> {
    const result = this.turn.then(async () => {
      const all = await this.read();
      const before = JSON.stringify(all);
      const value = await change(all);
      if (JSON.stringify(all) !== before) {
        await this.options.settings.put(SCHEDULES_SETTINGS_KEY, all);
        this.options.notify({ type: "settings-changed" });
      }
      return value;
    });
    this.turn = result.catch(() => undefined);
    return result;
  }

  /** `input` as stored, or a UserError with one sentence per problem. */
  private async checked(input: ScheduleInput): Promise<ScheduleInput> {
    const { scheduleInputSchema } = await import("./schedule-schemas.ts");
    const parsed = scheduleInputSchema.safeParse(input);
    if (!parsed.success) throw new UserError("That is not a schedule Fawn can read.");
    const { scheduleProblems } = await import("./schedule-times.ts");
    const value = parsed.data as ScheduleInput;
    const problems = scheduleProblems(value);
    if (value.when.kind === "once" && value.enabled && Date.parse(value.when.at) <= this.now())
      problems.push("The time to run at has passed.");
    if (value.thread_id && !(await this.options.threads.exists(value.thread_id)))
      problems.push("The schedule's thread no longer exists.");
    if (problems.length > 0) throw new UserError(problems.join(" "));
    return { ...value, name: value.name.trim() };
  }

  private async nextTime(schedule: Schedule): Promise<string | null> {
    if (!schedule.enabled) return null;
    const { nextRunAt } = await import("./schedule-times.ts");
    return nextRunAt(schedule.when, schedule.timezone, new Date(this.now()))?.toISOString() ?? null;
  }
}
