// The shapes Fawn's own REST routes (`/api/fawn/…`, src/gateway/http/fawn-routes.ts) answer, as zod schemas the
// remote workspace's FawnApiClient reads every answer through: a server is untrusted, so an answer is checked field by
// field (unknown keys dropped) before it reaches the page, as an imported thread is.
import { z } from "zod";
import {
  FEEDBACK_COMMENT_MAX,
  RUN_ERROR_CODES,
  type ThreadCompaction,
  type ThreadContextUsage,
  type ThreadDetail,
  type ThreadReplay,
  type ThreadSearchResult,
  type ThreadShareLink,
  type ThreadSummary,
  type WireMessage,
} from "../../protocol/index.ts";

const text = z.string().max(1_000_000);
const id = z.string().min(1).max(200);
const time = z.number().finite().nonnegative();
const count = z.number().int().nonnegative();

const contentPart = z.union([
  z.object({ type: z.literal("text"), text }),
  z.object({ type: z.literal("image_url"), image_url: z.object({ url: z.string().max(20_000_000) }) }),
]);
const content = z.union([text, z.array(contentPart).max(1000)]);
const fileRef = z.object({
  filename: z.string().max(1000),
  size: count,
  virtual_path: z.string().max(4000),
  markdown_virtual_path: z.string().max(4000).optional(),
});
const toolCall = z.object({
  id: z.string().max(1000),
  name: z.string().max(1000),
  args: z.record(z.string(), z.unknown()),
});
const usage = z.object({ input_tokens: count, output_tokens: count, total_tokens: count });

export const wireMessageSchema: z.ZodType<WireMessage> = z.discriminatedUnion("type", [
  z.object({ type: z.literal("human"), id, content, files: z.array(fileRef).max(1000).optional() }),
  z.object({
    type: z.literal("ai"),
    id,
    content,
    reasoning: text.optional(),
    tool_calls: z.array(toolCall).max(1000).optional(),
    usage_metadata: usage.optional(),
    response_metadata: z.record(z.string(), z.unknown()).optional(),
  }),
  z.object({
    type: z.literal("tool"),
    id,
    content,
    tool_call_id: z.string().max(1000),
    name: z.string().max(1000).optional(),
    status: z.enum(["success", "error"]).optional(),
    artifact: z.unknown().optional(),
  }),
  z.object({ type: z.literal("system"), id, content }),
]) as z.ZodType<WireMessage>;

const todo = z.object({ content: text, status: z.enum(["pending", "in_progress", "completed"]) });
const runErrorCode = z.enum(RUN_ERROR_CODES);
const versionChoice = z.object({
  index: z.number().int().min(1),
  count: z.number().int().min(1),
  previous: id.optional(),
  next: id.optional(),
});

const threadSummaryObject = z.object({
  thread_id: id,
  title: z.string().max(1000),
  created_at: time,
  updated_at: time,
  status: z.enum(["idle", "busy", "error"]),
  pinned: z.boolean().optional(),
  read_only: z.boolean().optional(),
  head: id.optional(),
  foreign: z
    .object({ message_ids: z.array(z.string().max(1000)).max(100_000), memory: z.boolean().optional() })
    .optional(),
  approved_tools: z.array(z.string().max(1000)).max(1000).optional(),
  agent: z.string().max(64).optional(),
});

export const threadSummarySchema: z.ZodType<ThreadSummary> = threadSummaryObject;

const threadEntry = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("message"), message: wireMessageSchema, stopped: z.boolean().optional() }),
  z.object({
    kind: z.literal("error"),
    id,
    error: z.object({ error: runErrorCode.catch("unknown"), message: z.string().max(10_000) }),
    at: time,
  }),
]);

const messageFeedback = z.object({
  message_id: z.string().min(1).max(1000),
  rating: z.union([z.literal(1), z.literal(-1)]),
  comment: z.string().max(FEEDBACK_COMMENT_MAX).optional(),
  at: time,
});

export const threadDetailSchema: z.ZodType<ThreadDetail> = threadSummaryObject.extend({
  entries: z.array(threadEntry).max(100_000),
  artifacts: z.array(z.string().max(4000)).max(10_000).optional(),
  todos: z.array(todo).max(1000).optional(),
  versions: z
    .record(z.string(), z.object({ prompt: versionChoice.optional(), reply: versionChoice.optional() }))
    .optional(),
  resumable: z.boolean().optional(),
  feedback: z.record(z.string().max(1000), messageFeedback).optional(),
}) as unknown as z.ZodType<ThreadDetail>;

export const threadSummariesSchema = z.array(threadSummarySchema).max(100_000);

export const threadReplaySchema: z.ZodType<ThreadReplay> = z.object({
  messages: z.array(wireMessageSchema).max(100_000),
  steps: z
    .array(
      z.object({
        message_ids: z.array(z.string().max(1000)).max(100_000),
        todos: z.array(todo).max(1000),
        artifacts: z.array(z.string().max(4000)).max(10_000),
      }),
    )
    .max(100_000),
});

const highlights = z.array(z.tuple([count, count])).max(1000);

export const threadSearchResultSchema: z.ZodType<ThreadSearchResult> = z.object({
  query: z.string().max(1000),
  hits: z
    .array(
      z.object({
        thread: threadSummarySchema,
        title_highlights: highlights,
        snippet: z.object({ text: z.string().max(10_000), highlights }).optional(),
      }),
    )
    .max(1000),
  total: count,
  indexing: z.boolean(),
});

const contextUsage = z.object({ tokens: count, window: count });
export const threadContextUsageSchema: z.ZodType<ThreadContextUsage> = contextUsage;
export const threadCompactionSchema: z.ZodType<ThreadCompaction> = z.object({
  compacted: z.boolean(),
  folded: count,
  usage: contextUsage,
});

export const threadShareLinkSchema: z.ZodType<ThreadShareLink> = z.union([
  z.object({ data: z.string().max(10_000_000) }),
  z.object({ too_big: z.object({ size: count, limit: count }) }),
]);

/** A refusal as a server answers it: Fawn's and DeerFlow's `{detail}` (one sentence), or a `{message}`. */
export const problemSchema = z.object({ detail: z.unknown().optional(), message: z.string().optional() });
