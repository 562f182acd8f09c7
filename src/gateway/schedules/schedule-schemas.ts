// The schedules' schemas: what a caller may set, and a stored schedule read as untrusted (a backup may have written
// it). Loaded on use by the schedules service, so the agent worker's first chunk does not carry them.
import { z } from "zod";
import { SCHEDULE_LIMITS } from "../../protocol/index.ts";

const whenSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("every"), every: z.number(), unit: z.enum(["minutes", "hours"]) }),
  z.object({ kind: z.literal("daily"), time: z.string().max(10) }),
  z.object({ kind: z.literal("weekdays"), time: z.string().max(10) }),
  z.object({ kind: z.literal("cron"), cron: z.string().max(200) }),
  z.object({ kind: z.literal("once"), at: z.string().max(40) }),
]);

/** What a caller may set (the contract's ScheduleInput), unknown keys dropped. */
export const scheduleInputSchema = z.object({
  name: z.string().max(1000),
  thread_id: z.string().min(1).max(200).nullable(),
  prompt: z.string().max(SCHEDULE_LIMITS.prompt * 2),
  when: whenSchema,
  timezone: z.string().max(100),
  enabled: z.boolean(),
  mode: z.enum(["flash", "thinking", "pro", "ultra"]).optional(),
  model: z.string().max(500).optional(),
  endpoint: z.string().max(200).optional(),
  agent: z.string().max(200).optional(),
});

const outcomeSchema = z.enum(["running", "success", "error", "interrupted", "skipped"]);

/** A stored schedule, read as untrusted (a backup may have written it). */
export const storedSchema = scheduleInputSchema.extend({
  id: z.string().min(1).max(200),
  next_run_at: z.string().nullable(),
  last_run_at: z.string().optional(),
  last_outcome: outcomeSchema.optional(),
  last_error: z.string().max(2000).optional(),
  last_thread_id: z.string().optional(),
  last_run_id: z.string().optional(),
  run_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
