// What IndexedDB holds of the page's one thread, read straight from the database the agent worker writes (not
// through Fawn's code): the messages of the thread's head checkpoint, its files and its run records. The crash suite
// (crash.spec.ts) compares the screen with it after a fault. The reader follows the store layout of
// src/storage/fawn-db.ts and the message-list chains of src/storage/message-delta.ts.
import type { Page } from "@playwright/test";

export interface SavedMessage {
  id: string;
  type: "human" | "ai" | "tool" | "system" | "other";
  /** The message's text (string content, or its text parts joined). */
  text: string;
  /** An AI message's tool calls. */
  toolCalls: { id: string; name: string }[];
  /** A tool message's call. */
  toolCallId?: string;
}

export interface SavedThread {
  threadId?: string;
  /** The head checkpoint (the thread's `head`, else its newest checkpoint). */
  head?: string;
  messages: SavedMessage[];
  /** The thread's files by path, as text. */
  files: Record<string, string>;
  runs: { run_id: string; status: string; kind?: string }[];
}

/** Reads the thread of the page's origin (there must be at most one) from IndexedDB; call it once the app opened the database. */
export function savedThread(page: Page): Promise<SavedThread> {
  return page.evaluate(async () => {
    type Row = Record<string, unknown>;
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    const db = await request(indexedDB.open("fawn"));
    try {
      const tx = db.transaction([
        "threads",
        "checkpoints",
        "checkpoint_blobs",
        "checkpoint_messages",
        "thread_files",
        "runs",
      ]);
      const store = (name: string) => tx.objectStore(name);
      const empty = { messages: [], files: {}, runs: [] };
      const threads = (await request(store("threads").getAll())) as Row[];
      if (threads.length > 1) throw new Error(`expected one thread, found ${threads.length}`);
      const thread = threads[0];
      if (!thread) return empty;
      const id = thread.thread_id as string;
      const range = IDBKeyRange.bound([id], [id, []]);
      let head = thread.head as string | undefined;
      if (head === undefined) {
        const keys = (await request(
          store("checkpoints").getAllKeys(IDBKeyRange.bound([id, ""], [id, "", []])),
        )) as string[][];
        head = keys.at(-1)?.[2];
      }
      const decode = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as Row;
      const serialized: Row[] = [];
      const checkpoint =
        head === undefined ? undefined : ((await request(store("checkpoints").get([id, "", head]))) as Row);
      const version = (checkpoint?.channel_versions as Row | undefined)?.messages;
      let link =
        version === undefined
          ? undefined
          : ((await request(store("checkpoint_blobs").get([id, "", "messages", version as string]))) as Row);
      if (link?.kind === "value") serialized.push(...(decode(link.bytes as Uint8Array) as unknown as Row[]));
      else if (link) {
        const chain: Row[] = [link];
        while ((link.seq as number) !== 0) {
          link = (await request(store("checkpoint_blobs").get([id, "", "messages", link.base as string]))) as Row;
          chain.push(link);
        }
        const refs = chain.reverse().flatMap((entry) => entry.refs as [string, string][]);
        for (const [messageId, hash] of refs) {
          const record = (await request(store("checkpoint_messages").get([id, messageId, hash]))) as Row;
          serialized.push(decode(record.bytes as Uint8Array));
        }
      }
      const files: Record<string, string> = {};
      for (const file of (await request(store("thread_files").getAll(range))) as Row[]) {
        files[file.path as string] = new TextDecoder().decode(file.bytes as Uint8Array);
      }
      const runs = ((await request(store("runs").getAll(range))) as Row[])
        .sort((a, b) => (a.created_at as number) - (b.created_at as number))
        .map((run) => ({
          run_id: run.run_id as string,
          status: run.status as string,
          kind: run.kind as string | undefined,
        }));
      const types: Record<string, SavedMessage["type"]> = {
        HumanMessage: "human",
        AIMessage: "ai",
        AIMessageChunk: "ai",
        ToolMessage: "tool",
        SystemMessage: "system",
      };
      const messages = serialized.map((item): SavedMessage => {
        const kwargs = (item.kwargs ?? item) as Row;
        const className = ((item.id as string[] | undefined) ?? []).at(-1) ?? "";
        const content = kwargs.content;
        const text =
          typeof content === "string"
            ? content
            : Array.isArray(content)
              ? content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("\n")
              : "";
        const calls = (kwargs.tool_calls as Row[] | undefined) ?? [];
        return {
          id: kwargs.id as string,
          type: types[className] ?? "other",
          text,
          toolCalls: calls.map((call) => ({ id: call.id as string, name: call.name as string })),
          ...(typeof kwargs.tool_call_id === "string" && { toolCallId: kwargs.tool_call_id }),
        };
      });
      return { threadId: id, ...(head !== undefined && { head }), messages, files, runs };
    } finally {
      db.close();
    }
  });
}

/** Whether the saved messages stop mid-turn: the model has not answered the last one (what "Continue" resumes). */
export function unanswered(messages: readonly SavedMessage[]): boolean {
  const last = messages.at(-1);
  if (!last) return false;
  return last.type === "human" || last.type === "tool" || (last.type === "ai" && last.toolCalls.length > 0);
}
