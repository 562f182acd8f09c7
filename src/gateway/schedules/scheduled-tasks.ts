// A schedule in DeerFlow's words (its `ScheduledTask` of `/api/scheduled-tasks`), both ways: the routes answer with it
// and read its create/update bodies; a server workspace reads a server's answer back into a Schedule. DeerFlow keeps
// every time as a cron expression or a `run_at`; Fawn's own fields (the `when` as the user chose it, the run's mode,
// model and agent, on/off) ride along under `fawn`, which DeerFlow's clients ignore.
import { z } from "zod";
import {
  scheduleCron,
  type Schedule,
  type ScheduleInput,
  type ScheduleOutcome,
  type ScheduleWhen,
} from "../../protocol/index.ts";

const fawnExtras = z.object({
  when: z.unknown().optional(),
  enabled: z.boolean().optional(),
  mode: z.string().optional(),
  model: z.string().optional(),
  endpoint: z.string().optional(),
  agent: z.string().optional(),
  last_outcome: z.string().optional(),
});

/** DeerFlow's create body (`ScheduledTaskCreateRequest`), with Fawn's extras. */
export const scheduledTaskCreateBody = z.object({
  thread_id: z.string().min(1).max(200).nullable().optional(),
  context_mode: z.enum(["fresh_thread_per_run", "reuse_thread"]).default("fresh_thread_per_run"),
  title: z.string().min(1).max(1000),
  prompt: z.string().min(1),
  schedule_type: z.enum(["once", "cron"]),
  schedule_spec: z.record(z.string(), z.unknown()),
  timezone: z.string().max(100),
  fawn: fawnExtras.optional(),
});

/** DeerFlow's update body (`ScheduledTaskUpdateRequest`): what it names changes. */
export const scheduledTaskUpdateBody = scheduledTaskCreateBody
  .omit({ schedule_type: true })
  .partial()
  .extend({ schedule_type: z.enum(["once", "cron"]).optional() });

/** A `ScheduledTask` as a server answers it (read as untrusted). */
export const scheduledTaskSchema = z.object({
  id: z.string().min(1).max(200),
  thread_id: z.string().max(200).nullable(),
  title: z.string().max(1000),
  prompt: z.string().max(100_000),
  schedule_type: z.string(),
  schedule_spec: z.record(z.string(), z.unknown()),
  timezone: z.string().max(100),
  status: z.string(),
  next_run_at: z.string().nullable(),
  last_run_at: z.string().nullable().optional(),
  last_run_id: z.string().nullable().optional(),
  last_thread_id: z.string().nullable().optional(),
  last_error: z.string().max(2000).nullable().optional(),
  run_count: z.number().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  fawn: fawnExtras.optional(),
});

export type ScheduledTask = z.infer<typeof scheduledTaskSchema>;

/** DeerFlow's status for a schedule: on, off, a once that has run, or its last run's state. */
function statusOf(schedule: Schedule): string {
  if (schedule.last_outcome === "running") return "running";
  if (!schedule.enabled) return schedule.when.kind === "once" && schedule.run_count > 0 ? "completed" : "paused";
  return "enabled";
}

export function toScheduledTask(schedule: Schedule) {
  const once = schedule.when.kind === "once";
  return {
    id: schedule.id,
    thread_id: schedule.thread_id,
    context_mode: schedule.thread_id ? "reuse_thread" : "fresh_thread_per_run",
    title: schedule.name,
    prompt: schedule.prompt,
    schedule_type: once ? "once" : "cron",
    schedule_spec: schedule.when.kind === "once" ? { run_at: schedule.when.at } : { cron: scheduleCron(schedule.when) },
    timezone: schedule.timezone,
    status: statusOf(schedule),
    next_run_at: schedule.next_run_at,
    last_run_at: schedule.last_run_at ?? null,
    last_run_id: schedule.last_run_id ?? null,
    last_thread_id: schedule.last_thread_id ?? null,
    last_error: schedule.last_error ?? null,
    run_count: schedule.run_count,
    created_at: schedule.created_at,
    updated_at: schedule.updated_at,
    fawn: {
      when: schedule.when,
      enabled: schedule.enabled,
      ...(schedule.mode && { mode: schedule.mode }),
      ...(schedule.model && { model: schedule.model }),
      ...(schedule.endpoint && { endpoint: schedule.endpoint }),
      ...(schedule.agent && { agent: schedule.agent }),
      ...(schedule.last_outcome && { last_outcome: schedule.last_outcome }),
    },
  } satisfies ScheduledTask & { context_mode: string };
}

