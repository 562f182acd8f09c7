// A schedule's times: its `when` as a cron expression, the next time after a moment (croner, in the schedule's time
// zone, so a daily 09:00 stays 09:00 across daylight-saving changes), and the sentences that say what is wrong with
// a schedule a user wrote. Loaded on use: the agent worker's first chunk does not carry croner.
import { Cron } from "croner";
import { SCHEDULE_LIMITS, scheduleCron, type ScheduleInput, type ScheduleWhen } from "../../protocol/index.ts";

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** True when `timezone` is a time zone this runtime knows. */
export function isTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** The first time strictly after `after` that `when` names, or null (a `once` already past, or none at all). */
export function nextRunAt(when: ScheduleWhen, timezone: string, after: Date): Date | null {
  if (when.kind === "once") {
    const at = new Date(when.at);
    return at.getTime() > after.getTime() ? at : null;
  }
  const cron = scheduleCron(when);
  if (!cron) return null;
  const job = new Cron(cron, { timezone, paused: true });
  try {
    return job.nextRun(after);
  } finally {
    job.stop();
  }
}

/** What is wrong with `input`, one sentence per problem; [] when it can be saved. */
export function scheduleProblems(input: ScheduleInput): string[] {
  const problems: string[] = [];
  const name = input.name.trim();
  if (!name) problems.push("A schedule needs a name.");
  else if (name.length > SCHEDULE_LIMITS.name)
    problems.push(`A schedule's name is at most ${SCHEDULE_LIMITS.name} characters.`);
  if (!input.prompt.trim()) problems.push("A schedule needs a prompt to send.");
  else if (input.prompt.length > SCHEDULE_LIMITS.prompt)
    problems.push(`A schedule's prompt is at most ${SCHEDULE_LIMITS.prompt} characters.`);
  const timezoneKnown = isTimeZone(input.timezone);
  if (!timezoneKnown) problems.push(`"${input.timezone}" is not a time zone (for example Europe/Paris).`);
  const when = input.when;
  if (when.kind === "every") {
    const most = when.unit === "minutes" ? 59 : 23;
    if (!Number.isInteger(when.every) || when.every < 1 || when.every > most)
      problems.push(`Every how many ${when.unit}: a whole number from 1 to ${most}.`);
  } else if (when.kind === "daily" || when.kind === "weekdays") {
    if (!TIME.test(when.time)) problems.push("The time is hours and minutes, for example 09:30.");
  } else if (when.kind === "cron") {
    const fields = when.cron.trim().split(/\s+/).filter(Boolean);
    if (fields.length !== 5)
      problems.push("A cron expression has five fields: minute, hour, day of month, month and day of week.");
    else if (timezoneKnown && !validCron(fields.join(" "), input.timezone))
      problems.push(`"${when.cron.trim()}" is not a cron expression Fawn can read.`);
  } else if (Number.isNaN(new Date(when.at).getTime())) {
    problems.push("The date and time to run at is not a date.");
  }
  return problems;
}

function validCron(cron: string, timezone: string): boolean {
  try {
    new Cron(cron, { timezone, paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}
