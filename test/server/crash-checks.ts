// What test/server/crash.test.ts checks on a thread after a fault, as a user of the server would see it: the saved
// messages (watched while the run went on, so what was saved before the fault is known), no half step (a tool result
// without its call, a call answered twice, a reply cut short), and the thread's file agreeing with its steps (written
// whole when its write_file step is saved, never a part of it).
import type { Replica } from "./replica-process.ts";

/** A saved message as the thread's state shows it: enough to compare before and after a fault. */
export interface SavedMessage {
  id?: string;
  type: string;
  text: string;
  toolCalls?: { id?: string; name: string; args: unknown }[];
  toolCallId?: string;
  name?: string;
}

interface RawMessage {
  id?: string;
  type?: string;
  content?: unknown;
  tool_calls?: { id?: string; name: string; args: unknown }[];
  tool_call_id?: string;
  name?: string;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) => (typeof part === "string" ? part : ((part as { text?: string }).text ?? ""))).join("");
  }
  return JSON.stringify(content ?? "");
}

/** The state's messages, each reduced to what a user sees of it. */
export function messagesOf(state: { values: unknown }): SavedMessage[] {
  const messages = ((state.values as { messages?: RawMessage[] } | null)?.messages ?? []) as RawMessage[];
  return messages.map((message) => ({
    ...(message.id && { id: message.id }),
    type: message.type ?? "?",
    text: textOf(message.content),
    ...(message.tool_calls?.length && {
      toolCalls: message.tool_calls.map((call) => ({ id: call.id, name: call.name, args: call.args })),
    }),
    ...(message.tool_call_id && { toolCallId: message.tool_call_id }),
    ...(message.type === "tool" && message.name && { name: message.name }),
  }));
}

export interface Observed {
  /** Stops watching; resolves to the last saved messages seen. */
  stop(): Promise<SavedMessage[]>;
}

/** Reads the thread's state through `replica` every 100 ms: whatever it shows was saved (committed) by then. */
export function observeThread(replica: Replica, threadId: string): Observed {
  let last: SavedMessage[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        last = messagesOf(await replica.client.threads.getState(threadId));
      } catch {
        // The database away for a moment: the last reading stands.
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return last;
    },
  };
}

export interface ThreadExpectation {
  script: { prompt: string; file: { path: string; content: string }; finalReply: RegExp };
  /** The turn is over: its prompt is there once and the last message is its final reply. */
  finished: boolean;
}

/** The thread's file at `path` through the artifacts route, or undefined when it has none (404). */
async function readFile(replica: Replica, threadId: string, path: string): Promise<string | undefined> {
  const response = await fetch(`${replica.url}/api/threads/${threadId}/artifacts${path}`, {
    headers: { authorization: `Bearer ${replica.token}` },
  });
  if (response.status === 404) return undefined;
  if (response.status !== 200) throw new Error(`Reading ${path} answered ${response.status}.`);
  return response.text();
}

/** What is wrong with the thread after a fault (empty: nothing). */
export async function checkThread(
  replica: Replica,
  threadId: string,
  messages: SavedMessage[],
  expected: ThreadExpectation,
): Promise<string[]> {
  const problems: string[] = [];
  const { script } = expected;
  const prompts = messages.filter((message) => message.type === "human" && message.text === script.prompt).length;
  if (prompts > 1 || (expected.finished && prompts !== 1)) problems.push(`the prompt is there ${prompts} times`);
  const calls = new Map<string, string>();
  const answered = new Map<string, number>();
  const turnStart = messages.findIndex((message) => message.type === "human" && message.text === script.prompt);
  messages.forEach((message, index) => {
    for (const call of message.toolCalls ?? []) {
      if (call.id) calls.set(call.id, call.name);
      if (typeof call.args !== "object" || call.args === null)
        problems.push(`a tool call's arguments are half: ${call.name}`);
    }
    if (message.type === "tool") {
      if (!message.toolCallId || !calls.has(message.toolCallId)) problems.push("a tool result without its call");
      else answered.set(message.toolCallId, (answered.get(message.toolCallId) ?? 0) + 1);
    }
    const inTurn = turnStart >= 0 && index > turnStart;
    if (inTurn && message.type === "ai" && !message.toolCalls && !script.finalReply.test(message.text)) {
      problems.push(`a reply that is not the turn's whole reply: ${JSON.stringify(message.text.slice(0, 120))}`);
    }
  });
  for (const [id, count] of answered) if (count > 1) problems.push(`tool call ${id} answered ${count} times`);
  const unanswered = [...calls.keys()].filter((id) => !answered.has(id));
  const last = messages.at(-1);
  if (unanswered.length > 0 && (expected.finished || !last?.toolCalls)) {
    problems.push(`tool calls never answered: ${unanswered.join(", ")}`);
  }
  if (expected.finished && (last?.type !== "ai" || !script.finalReply.test(last.text))) {
    problems.push(`the turn does not end with its reply: ${JSON.stringify(last)}`);
  }
  // The file: whole once its write_file step is saved; before that absent or whole (rewritten the same on Continue).
  const written = messages.some(
    (message) => message.type === "tool" && message.name === "write_file" && !/error|failed/i.test(message.text),
  );
  const content = await readFile(replica, threadId, script.file.path);
  if (written && content !== script.file.content) {
    problems.push(`write_file's step is saved but the file holds ${JSON.stringify(content?.slice(0, 80))}`);
  }
  if (!written && content !== undefined && content !== script.file.content) {
    problems.push(`a half-written file: ${JSON.stringify(content.slice(0, 80))}`);
  }
  return problems;
}