/** DeerFlow's schedule type and spec as a `when` (unchecked: the service checks it). */
export function whenOfTask(type: string | undefined, spec: Record<string, unknown> | undefined): ScheduleWhen {
  if (type === "once") return { kind: "once", at: String(spec?.run_at ?? "") };
  return { kind: "cron", cron: String(spec?.cron ?? "") };
}

type Body = z.infer<typeof scheduledTaskUpdateBody>;

/** What a create or update body sets, as the service's input (Fawn's `when` over DeerFlow's spec when both). */
export function inputOfTaskBody(body: Body): Partial<ScheduleInput> {
  const fawn = body.fawn ?? {};
  const input: Partial<ScheduleInput> = {};
  if (body.title !== undefined) input.name = body.title;
  if (body.prompt !== undefined) input.prompt = body.prompt;
  if (body.timezone !== undefined) input.timezone = body.timezone;
  if (body.context_mode === "fresh_thread_per_run") input.thread_id = null;
  else if (body.thread_id !== undefined) input.thread_id = body.thread_id;
  if (fawn.when !== undefined) input.when = fawn.when as ScheduleWhen;
  else if (body.schedule_spec) input.when = whenOfTask(body.schedule_type, body.schedule_spec);
  if (fawn.enabled !== undefined) input.enabled = fawn.enabled;
  for (const key of ["mode", "model", "endpoint", "agent"] as const)
    if (fawn[key] !== undefined) (input as Record<string, unknown>)[key] = fawn[key];
  return input;
}

const OUTCOMES = new Set(["running", "success", "error", "interrupted", "skipped"]);

/** A server's task as a Schedule: Fawn's extras where the server sent them, DeerFlow's fields otherwise. */
export function scheduleOfTask(task: ScheduledTask): Schedule {
  const fawn = task.fawn ?? {};
  const when = (fawn.when as ScheduleWhen | undefined) ?? whenOfTask(task.schedule_type, task.schedule_spec);
  const outcome =
    fawn.last_outcome && OUTCOMES.has(fawn.last_outcome)
      ? (fawn.last_outcome as ScheduleOutcome)
      : task.status === "running"
        ? "running"
        : task.status === "failed"
          ? "error"
          : undefined;
  return {
    id: task.id,
    name: task.title,
    thread_id: task.thread_id,
    prompt: task.prompt,
    when,
    timezone: task.timezone,
    enabled: fawn.enabled ?? (task.status === "enabled" || task.status === "running"),
    ...(fawn.mode && { mode: fawn.mode as Schedule["mode"] }),
    ...(fawn.model && { model: fawn.model }),
    ...(fawn.endpoint && { endpoint: fawn.endpoint }),
    ...(fawn.agent && { agent: fawn.agent }),
    next_run_at: task.next_run_at,
    ...(task.last_run_at && { last_run_at: task.last_run_at }),
    ...(outcome && { last_outcome: outcome }),
    ...(task.last_error && { last_error: task.last_error }),
    ...(task.last_thread_id && { last_thread_id: task.last_thread_id }),
    ...(task.last_run_id && { last_run_id: task.last_run_id }),
    run_count: task.run_count ?? 0,
    created_at: task.created_at,
    updated_at: task.updated_at,
  };
}

/** A Schedule's input as DeerFlow's create body (with Fawn's extras), for a server workspace. */
export function taskBodyOf(input: Partial<ScheduleInput>) {
  const when = input.when;
  return {
    ...(input.name !== undefined && { title: input.name }),
    ...(input.prompt !== undefined && { prompt: input.prompt }),
    ...(input.timezone !== undefined && { timezone: input.timezone }),
    ...(input.thread_id !== undefined && {
      thread_id: input.thread_id,
      context_mode: input.thread_id ? "reuse_thread" : "fresh_thread_per_run",
    }),
    ...(when && {
      schedule_type: when.kind === "once" ? "once" : "cron",
      schedule_spec: when.kind === "once" ? { run_at: when.at } : { cron: scheduleCron(when) ?? "" },
    }),
    fawn: {
      ...(when && { when }),
      ...(input.enabled !== undefined && { enabled: input.enabled }),
      ...(input.mode && { mode: input.mode }),
      ...(input.model && { model: input.model }),
      ...(input.endpoint && { endpoint: input.endpoint }),
      ...(input.agent && { agent: input.agent }),
    },
  };
}
