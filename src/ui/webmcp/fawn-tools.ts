// What each WebMCP tool does (tool-definitions.ts declares them): the same store calls the page's controls make, so an
// agent's call shows on screen as the user's would and meets the same refusals (an imported thread takes no message,
// one reply at a time per thread). Answers are text an agent reads; model text in them is marked untrusted.
import * as z from "zod/mini";
import type { MessageContent, ThreadDetail, ThreadEntry } from "../../protocol/index.ts";
import { errorMessage } from "../gateway-client.ts";
import type { Stores } from "../state/stores.tsx";
import {
  EXPORT_THREAD,
  LIST_THREADS,
  OPEN_THREAD,
  SEARCH_THREADS,
  SEND_MESSAGE,
  START_THREAD,
  type FawnToolDefinition,
} from "./tool-definitions.ts";

/** A tool's answer, as WebMCP (and MCP) carry it. */
export interface ToolResult {
  content: { type: "text"; text: string }[];
  isError?: boolean;
}

/** A refusal an agent can act on: its message is the answer's text. */
export class ToolRefusal extends Error {}

/** The most characters of an exported transcript answered as text (the whole file still downloads). */
const MAX_EXPORT_TEXT = 200_000;

/**
 * A message's text: protocol's contentText, written again here because a value imported from the page's first chunk
 * splits it into a chunk of its own, which costs the first screen's budget 0.5 KB.
 */
