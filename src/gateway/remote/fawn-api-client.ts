// The remote workspace's client of a Fawn server's own REST routes (`/api/fawn/…`, src/gateway/http/fawn-routes.ts):
// what LangGraph's API and DeerFlow's routes do not carry (a thread's detail with its versions and error notes, the
// list with pins, search, replay, a file with its stored type, `.fawn` export and import, a DeerFlow import, continue,
// versions, context use, compact, a share link). One typed method per route, every answer validated
// (fawn-api-schemas.ts) before it is returned; a refusal rejects with the server's `{detail}` sentence, an answer that
// is not what the route gives with one naming the server. The remote workspace uses it when `server.features.fawn`.
import { z } from "zod";
import {
  FAWN_MIME_TYPE_HEADER,
  THREAD_BUNDLE_MIME,
  type ThreadCompaction,
  type ThreadContextUsage,
  type ThreadDetail,
  type ThreadExport,
  type ThreadFileContent,
  type ThreadExportFormat,
  type ThreadModelChoice,
  type SandboxLogEntry,
  type ThreadReplay,
  type ThreadSearchResult,
  type ThreadShareLink,
  type ThreadSummary,
} from "../../protocol/index.ts";
import type { UserErrorKind, UserFacing } from "../../shared/user-error.ts";
import { sandboxLogEntrySchema } from "../../bundles/index.ts";
import {
  problemSchema,
  threadCompactionSchema,
  threadContextUsageSchema,
  threadDetailSchema,
  threadReplaySchema,
  threadSearchResultSchema,
  threadShareLinkSchema,
  threadSummariesSchema,
  threadSummarySchema,
} from "./fawn-api-schemas.ts";
import { fileBytesOf, seg, type ServerFetch } from "./server-urls.ts";

/** The sandbox log route's answer: at most this many entries (a long thread's log, read whole). */
const sandboxLogSchema = z.array(sandboxLogEntrySchema).max(100_000);

/** What `PATCH /fawn/threads/{id}` changes: one of its title, its pin, its memory switch (a foreign thread's). */
export interface FawnThreadPatch {
  title?: string;
  pinned?: boolean;
  memory?: boolean;
}

/**
 * A server's route refused the request (its status; Fawn's own routes and a workspace's REST and LangGraph calls
 * alike), or a Fawn route answered something it never gives (`malformed`). User-facing: its message is one sentence,
 * the server's own or naming the server.
 */
export class FawnApiError extends Error implements UserFacing {
  override name = "FawnApiError";

  constructor(
    message: string,
    /** The HTTP status; 0 for a malformed answer to a successful status. */
    readonly status: number,
    /** The answer was not what the route gives (not JSON, a missing field): the workspace's `malformed` state. */
    readonly malformed = false,
  ) {
    super(message);
  }

  get userFacing(): UserErrorKind {
    return this.status === 409 ? "conflict" : "invalid";
  }
}

export interface FawnApiClientOptions {
  /** How sentences name the server ("fawn.example"); its host by default is the caller's to give. */
  serverName?: string;
  /**
   * Makes the error for an answer that is not what the route gives (`what`: "a thread"), so the workspace can mark
   * its connection `malformed` (RemoteConnection.malformed); by default a FawnApiError with `malformed` set.
   */
  malformed?: (what: string) => Error;
}

/** A MIME type as a server may name one (`text/markdown; charset=utf-8`); anything else is read as bytes. */
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(; ?[a-z0-9_-]+=[a-z0-9_.-]+)*$/i;

/** The longest refusal sentence taken from a server; a longer one is cut. */
const MAX_DETAIL = 500;

export class FawnApiClient {
  private readonly serverName: string;
  private readonly onMalformed: ((what: string) => Error) | undefined;

  /** `fetch` is a ServerFetch below the server's REST base (`<url>/api`), its token applied (serverFetch). */
  constructor(
    private readonly fetch: ServerFetch,
    options: FawnApiClientOptions = {},
  ) {
    this.serverName = options.serverName ?? "The server";
    this.onMalformed = options.malformed;
  }

  /** `GET /fawn/threads`: every thread as `threads.list` answers (pinned first, then by recent activity). */
  async listThreads(): Promise<ThreadSummary[]> {
    return this.json("GET", "/fawn/threads", threadSummariesSchema, "its thread list");
  }

  /** `GET /fawn/threads/{id}`: the thread as `threads.get` answers it; undefined when the server has no such thread. */
  async getThread(threadId: string): Promise<ThreadDetail | undefined> {
    const response = await this.fetch(`/fawn/threads/${seg(threadId)}`);
    if (response.status === 404) return undefined;
    return this.read(response, threadDetailSchema, "a thread");
  }

