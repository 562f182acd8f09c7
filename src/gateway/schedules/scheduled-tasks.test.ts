// A schedule in DeerFlow's ScheduledTask words and back: Fawn's own fields survive the trip (a server workspace reads
// what the routes wrote), and a DeerFlow server's task without them reads as its cron or run_at.
import { describe, expect, it } from "vitest";
import type { Schedule } from "../../protocol/index.ts";
import {
  inputOfTaskBody,
  scheduledTaskSchema,
  scheduledTaskUpdateBody,
  scheduleOfTask,
  taskBodyOf,
  toScheduledTask,
} from "./scheduled-tasks.ts";

const schedule: Schedule = {
  id: "s1",
  name: "Digest",
  thread_id: null,
  prompt: "News?",
  when: { kind: "weekdays", time: "08:30" },
  timezone: "Asia/Shanghai",
  enabled: true,
  mode: "pro",
  agent: "researcher",
  next_run_at: "2026-03-02T00:30:00.000Z",
  last_run_at: "2026-02-27T00:30:00.000Z",
  last_outcome: "error",
  last_error: "The model said no.",
  run_count: 3,
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
};

describe("DeerFlow's ScheduledTask", () => {
  it("carries a schedule as DeerFlow shows it, and back whole", () => {
    const task = toScheduledTask(schedule);
    expect(task).toMatchObject({
      title: "Digest",
      context_mode: "fresh_thread_per_run",
      schedule_type: "cron",
      schedule_spec: { cron: "30 8 * * 1-5" },
      status: "enabled",
    });
    expect(scheduleOfTask(scheduledTaskSchema.parse(JSON.parse(JSON.stringify(task))))).toEqual(schedule);
  });

  it("reads a DeerFlow server's task by its cron or run_at, and its status", () => {
    const { fawn: _fawn, ...plain } = toScheduledTask(schedule);
    expect(scheduleOfTask({ ...plain, status: "paused" })).toMatchObject({
      when: { kind: "cron", cron: "30 8 * * 1-5" },
      enabled: false,
    });
    expect(
      scheduleOfTask({ ...plain, schedule_type: "once", schedule_spec: { run_at: "2026-04-01T10:00:00Z" } }).when,
    ).toEqual({ kind: "once", at: "2026-04-01T10:00:00Z" });
  });

  it("reads a create body with Fawn's own when over DeerFlow's spec, and DeerFlow's alone otherwise", () => {
    const { name: _name, ...rest } = schedule;
    const body = taskBodyOf({ ...rest, name: "Digest" });
    expect(inputOfTaskBody(scheduledTaskUpdateBody.parse(body))).toMatchObject({
      name: "Digest",
      thread_id: null,
      when: { kind: "weekdays", time: "08:30" },
      mode: "pro",
      agent: "researcher",
    });
    expect(
      inputOfTaskBody({ title: "x", schedule_type: "cron", schedule_spec: { cron: "0 * * * *" }, thread_id: "t1" }),
    ).toEqual({ name: "x", thread_id: "t1", when: { kind: "cron", cron: "0 * * * *" } });
  });
});
