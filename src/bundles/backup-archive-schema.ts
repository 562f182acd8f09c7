// The backup archive's schema (docs/architecture.md#d8-bundles): its member names, JSON with bytes, and what every
// record must look like, shared by its writer (backup-archive-writer.ts) and its reader (backup-archive-reader.ts).
//
// Layout: manifest.json · settings.json · memory.json · threads/<id>/thread.json (its records) ·
// threads/<id>/files/mnt/user-data/… (its files) · skills/<name>/skill.json · skills/<name>/files/… (its files).
// Byte fields of records (serialized checkpoints) are `{"$bytes": "<base64>"}` in JSON.
import { z } from "zod";
import { fromBase64, toBase64 } from "../shared/base64.ts";
import type { UserFacing } from "../shared/user-error.ts";
import { feedbackNoteSchema } from "./feedback-note-schema.ts";
import { sandboxCommandNoteSchema } from "./sandbox-log-schema.ts";

/** Why a backup cannot be imported; `message` is one sentence for the user. */
export class BackupArchiveError extends Error implements UserFacing {
  override readonly name = "BackupArchiveError";
  readonly userFacing = "invalid";
}

export function fail(message: string): never {
  throw new BackupArchiveError(message);
}

export const MANIFEST = "manifest.json";
export const SETTINGS = "settings.json";
export const MEMORY = "memory.json";
export const THREAD_JSON = /^threads\/([A-Za-z0-9_-]{1,64})\/thread\.json$/;
// A file's name may hold any character its path rule allows, line breaks included (hence `s`).
export const THREAD_FILE = /^threads\/([A-Za-z0-9_-]{1,64})\/files(\/.+)$/s;
export const SKILL_JSON = /^skills\/([a-z0-9-]{1,64})\/skill\.json$/;
export const SKILL_FILE = /^skills\/([a-z0-9-]{1,64})\/files\/(.+)$/s;

// ---- JSON with bytes ----

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(
    JSON.stringify(value, (_key, item: unknown) => (item instanceof Uint8Array ? { $bytes: toBase64(item) } : item)),
  );
}

export function decodeJson(name: string, bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(bytes), (_key, item: unknown) => {
      if (typeof item === "object" && item !== null && !Array.isArray(item)) {
        const keys = Object.keys(item);
        const encoded = (item as { $bytes?: unknown }).$bytes;
        if (keys.length === 1 && typeof encoded === "string") return fromBase64(encoded);
      }
      return item;
    });
  } catch {
    fail(`${name} in the backup is not valid JSON.`);
  }
}

// ---- Schemas: what every record must look like (extra fields from newer Fawns are kept) ----

const text = z.string();
const bytes = z.instanceof(Uint8Array);
const time = z.number().finite();
const count = z.number().int().min(0);
const version = z.union([z.number(), z.string()]);

export const manifestSchema = z.object({
  format: z.string(),
  version: z.number().int().min(1),
  app_version: text.max(100),
  created_at: text.max(100),
  counts: z.object({
    threads: count,
    thread_files: count,
    skills: count,
    memory_facts: count,
    settings: count,
  }),
});

const threadSummarySchema = z.looseObject({
  thread_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  title: text.max(1000),
  created_at: time,
  updated_at: time,
  status: z.enum(["idle", "busy", "error"]),
  pinned: z.boolean().optional(),
  read_only: z.boolean().optional(),
});

export const threadRecordSchema = z.object({
  thread: threadSummarySchema,
  entries: z.array(
    z.looseObject({
      thread_id: text,
      seq: count,
      // A sandbox log entry and a feedback note are checked whole (they are shown as they are); the other notes
      // keep their kind.
      entry: z.discriminatedUnion("kind", [
        sandboxCommandNoteSchema,
        feedbackNoteSchema,
        z.looseObject({ kind: z.enum(["message", "error", "run-error", "stopped"]) }),
      ]),
    }),
  ),
  runs: z.array(
    z.looseObject({
      thread_id: text,
      run_id: text,
      status: z.enum(["running", "success", "error", "interrupted"]),
      created_at: time,
      updated_at: time,
      model: text.optional(),
    }),
  ),
  checkpoints: z.array(
    z.looseObject({
      thread_id: text,
      checkpoint_ns: text,
      checkpoint_id: text,
      parent_checkpoint_id: text.optional(),
      v: z.number(),
      type: text,
      checkpoint: bytes,
      metadata_type: text,
      metadata: bytes,
      channel_versions: z.record(z.string(), version),
    }),
  ),
  checkpoint_blobs: z.array(
    z.union([
      z.looseObject({
        thread_id: text,
        checkpoint_ns: text,
        channel: text,
        version,
        kind: z.literal("value"),
        type: text,
        bytes,
      }),
      z.looseObject({
        thread_id: text,
        checkpoint_ns: text,
        channel: text,
        version,
        kind: z.literal("messages"),
        seq: count,
        len: count,
        base: version.optional(),
        refs: z.array(z.tuple([text, text])),
      }),
    ]),
  ),
  checkpoint_writes: z.array(
    z.looseObject({
      thread_id: text,
      checkpoint_ns: text,
      checkpoint_id: text,
      task_id: text,
      idx: z.number().int(),
      task_path: text,
      channel: text,
      type: text,
      bytes,
    }),
  ),
  checkpoint_messages: z.array(z.looseObject({ thread_id: text, message_id: text, hash: text, type: text, bytes })),
  files: z.array(
    z.object({
      thread_id: text,
      path: text,
      size: count,
      sha256: text,
      mimeType: text.max(200),
      mtime: time,
    }),
  ),
});

export const skillSchema = z.object({
  name: z.string().regex(/^[a-z0-9-]{1,64}$/),
  enabled: z.boolean(),
  installed_at: time,
  metadata: z.looseObject({ description: text }),
});

export const settingsSchema = z.object({
  settings: z.array(z.object({ key: text.min(1).max(200), value: z.unknown() })),
  mcp_servers: z.array(
    z.looseObject({
      name: text.min(1).max(200),
      enabled: z.boolean(),
      transport: z.enum(["streamable-http", "sse", "stdio-proxy"]).optional(),
      url: text,
    }),
  ),
});

export const memorySchema = z.object({
  document: z.unknown(),
  store_items: z.array(
    z.looseObject({
      namespace_path: text,
      key: text,
      namespace: z.array(text),
      value: z.record(z.string(), z.unknown()),
      created_at: time,
      updated_at: time,
    }),
  ),
});

/** Parses `value` or fails with the first problem, naming where it is. */
export function parse<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const keys = issue?.path ?? [];
  const path = keys
    .map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`))
    .join("")
    .replace(/^\./, "");
  // zod says "expected string, received undefined" of a field that is not there: say it is missing.
  const found = keys.reduce<unknown>((node, key) => (node as Record<PropertyKey, unknown> | undefined)?.[key], value);
  const problem =
    issue?.code === "invalid_type" && found === undefined ? "is missing" : (issue?.message ?? "is not as expected");
  fail(`${where} in the backup is not valid: ${path ? `${path} ` : ""}${problem}.`);
}
