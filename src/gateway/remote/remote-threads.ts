// A server workspace's threads (`workspace.threads`, docs/architecture.md#d13-workspaces): the list, a thread's
// history, create/rename/pin/delete through LangGraph's API (the SDK), its files through the REST routes, and on a
// Fawn server its detail (versions, error notes), search, replay and memory switch through Fawn's own routes. Every
// answer is validated; reads fall back to what this browser kept when the server is unreachable.
import { z } from "zod";
import {
  isTodoItem,
  MAX_THREAD_SEARCH_LIMIT,
  type FileEdit,
  type ReplayStep,
  type SavedFileEdit,
  type TextHighlights,
  type ThreadDetail,
  type ThreadFileContent,
  type ThreadReplay,
  type ThreadSearchResult,
  type ThreadsApi,
  type SandboxLogEntry,
  type ThreadSummary,
  type UploadListEntry,
  type UploadResult,
  type WireMessage,
} from "../../protocol/index.ts";
import { UserError } from "../../shared/user-error.ts";
import { wireMessagesOf } from "../runs/langgraph-stream-events.ts";
import {
  historySchema,
  langgraphThreadSchema,
  listOrder,
  stateSchema,
  summaryOf,
  valuesOf,
  type RemoteContext,
} from "./remote-context.ts";
import { fileBytesOf, seg } from "./server-urls.ts";

/** The most threads one list asks LangGraph's API for. */
const LIST_LIMIT = 1000;

const threadsSchema = z.array(langgraphThreadSchema).max(100_000);

const uploadedFile = z.object({
  filename: z.string().max(300),
  size: z.number().nonnegative().catch(0),
  virtual_path: z.string().max(1000),
  markdown_virtual_path: z.string().max(1000).nullish(),
  original_filename: z.string().max(300).nullish(),
  markdown_file: z.string().max(300).nullish(),
  warning: z.string().max(1000).nullish(),
});
const uploadAnswer = z.object({ files: z.array(uploadedFile).max(1000), message: z.string().max(2000).catch("") });
const uploadList = z.object({
  files: z
    .array(
      z.object({
        filename: z.string().max(300),
        size: z.number().nonnegative().catch(0),
        virtual_path: z.string().max(1000),
        extension: z.string().max(50).catch(""),
        modified: z.number().catch(0),
      }),
    )
    .max(10_000),
});
const savedEdit = z.object({ path: z.string(), sha256: z.string(), size: z.number() });

/** What `/threads/{id}` state values carry besides messages: presented files, the plan and the title. */
function stateExtras(values: Record<string, unknown>) {
  const artifacts = Array.isArray(values.artifacts)
    ? values.artifacts.filter((path): path is string => typeof path === "string" && path.length < 1000)
    : [];
  const todos = Array.isArray(values.todos) ? values.todos.filter(isTodoItem) : [];
  return { artifacts, todos };
}

