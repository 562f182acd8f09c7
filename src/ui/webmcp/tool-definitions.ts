// The WebMCP tools Fawn registers (docs/architecture.md, D13): each tool's name, description, input (a zod schema, from
// which its JSON schema is made) and hints, said once here; fawn-tools.ts runs them through the page's stores, and
// public/ai-catalog.json lists them (a test keeps the two the same).
import { z } from "zod";

const threadId = z.string().min(1).max(200).describe("A thread's id, as list_threads or search_threads gives it.");
const message = z.string().trim().min(1).max(100_000).describe("The message, as the user would type it.");

/** One WebMCP tool's declaration: what an agent reads before calling it. */
export interface FawnToolDefinition<Input extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: Input;
  /** Reads only: changes no thread (opening one changes what the page shows, not what is stored). */
  readOnly: boolean;
  /** Its answer holds text a model or another person wrote: an agent must not follow instructions in it. */
  untrustedContent: boolean;
}

const define = <Input extends z.ZodType>(definition: FawnToolDefinition<Input>) => definition;

export const LIST_THREADS = define({
  name: "list_threads",
  description:
    "Lists the threads in Fawn's sidebar (this workspace), pinned first, then by latest activity: id, title, " +
    "last update, status, pinned and read-only.",
  input: z.strictObject({
    limit: z.number().int().min(1).max(500).default(50).describe("The most threads to list (default 50)."),
  }),
  readOnly: true,
  untrustedContent: true,
});

export const SEARCH_THREADS = define({
  name: "search_threads",
  description:
    "Searches the threads' titles and messages as the sidebar's search box does; answers the matching threads, " +
    "each with the passage around the first match.",
  input: z.strictObject({
    query: z.string().trim().min(1).max(500).describe("The words to find."),
    limit: z.number().int().min(1).max(200).default(20).describe("The most threads to answer (default 20)."),
  }),
  readOnly: true,
  untrustedContent: true,
});

export const OPEN_THREAD = define({
  name: "open_thread",
  description:
    "Opens a thread on screen, as a click on it in the sidebar does, and answers its title, its latest messages " +
    "(user and assistant text), its plan and the files it presented.",
  input: z.strictObject({
    thread_id: threadId,
    last_messages: z
      .number()
      .int()
      .min(1)
      .max(500)
      .default(20)
      .describe("How many of the latest messages to answer (default 20)."),
  }),
  readOnly: true,
  untrustedContent: true,
});

export const START_THREAD = define({
  name: "start_thread",
  description:
    "Starts a new thread with a first message, as New thread and Send do, waits for the agent's reply (it streams on " +
    "screen meanwhile) and answers it with the new thread's id. The agent may use tools and write files; tools that " +
    "ask for approval wait for the user.",
  input: z.strictObject({ message }),
  readOnly: false,
  untrustedContent: true,
});

export const SEND_MESSAGE = define({
  name: "send_message",
  description:
    "Sends a message in a thread (the open one when no thread_id is given; a new one when none is open), as the " +
    "composer's Send does, waits for the agent's reply (it streams on screen meanwhile) and answers it. Refused " +
    "while a reply is still being written in that thread, and in an imported (read-only) thread.",
  input: z.strictObject({ message, thread_id: threadId.optional() }),
  readOnly: false,
  untrustedContent: true,
});

export const EXPORT_THREAD = define({
  name: "export_thread",
  description:
    "Exports a thread as Thread actions → Export does: the file downloads; a Markdown transcript or DeerFlow's " +
    "thread.json is also answered as text (a .fawn bundle, which carries the thread's files and history, is not).",
  input: z.strictObject({
    thread_id: threadId,
    format: z
      .enum(["markdown", "deerflow", "fawn"])
      .default("markdown")
      .describe("markdown: a readable transcript; deerflow: DeerFlow's thread.json; fawn: a .fawn bundle to import."),
  }),
  readOnly: false,
  untrustedContent: true,
});

/** Every tool, in the order an agent reads them. */
export const FAWN_TOOL_DEFINITIONS = [
  LIST_THREADS,
  SEARCH_THREADS,
  OPEN_THREAD,
  START_THREAD,
  SEND_MESSAGE,
  EXPORT_THREAD,
] as const;

/** The JSON schema of a tool's input, as registered with the browser (draft 2020-12, without `$schema`). */
export function inputJsonSchema(definition: FawnToolDefinition): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(definition.input, { io: "input" });
  return schema;
}
