// A schedule's next time from its `when` in its time zone, and the sentences a wrong schedule gets.
import { describe, expect, it } from "vitest";
import type { ScheduleInput } from "../../protocol/index.ts";
import { scheduleCron } from "../../protocol/index.ts";
import { nextRunAt, scheduleProblems } from "./schedule-times.ts";

const base: ScheduleInput = {
  name: "Digest",
  thread_id: null,
  prompt: "Summarise the news",
  when: { kind: "daily", time: "09:30" },
  timezone: "UTC",
  enabled: true,
};

describe("a schedule's next time", () => {
  it("follows every N minutes and hours from the hour", () => {
    const after = new Date("2026-03-02T10:07:12Z");
    expect(nextRunAt({ kind: "every", every: 15, unit: "minutes" }, "UTC", after)?.toISOString()).toBe(
      "2026-03-02T10:15:00.000Z",
    );
    expect(nextRunAt({ kind: "every", every: 6, unit: "hours" }, "UTC", after)?.toISOString()).toBe(
      "2026-03-02T12:00:00.000Z",
    );
  });

  it("reads a daily time in the schedule's time zone, across a daylight-saving change", () => {
    // Paris is UTC+1 in winter and UTC+2 from 29 March 2026.
    expect(nextRunAt(base.when, "Europe/Paris", new Date("2026-03-28T09:00:00Z"))?.toISOString()).toBe(
      "2026-03-29T07:30:00.000Z",
    );
    expect(nextRunAt(base.when, "Europe/Paris", new Date("2026-03-27T09:00:00Z"))?.toISOString()).toBe(
      "2026-03-28T08:30:00.000Z",
    );
  });

  it("skips the weekend for weekdays, and takes a cron expression as written", () => {
    // 2026-03-06 is a Friday.
    const friday = new Date("2026-03-06T12:00:00Z");
    expect(nextRunAt({ kind: "weekdays", time: "08:00" }, "UTC", friday)?.toISOString()).toBe(
      "2026-03-09T08:00:00.000Z",
    );
    expect(nextRunAt({ kind: "cron", cron: "0 0 1 * *" }, "UTC", friday)?.toISOString()).toBe(
      "2026-04-01T00:00:00.000Z",
    );
    expect(scheduleCron({ kind: "weekdays", time: "08:05" })).toBe("5 8 * * 1-5");
  });

  it("runs a once schedule only before its time", () => {
    const when = { kind: "once", at: "2026-03-06T12:00:00Z" } as const;
    expect(nextRunAt(when, "UTC", new Date("2026-03-06T11:00:00Z"))?.toISOString()).toBe("2026-03-06T12:00:00.000Z");
    expect(nextRunAt(when, "UTC", new Date("2026-03-06T12:00:00Z"))).toBeNull();
  });
});

describe("a schedule's problems", () => {
  it("accept a well-formed schedule", () => {
    expect(scheduleProblems(base)).toEqual([]);
  });

  it("say one sentence per problem", () => {
    expect(
      scheduleProblems({
        ...base,
        name: " ",
        prompt: "",
        timezone: "Mars/Olympus",
        when: { kind: "daily", time: "9h" },
      }),
    ).toEqual([
      "A schedule needs a name.",
      "A schedule needs a prompt to send.",
      '"Mars/Olympus" is not a time zone (for example Europe/Paris).',
      "The time is hours and minutes, for example 09:30.",
    ]);
    expect(scheduleProblems({ ...base, when: { kind: "every", every: 90, unit: "minutes" } })).toEqual([
      "Every how many minutes: a whole number from 1 to 59.",
    ]);
    expect(scheduleProblems({ ...base, when: { kind: "cron", cron: "* * *" } })).toEqual([
      "A cron expression has five fields: minute, hour, day of month, month and day of week.",
    ]);
    expect(scheduleProblems({ ...base, when: { kind: "cron", cron: "99 * * * *" } })).toEqual([
      '"99 * * * *" is not a cron expression Fawn can read.',
    ]);
  });
});