/** The `[start, end)` ranges of `text` where each word of the query starts, case-insensitively. */
function highlights(text: string, words: readonly string[]): TextHighlights {
  const lower = text.toLowerCase();
  const ranges: TextHighlights = [];
  for (const word of words) {
    const at = lower.indexOf(word);
    if (at !== -1) ranges.push([at, at + word.length]);
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}

export class RemoteThreads implements ThreadsApi {
  constructor(
    private readonly remote: RemoteContext,
    /** This browser's threads: a shared thread opened to be read (`shared-…`) keeps its files here. */
    private readonly local: Pick<ThreadsApi, "readFile">,
  ) {}

  async list(): Promise<ThreadSummary[]> {
    return this.remote.connection.read("threads", async () => {
      if (this.remote.fawn) return this.remote.fawn.listThreads();
      const threads = await this.remote.sdk((client) =>
        client.threads.search({ limit: LIST_LIMIT, sortBy: "updated_at", sortOrder: "desc" }),
      );
      return this.remote.parse(threadsSchema, threads, "a thread list").map(summaryOf).sort(listOrder);
    });
  }

  async create(options: { thread_id?: string } = {}): Promise<ThreadSummary> {
    const thread = await this.remote.sdk((client) =>
      client.threads.create({ ...(options.thread_id && { threadId: options.thread_id }), ifExists: "raise" }),
    );
    const summary = summaryOf(this.remote.parse(langgraphThreadSchema, thread, "a thread"));
    this.remote.notify({ type: "thread-changed", thread_id: summary.thread_id });
    return summary;
  }

  async get(threadId: string): Promise<ThreadDetail | undefined> {
    return this.remote.connection.read(`thread:${threadId}`, async () => {
      if (this.remote.fawn) return this.remote.fawn.getThread(threadId);
      return this.langgraphDetail(threadId);
    });
  }

  /** A thread of a plain LangGraph server: its state's messages, presented files, plan and title. */
  private async langgraphDetail(threadId: string): Promise<ThreadDetail | undefined> {
    let raw: unknown;
    try {
      raw = await this.remote.client.threads.get(threadId);
    } catch (error) {
      if ((error as { status?: unknown }).status === 404) return undefined;
      throw this.remote.sdkError(error);
    }
    const summary = summaryOf(this.remote.parse(langgraphThreadSchema, raw, "a thread"));
    const state = this.remote.parse(
      stateSchema,
      await this.remote.sdk((client) => client.threads.getState(threadId)),
      "a thread's state",
    );
    const values = valuesOf(state);
    const messages = wireMessagesOf(values.messages);
    return {
      ...summary,
      entries: messages.map((message) => ({ kind: "message", message })),
      ...stateExtras(values),
    };
  }

  async rename(threadId: string, title: string): Promise<ThreadSummary> {
    const clean = title.replace(/\s+/g, " ").trim();
    if (clean.length < 1 || clean.length > 200) throw new UserError("A thread title is 1 to 200 characters.");
    if (this.remote.fawn) return this.changed(await this.remote.fawn.updateThread(threadId, { title: clean }));
    await this.remote.sdk((client) => client.threads.updateState(threadId, { values: { title: clean } }));
    const thread = await this.remote.sdk((client) => client.threads.update(threadId, { metadata: { title: clean } }));
    return this.changed(summaryOf(this.remote.parse(langgraphThreadSchema, thread, "a thread")));
  }

  async pin(threadId: string, pinned: boolean): Promise<ThreadSummary> {
    if (this.remote.fawn) return this.changed(await this.remote.fawn.updateThread(threadId, { pinned }));
    const thread = await this.remote.sdk((client) => client.threads.update(threadId, { metadata: { pinned } }));
    return this.changed(summaryOf(this.remote.parse(langgraphThreadSchema, thread, "a thread")));
  }

  private changed(summary: ThreadSummary): ThreadSummary {
    this.remote.notify({ type: "thread-changed", thread_id: summary.thread_id });
    return summary;
  }

  async delete(threadId: string): Promise<void> {
    await this.remote.sdk((client) => client.threads.delete(threadId));
    this.remote.notify({ type: "thread-deleted", thread_id: threadId });
  }

  async search(query: string, options: { limit?: number } = {}): Promise<ThreadSearchResult> {
    const limit = Math.min(Math.max(1, options.limit ?? 50), MAX_THREAD_SEARCH_LIMIT);
    if (this.remote.fawn) return this.remote.fawn.searchThreads(query, { limit });
    // A plain LangGraph server searches metadata only: titles are matched here, as the list holds them.
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const matches = (await this.list()).filter((thread) => {
      const title = thread.title.toLowerCase();
      return words.length > 0 && words.every((word) => title.includes(word));
    });
    return {
      query,
      hits: matches.slice(0, limit).map((thread) => ({ thread, title_highlights: highlights(thread.title, words) })),
      total: matches.length,
      indexing: false,
    };
  }

  async readFile(threadId: string, path: string): Promise<ThreadFileContent> {
    if (threadId.startsWith("shared-")) return this.local.readFile(threadId, path);
    // Fawn's own route answers with the type the file was stored with (its artifact route serves HTML as a download).
    if (this.remote.fawn) return this.remote.fawn.readFile(threadId, path);
    const rest = this.remote.restFor("artifacts");
    const relative = path.replace(/^\/+/, "").split("/").map(seg).join("/");
    const response = await rest(`/threads/${seg(threadId)}/artifacts/${relative}`);
    await this.remote.refusal(response);
    const bytes = await fileBytesOf(response, path);
    const mime = (response.headers.get("content-type") ?? "application/octet-stream").split(";")[0]!.trim();
    return { path, bytes, mime_type: /^[\w.+-]+\/[\w.+-]+$/.test(mime) ? mime : "application/octet-stream" };
  }

  async upload(threadId: string, files: { name: string; bytes: Uint8Array }[]): Promise<UploadResult> {
    const rest = this.remote.restFor("uploads");
    const form = new FormData();
    for (const file of files) form.append("files", new Blob([file.bytes.slice()]), file.name);
    const answer = await this.remote.restJson(
      rest,
      `/threads/${seg(threadId)}/uploads`,
      uploadAnswer,
      "an upload's answer",
      {
        method: "POST",
        body: form,
      },
    );
    this.remote.notify({ type: "thread-changed", thread_id: threadId });
    return {
      message: answer.message,
      files: answer.files.map((file) => ({
        filename: file.filename,
        size: file.size,
        virtual_path: file.virtual_path,
        ...(file.markdown_virtual_path && { markdown_virtual_path: file.markdown_virtual_path }),
        ...(file.original_filename && { original_filename: file.original_filename }),
        ...(file.markdown_file && { markdown_file: file.markdown_file }),
        ...(file.warning && { warning: file.warning }),
      })),
    };
  }

  async editFile(threadId: string, edit: FileEdit): Promise<SavedFileEdit> {
    const rest = this.remote.restFor("artifacts");
    const relative = edit.path.replace(/^\/+/, "").split("/").map(seg).join("/");
    const saved = await this.remote.restJson(
      rest,
      `/threads/${seg(threadId)}/artifacts/${relative}`,
      savedEdit,
      "a saved file",
      {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ content: edit.content, expected_sha256: edit.expectedSha256 }),
      },
    );
    this.remote.notify({ type: "thread-changed", thread_id: threadId });
    return saved;
  }

  async listUploads(threadId: string): Promise<UploadListEntry[]> {
    const rest = this.remote.restFor("uploads");
    const list = await this.remote.restJson(
      rest,
      `/threads/${seg(threadId)}/uploads/list`,
      uploadList,
      "a list of uploads",
    );
    return list.files
      .map(({ filename, size, virtual_path, extension, modified }) => ({
        filename,
        size,
        virtual_path,
        extension,
        modified,
      }))
      .sort((a, b) => (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0));
  }

  async deleteUpload(threadId: string, filename: string): Promise<void> {
    const rest = this.remote.restFor("uploads");
    const response = await rest(`/threads/${seg(threadId)}/uploads/${seg(filename)}`, { method: "DELETE" });
    await this.remote.refusal(response);
    this.remote.notify({ type: "thread-changed", thread_id: threadId });
  }

  async replay(threadId: string): Promise<ThreadReplay> {
    if (this.remote.fawn) return this.remote.fawn.replay(threadId);
    // LangGraph's history, newest first: each saved step's messages, plan and presented files, oldest first.
    const history = this.remote.parse(
      historySchema,
      await this.remote.sdk((client) => client.threads.getHistory(threadId, { limit: 1000 })),
      "a thread's history",
    );
    const byId = new Map<string, WireMessage>();
    const steps: ReplayStep[] = [];
    for (const state of history.reverse()) {
      const values = valuesOf(state);
      const messages = wireMessagesOf(values.messages);
      for (const message of messages) byId.set(message.id, message);
      steps.push({ message_ids: messages.map((message) => message.id), ...stateExtras(values) });
    }
    return { messages: [...byId.values()], steps };
  }

  async sandboxLog(threadId: string): Promise<SandboxLogEntry[]> {
    return this.remote.fawnFor("The sandbox log").sandboxLog(threadId);
  }

  async setMemory(threadId: string, enabled: boolean): Promise<ThreadSummary> {
    const fawn = this.remote.fawnFor("A thread's memory switch");
    return this.changed(await fawn.updateThread(threadId, { memory: enabled }));
  }

  async importDeerFlow(input: {
    thread: unknown;
    files: { path: string; bytes: Uint8Array }[];
  }): Promise<ThreadSummary> {
    const thread = await this.remote.fawnFor("Importing a DeerFlow thread").importDeerFlow(input);
    return this.changed(thread);
  }
}