  /** `POST /fawn/threads/search`: `threads.search`. */
  async searchThreads(query: string, options: { limit?: number } = {}): Promise<ThreadSearchResult> {
    const body = { query, ...(options.limit !== undefined && { limit: options.limit }) };
    return this.json("POST", "/fawn/threads/search", threadSearchResultSchema, "a search", body);
  }

  /** `GET /fawn/threads/{id}/replay`: `threads.replay`. */
  async replay(threadId: string): Promise<ThreadReplay> {
    return this.json("GET", `/fawn/threads/${seg(threadId)}/replay`, threadReplaySchema, "a thread's replay");
  }

  /** `GET /fawn/threads/{id}/sandbox-log`: `threads.sandboxLog`. */
  async sandboxLog(threadId: string): Promise<SandboxLogEntry[]> {
    const path = `/fawn/threads/${seg(threadId)}/sandbox-log`;
    return this.json("GET", path, sandboxLogSchema, "a thread's sandbox log");
  }

  /** `PATCH /fawn/threads/{id}`: `threads.rename`, `threads.pin` or `threads.setMemory`, one per request. */
  async updateThread(threadId: string, patch: FawnThreadPatch): Promise<ThreadSummary> {
    return this.json("PATCH", `/fawn/threads/${seg(threadId)}`, threadSummarySchema, "a thread", patch);
  }

  /**
   * `GET /fawn/threads/{id}/files?path=`: `threads.readFile` — the bytes, and the type the server stored them with
   * (the `x-fawn-mime-type` header; the body itself comes as `application/octet-stream`).
   */
  async readFile(threadId: string, path: string): Promise<ThreadFileContent> {
    const response = await this.fetch(`/fawn/threads/${seg(threadId)}/files?path=${encodeURIComponent(path)}`);
    await this.refusal(response);
    const stored = response.headers.get(FAWN_MIME_TYPE_HEADER) ?? "";
    const mime_type = MIME_TYPE.test(stored) ? stored : "application/octet-stream";
    return { path, bytes: await fileBytesOf(response, path), mime_type };
  }

  /** `GET /fawn/threads/{id}/export?format=`: `bundles.export` (a `.fawn` by default), its file name kept. */
  async exportThread(threadId: string, format: ThreadExportFormat = "fawn"): Promise<ThreadExport> {
    const response = await this.fetch(`/fawn/threads/${seg(threadId)}/export?format=${encodeURIComponent(format)}`);
    await this.refusal(response);
    const type = response.headers.get("content-type") ?? "";
    if (type.includes("json") && format !== "deerflow") throw this.malformed("an exported thread");
    const bytes = new Uint8Array(await response.arrayBuffer());
    const fallback = `thread${format === "fawn" ? ".fawn" : format === "markdown" ? ".md" : ".thread.json"}`;
    const file_name = fileNameOf(response.headers.get("content-disposition")) ?? fallback;
    return { file_name, blob: new Blob([bytes], { type: type.split(";")[0] || THREAD_BUNDLE_MIME }) };
  }

  /** `POST /fawn/threads/import`, the `.fawn` bytes as the body: `bundles.import` (checked whole, else nothing written). */
  async importThread(archive: Blob | Uint8Array, options: { own?: boolean } = {}): Promise<ThreadSummary> {
    const body = archive instanceof Uint8Array ? new Blob([archive.slice()]) : archive;
    const response = await this.fetch(`/fawn/threads/import${options.own ? "?own=1" : ""}`, {
      method: "POST",
      headers: { "content-type": THREAD_BUNDLE_MIME },
      body,
    });
    return this.read(response, threadSummarySchema, "an imported thread");
  }

  /**
   * `POST /fawn/threads/import-deerflow`: `threads.importDeerFlow` — DeerFlow's thread.json and its folder's files,
   * sent as multipart (`thread`, then `path` and `file` pairs); checked whole on the server, else nothing written.
   */
  async importDeerFlow(input: {
    thread: unknown;
    files: { path: string; bytes: Uint8Array }[];
  }): Promise<ThreadSummary> {
    const form = new FormData();
    form.append("thread", new Blob([JSON.stringify(input.thread)], { type: "application/json" }), "thread.json");
    for (const file of input.files) {
      form.append("path", file.path);
      form.append("file", new Blob([file.bytes.slice()]), "file");
    }
    const response = await this.fetch("/fawn/threads/import-deerflow", { method: "POST", body: form });
    return this.read(response, threadSummarySchema, "an imported thread");
  }

  /** `POST /fawn/threads/{id}/continue`: `bundles.continueThread` (a read-only thread copied as the user's own). */
  async continueThread(threadId: string): Promise<ThreadSummary> {
    return this.json("POST", `/fawn/threads/${seg(threadId)}/continue`, threadSummarySchema, "a thread");
  }

