// DeerFlow's thread.json (what its Gateway answers for a thread's state): the schema of the fields Fawn reads, and
// the one-sentence refusal of a file that does not fit it. Fields Fawn does not read are ignored.
import { z } from "zod";
import type { UserFacing } from "../shared/user-error.ts";

/** The most messages one imported thread may hold. */
export const MAX_DEERFLOW_MESSAGES = 20_000;

/** A refusal meant for the user: `message` is one sentence naming what is wrong. */
export class DeerFlowImportError extends Error implements UserFacing {
  override name = "DeerFlowImportError";
  readonly userFacing = "invalid";
}

const kwargsSchema = z.record(z.string(), z.unknown());

/** A string, or LangChain's content blocks (text, image_url, thinking, …; kinds Fawn does not show are dropped). */
const contentSchema = z.union([z.string(), z.array(z.unknown())], {
  error: "should be a string or a list of content blocks",
});

const commonFields = {
  id: z.string().nullish(),
  content: contentSchema,
  name: z.string().nullish(),
  additional_kwargs: kwargsSchema.nullish(),
};

const toolCallSchema = z.object({
  id: z.string().nullish(),
  name: z.string(),
  args: kwargsSchema.nullish(),
});

const usageSchema = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  total_tokens: z.number(),
});

const messageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("human"), ...commonFields }),
  z.object({ type: z.literal("system"), ...commonFields }),
  z.object({
    type: z.enum(["ai", "AIMessageChunk"]),
    ...commonFields,
    tool_calls: z.array(toolCallSchema).nullish(),
    usage_metadata: usageSchema.nullish(),
    response_metadata: kwargsSchema.nullish(),
  }),
  z.object({
    type: z.literal("tool"),
    ...commonFields,
    tool_call_id: z.string(),
    status: z.enum(["success", "error"]).nullish(),
    artifact: z.unknown().optional(),
  }),
]);

const todoSchema = z.object({
  content: z.string(),
  status: z.enum(["pending", "in_progress", "completed"]),
});

const valuesSchema = z.object({
  messages: z.array(messageSchema).max(MAX_DEERFLOW_MESSAGES),
  title: z.string().nullish(),
  artifacts: z.array(z.string()).nullish(),
  todos: z.array(todoSchema).nullish(),
});

const threadSchema = z.object({
  values: valuesSchema,
  thread_id: z.unknown().optional(),
  metadata: z.unknown().optional(),
  checkpoint: z.unknown().optional(),
  created_at: z.unknown().optional(),
});

export type DeerFlowMessage = z.infer<typeof messageSchema>;
export type DeerFlowValues = z.infer<typeof valuesSchema>;

/** A DeerFlow thread as Fawn reads it. */
export interface DeerFlowThread {
  /** DeerFlow's id for the thread, when the file names one. */
  threadId?: string;
  /** When DeerFlow created the thread, in milliseconds since the epoch. */
  createdAt?: number;
  values: DeerFlowValues;
}

/** `values.messages[3].type`, or `thread.json` for the whole file. */
function issuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) out += typeof key === "number" ? `[${key}]` : `${out ? "." : ""}${String(key)}`;
  return out || "thread.json";
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

const EXPECTED: Record<string, string> = {
  array: "a list",
  object: "an object",
  string: "a string",
  number: "a number",
};

function quoteList(values: readonly unknown[]): string {
  const quoted = values.map((value) => JSON.stringify(value));
  return quoted.length <= 1 ? (quoted[0] ?? "") : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}

/** What is wrong at the issue's place, as the end of a sentence. */
function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is missing";
      return `should be ${EXPECTED[issue.expected] ?? issue.expected}, not ${kindOf(issue.input)}`;
    case "invalid_value":
      return `should be ${quoteList(issue.values)}`;
    case "invalid_union": {
      const options = (issue as { options?: unknown[] }).options;
      if (options) return `should be ${quoteList(options)}`;
      return issue.message;
    }
    case "too_big":
      return `has more than ${String(issue.maximum)} items`;
    default:
      return issue.message;
  }
}

/** The first thread id among the places DeerFlow writes one (the thread, its metadata, its checkpoint). */
function threadIdOf(data: z.infer<typeof threadSchema>): string | undefined {
  const candidates = [
    data.thread_id,
    (data.metadata as { thread_id?: unknown } | null | undefined)?.thread_id,
    (data.checkpoint as { thread_id?: unknown } | null | undefined)?.thread_id,
  ];
  return candidates.find((value): value is string => typeof value === "string" && value.length > 0);
}

function timeOf(value: unknown): number | undefined {
  const time = typeof value === "string" ? Date.parse(value) : typeof value === "number" ? value : Number.NaN;
  return Number.isFinite(time) ? time : undefined;
}

/**
 * Reads a parsed thread.json: DeerFlow's thread state (`{values: {messages, title, artifacts, todos}, metadata,
 * created_at, …}`, as `GET /api/threads/{id}/state` answers) or the bare `values` object. Throws a
 * DeerFlowImportError naming the first problem, e.g. `values.messages[3].tool_call_id is missing`.
 */
export function parseDeerFlowThread(json: unknown): DeerFlowThread {
  const shaped =
    typeof json === "object" && json !== null && !Array.isArray(json) && !("values" in json) && "messages" in json
      ? { values: json }
      : json;
  const parsed = threadSchema.safeParse(shaped, { reportInput: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const detail = issue ? `${issuePath(issue.path)} ${describeIssue(issue)}` : "it does not fit";
    throw new DeerFlowImportError(`This is not a DeerFlow thread.json: ${detail}.`);
  }
  const threadId = threadIdOf(parsed.data);
  const createdAt = timeOf(parsed.data.created_at);
  return {
    ...(threadId !== undefined && { threadId }),
    ...(createdAt !== undefined && { createdAt }),
    values: parsed.data.values,
  };
}
