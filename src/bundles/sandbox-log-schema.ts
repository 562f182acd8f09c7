// What one entry of a thread's sandbox log must look like when it comes from outside: a backup's or a `.fawn`'s
// history note (checked before anything is written), or a Fawn server's answer to the sandbox log route.
import { z } from "zod";
import { SANDBOX_LOG_COMMAND_MAX, SANDBOX_LOG_FILES_MAX } from "../protocol/index.ts";

const PATH_MAX = 4096;

/** One SandboxLogEntry (src/protocol/sandbox-log.ts), every field bounded. */
export const sandboxLogEntrySchema = z.object({
  id: z.string().min(1).max(200),
  at: z.number().finite().min(0),
  duration_ms: z.number().finite().min(0),
  command: z.string().max(SANDBOX_LOG_COMMAND_MAX),
  truncated: z.boolean().optional(),
  exit_code: z.number().int(),
  stopped: z.enum(["timeout", "cancelled", "limit"]).optional(),
  files_changed: z
    .array(
      z.object({
        path: z.string().startsWith("/mnt/user-data/").max(PATH_MAX),
        change: z.enum(["added", "modified", "deleted"]),
      }),
    )
    .max(SANDBOX_LOG_FILES_MAX),
  files_more: z.number().int().min(1).optional(),
});

/** The history note that keeps one entry in the thread's `entries`. */
export const sandboxCommandNoteSchema = sandboxLogEntrySchema.extend({ kind: z.literal("sandbox-command") });