function textOf(content: MessageContent): string {
  return typeof content === "string"
    ? content
    : content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

interface MessageView {
  role: "user" | "assistant";
  text: string;
}

/** The thread's user and assistant messages as text (tool steps and empty tool-call turns left out), errors named. */
function messageViews(entries: readonly ThreadEntry[]): MessageView[] {
  return entries.flatMap((entry): MessageView[] => {
    if (entry.kind === "error") return [{ role: "assistant", text: `(The run failed: ${entry.error.message})` }];
    const { message } = entry;
    if (message.type !== "human" && message.type !== "ai") return [];
    const text = textOf(message.content).trim();
    if (!text) return [];
    return [
      { role: message.type === "human" ? "user" : "assistant", text: entry.stopped ? `${text} (stopped)` : text },
    ];
  });
}

const countMessages = (detail: ThreadDetail) => detail.entries.filter((entry) => entry.kind === "message").length;

/** Runs one tool: `input` already checked against its schema. */
type Executor<Input extends z.ZodMiniType> = (input: z.output<Input>) => Promise<unknown>;

/**
 * The tools over the page's current stores (`shown()`: the open workspace's, looked up at each call; none while the
 * app is still starting or switching workspace).
 */
export function createFawnTools(shown: () => Stores | undefined) {
  const stores = (): Stores => {
    const current = shown();
    if (!current) throw new ToolRefusal("Fawn is still starting: call the tool again in a moment.");
    return current;
  };
  /** Sends `text` in the open thread (a new one when none is open) and answers the reply once the run has ended. */
  async function sendAndRead(text: string) {
    const { openThread, runs, client } = stores();
    if (!openThread.canReply())
      throw new ToolRefusal("This thread is read-only (imported, shared or being replayed): it takes no message.");
    if (runs.run()) throw new ToolRefusal("A reply is still being written in this thread: wait for it, or Stop it.");
    const before = await openThread.ensure();
    const threadId = before.thread_id;
    const earlier = countMessages(before);
    // A notice already on screen ("Copied to …") is not this run's reason.
    const noticeBefore = stores().notices.notice();
    // What the composer's Send runs; it resolves once the run has ended and the thread has been read again.
    await runs.send(text);
    const after =
      openThread.current()?.thread_id === threadId ? openThread.current() : await client.threads.get(threadId);
    if (!after) throw new ToolRefusal("The thread was deleted while the reply was being written.");
    // The run's entries: after the message just sent (earlier runs' error notes stay out).
    const fresh = after.entries.slice(indexAfterMessages(after.entries, earlier + 1));
    const reply = messageViews(fresh).filter((view) => view.role === "assistant");
    const failed = fresh.some((entry) => entry.kind === "error");
    const notice = stores().notices.notice();
    const newNotice = notice !== noticeBefore ? notice : undefined;
    return {
      thread_id: threadId,
      title: after.title,
      status: failed ? "error" : after.status,
      reply: reply.map((view) => view.text).join("\n\n"),
      // A run that did not start (no model set up, the thread busy in another tab) says why in the notice line.
      ...(reply.length === 0 && newNotice && { note: newNotice.text }),
      ...(after.artifacts?.length && { files: after.artifacts }),
    };
  }

  /** Opens a thread as a click on it does; an unknown id is refused first, leaving the page as it was. */
  async function openKnown(threadId: string): Promise<void> {
    const { client, openThread, threadList } = stores();
    // The list the page shows answers at once; only an id it lacks (a thread made a moment ago) is asked for.
    const listed = threadList.threads().some((thread) => thread.thread_id === threadId);
    if (!listed && !(await client.threads.get(threadId))) throw new ToolRefusal(`No thread has the id ${threadId}.`);
    await openThread.open(threadId);
  }

  const executors = new Map<string, Executor<z.ZodMiniType>>();
  const add = <Input extends z.ZodMiniType>(definition: FawnToolDefinition<Input>, run: Executor<Input>) =>
    executors.set(definition.name, run as Executor<z.ZodMiniType>);

  add(LIST_THREADS, async ({ limit }) => {
    const { threadList } = stores();
    await threadList.refresh();
    const threads = threadList.threads();
    return {
      total: threads.length,
      threads: threads.slice(0, limit).map((thread) => ({
        thread_id: thread.thread_id,
        title: thread.title,
        updated_at: new Date(thread.updated_at).toISOString(),
        status: thread.status,
        ...(thread.pinned && { pinned: true }),
        ...(thread.read_only && { read_only: true }),
      })),
    };
  });

  add(SEARCH_THREADS, async ({ query, limit }) => {
    const result = await stores().client.threads.search(query, { limit });
    return {
      total: result.total,
      ...(result.indexing && { note: "Older threads are still being indexed: search again for more." }),
      threads: result.hits.map((hit) => ({
        thread_id: hit.thread.thread_id,
        title: hit.thread.title,
        updated_at: new Date(hit.thread.updated_at).toISOString(),
        ...(hit.snippet && { passage: hit.snippet.text }),
      })),
    };
  });

  add(OPEN_THREAD, async ({ thread_id, last_messages }) => {
    const { openThread } = stores();
    await openKnown(thread_id);
    const detail = openThread.current();
    if (detail?.thread_id !== thread_id) throw new ToolRefusal(`Thread ${thread_id} could not be opened.`);
    const messages = messageViews(detail.entries);
    return {
      thread_id,
      title: detail.title,
      status: detail.status,
      ...(detail.read_only && { read_only: true }),
      message_count: messages.length,
      messages: messages.slice(-last_messages),
      ...(detail.todos?.length && { plan: detail.todos }),
      ...(detail.artifacts?.length && { files: detail.artifacts }),
    };
  });

  add(START_THREAD, async ({ message }) => {
    // New thread: the welcome page, until the first message makes the thread (a run of the open one keeps going).
    await stores().openThread.newThread();
    return sendAndRead(message);
  });

  add(SEND_MESSAGE, async ({ message, thread_id }) => {
    const { openThread } = stores();
    if (thread_id !== undefined && openThread.current()?.thread_id !== thread_id) {
      await openKnown(thread_id);
      if (openThread.current()?.thread_id !== thread_id)
        throw new ToolRefusal(`Thread ${thread_id} could not be opened.`);
    }
    return sendAndRead(message);
  });

  add(EXPORT_THREAD, async ({ thread_id, format }) => {
    const { threadList, notices } = stores();
    const exported = await threadList.export(thread_id, format);
    // The store showed the refusal as a notice; the agent reads the same sentence.
    if (!exported) throw new ToolRefusal(notices.notice()?.text ?? `Thread ${thread_id} could not be exported.`);
    const answer = { file_name: exported.file_name, size: exported.blob.size, downloaded: true };
    if (format === "fawn") return answer;
    const text = await exported.blob.text();
    return {
      ...answer,
      text: text.slice(0, MAX_EXPORT_TEXT),
      ...(text.length > MAX_EXPORT_TEXT && { truncated: true }),
    };
  });

  /** Runs tool `name` on `input` (checked against its schema first); a refusal or a failure is an error answer. */
  return async function call(definition: FawnToolDefinition, input: unknown): Promise<ToolResult> {
    const run = executors.get(definition.name);
    // Some WebMCP versions hand the input over as JSON text.
    const parsed = definition.input.safeParse(typeof input === "string" ? parseJson(input) : (input ?? {}));
    if (!run) return refusal(`Fawn has no tool named ${definition.name}.`);
    if (!parsed.success)
      return refusal(`The input does not fit ${definition.name}'s schema: ${z.prettifyError(parsed.error)}`);
    try {
      return { content: [{ type: "text", text: JSON.stringify(await run(parsed.data), null, 2) }] };
    } catch (error) {
      return refusal(error instanceof ToolRefusal ? error.message : errorMessage(error));
    }
  };
}

/** The index in `entries` just past its first `messages` messages (where a run's new entries begin). */
function indexAfterMessages(entries: readonly ThreadEntry[], messages: number): number {
  let seen = 0;
  for (let index = 0; index < entries.length; index++) {
    if (seen === messages) return index;
    if (entries[index]?.kind === "message") seen++;
  }
  return entries.length;
}

const refusal = (text: string): ToolResult => ({ content: [{ type: "text", text }], isError: true });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
