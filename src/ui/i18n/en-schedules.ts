// The English dictionary, part: scheduled runs, in Settings → Schedules and Thread actions → "Schedule…". Only their
// lazily loaded components import this part, and it adds itself to the English dictionary as it loads (index.ts
// `addEnglish`).
import { template } from "@solid-primitives/i18n";
import { addEnglish } from "./index.ts";

export const enSchedules = {
  "schedules.title": "Schedules",
  "schedules.dialogTitle": "Schedule",
  "schedules.close": "Close",
  "schedules.browserNote":
    "Schedules run only while Fawn is open in a tab of this browser: a closed browser runs nothing. A time missed while it was closed runs once when Fawn opens again.",
  "schedules.serverNote": template<{ server: string }>(
    "These schedules are kept and run by {{ server }}, whether or not this browser is open.",
  ),
  "schedules.none": "No schedules yet.",
  "schedules.noneForThread": "This thread has no schedules.",
  "schedules.loading": "Reading the schedules…",
  "schedules.new": "New schedule",
  "schedules.name": "Name",
  "schedules.prompt": "Prompt",
  "schedules.thread": "Thread",
  "schedules.thisThread": "This thread",
  "schedules.keptThread": "Its thread",
  "schedules.newThread": "A new thread each time",
  "schedules.repeat": "Repeat",
  "schedules.repeat.minutes": "Every N minutes",
  "schedules.repeat.hours": "Every N hours",
  "schedules.repeat.daily": "Daily",
  "schedules.repeat.weekdays": "Weekdays",
  "schedules.repeat.cron": "Cron expression",
  "schedules.repeat.once": "Once",
  "schedules.every": "Every",
  "schedules.time": "Time",
  "schedules.cron": "Cron expression",
  "schedules.cronHint": "Five fields: minute, hour, day of month, month, day of week (for example 0 9 * * 1).",
  "schedules.at": "Date and time",
  "schedules.timezone": "Time zone",
  "schedules.on": "On",
  "schedules.turnOn": template<{ name: string }>("{{ name }} on"),
  "schedules.edit": "Edit",
  "schedules.editNamed": template<{ name: string }>("Edit {{ name }}"),
  "schedules.deleteNamed": template<{ name: string }>("Delete {{ name }}"),
  "schedules.keep": "Keep",
  "schedules.saved": template<{ name: string }>("Saved {{ name }}."),
  "schedules.deleted": template<{ name: string }>("Deleted {{ name }}."),
  "schedules.when.minutes.one": "Every minute",
  "schedules.when.minutes.other": template<{ count: string }>("Every {{ count }} minutes"),
  "schedules.when.hours.one": "Every hour",
  "schedules.when.hours.other": template<{ count: string }>("Every {{ count }} hours"),
  "schedules.when.daily": template<{ time: string }>("Daily at {{ time }}"),
  "schedules.when.weekdays": template<{ time: string }>("Weekdays at {{ time }}"),
  "schedules.when.cron": template<{ cron: string }>("Cron {{ cron }}"),
  "schedules.when.once": template<{ at: string }>("Once, {{ at }}"),
  "schedules.next": template<{ at: string }>("Next run: {{ at }}"),
  "schedules.off": "Off",
  "schedules.last": template<{ at: string; outcome: string }>("Last run: {{ at }}, {{ outcome }}"),
  "schedules.outcome.running": "running",
  "schedules.outcome.success": "done",
  "schedules.outcome.error": "failed",
  "schedules.outcome.interrupted": "stopped",
  "schedules.outcome.skipped": "skipped",
  "schedules.openThread": "Open its last thread",
};

// Only the schedules' components import this part: its texts join the English dictionary as their chunk loads.
addEnglish(enSchedules);