  /** `POST /fawn/threads/{id}/versions` `{run_id}`: `branches.showVersion`. */
  async showVersion(threadId: string, runId: string): Promise<void> {
    const response = await this.send("POST", `/fawn/threads/${seg(threadId)}/versions`, { run_id: runId });
    await this.refusal(response);
  }

  /** `GET /fawn/threads/{id}/context?model=&endpoint=`: `context.usage`. */
  async contextUsage(threadId: string, model: ThreadModelChoice = {}): Promise<ThreadContextUsage> {
    const query = new URLSearchParams();
    if (model.model) query.set("model", model.model);
    if (model.endpoint) query.set("endpoint", model.endpoint);
    const path = `/fawn/threads/${seg(threadId)}/context${query.size ? `?${query}` : ""}`;
    return this.json("GET", path, threadContextUsageSchema, "a context use");
  }

  /** `POST /fawn/threads/{id}/compact` `{model?, endpoint?}`: `context.compact` (`/compact`). */
  async compact(threadId: string, model: ThreadModelChoice = {}): Promise<ThreadCompaction> {
    return this.json("POST", `/fawn/threads/${seg(threadId)}/compact`, threadCompactionSchema, "a compaction", model);
  }

  /** `GET /fawn/threads/{id}/share-link`: `sharing.link`. */
  async shareLink(threadId: string): Promise<ThreadShareLink> {
    return this.json("GET", `/fawn/threads/${seg(threadId)}/share-link`, threadShareLinkSchema, "a share link");
  }

  private async json<T>(method: string, path: string, schema: z.ZodType<T>, what: string, body?: unknown): Promise<T> {
    return this.read(await this.send(method, path, body), schema, what);
  }

  private send(method: string, path: string, body?: unknown): Promise<Response> {
    if (body === undefined) return this.fetch(path, { method });
    return this.fetch(path, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  }

  private read<T>(response: Response, schema: z.ZodType<T>, what: string): Promise<T> {
    return answerOf(response, schema, what, this.serverName, (thing) => this.malformed(thing));
  }

  private refusal(response: Response): Promise<void> {
    return refuseUnlessOk(response, this.serverName);
  }

  private malformed(what: string): Error {
    if (this.onMalformed) return this.onMalformed(what);
    return new FawnApiError(`${this.serverName} answered with something that is not ${what}.`, 0, true);
  }
}

/**
 * The sentence for a refused request: the server's own `{detail}` (or `{message}`), cut to 500 characters, else one
 * naming the server (`label`) and what the status means.
 */
export function refusalSentence(label: string, status: number, body: unknown): string {
  const problem = problemSchema.safeParse(body);
  if (problem.success) {
    const text = typeof problem.data.detail === "string" ? problem.data.detail : problem.data.message;
    if (text?.trim()) return text.trim().slice(0, MAX_DETAIL);
  }
  if (status === 401 || status === 403) return `${label} refused the access token.`;
  if (status === 404) return `${label} has no such thread or file.`;
  return `${label} refused the request (HTTP ${status}).`;
}

/** Rejects a non-2xx answer with FawnApiError: its status and refusalSentence's sentence. */
export async function refuseUnlessOk(response: Response, label: string): Promise<void> {
  if (response.ok) return;
  const body: unknown = await response.json().catch(() => undefined);
  throw new FawnApiError(refusalSentence(label, response.status, body), response.status);
}

/**
 * A successful JSON answer read through `schema`; a refusal rejects as refuseUnlessOk does, an answer that is not
 * JSON or not what `schema` takes with `malformed(what)`.
 */
export async function answerOf<T>(
  response: Response,
  schema: z.ZodType<T>,
  what: string,
  label: string,
  malformed: (what: string) => Error,
): Promise<T> {
  await refuseUnlessOk(response, label);
  let value: unknown;
  try {
    value = await response.json();
  } catch {
    throw malformed(what);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw malformed(what);
  return parsed.data;
}

/** The file name a Content-Disposition header gives (`filename*` first), as a plain name: no folders, no controls. */
export function fileNameOf(header: string | null): string | undefined {
  if (!header) return undefined;
  let name: string | undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      name = decodeURIComponent(extended[1].trim());
    } catch {
      name = undefined;
    }
  }
  name ??= /filename\s*=\s*"([^"]*)"/i.exec(header)?.[1] ?? /filename\s*=\s*([^;]+)/i.exec(header)?.[1]?.trim();
  const plain = name
    ? [...name]
        .filter((char) => char >= " " && char !== "\u007f")
        .join("")
        .replace(/^.*[/\\]/, "")
        .trim()
    : undefined;
  return plain && plain !== "." && plain !== ".." ? plain.slice(0, 200) : undefined;
}
