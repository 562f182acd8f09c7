// What every domain of a server workspace shares (docs/architecture.md#d13-workspaces): the SDK's Client over the
// watched fetch, a ServerFetch for the REST routes, Fawn's own client on a Fawn server, the connection, the notices,
// and the sentences for what a server cannot answer. Answers are validated here before any domain returns them.
import { Client } from "@langchain/langgraph-sdk";
import { z } from "zod";
import type { ChangeNotice, ServerFeatures, ServerSummary, ThreadStatus, ThreadSummary } from "../../protocol/index.ts";
import { isUserFacing, UserError } from "../../shared/user-error.ts";
import { answerOf, FawnApiClient, FawnApiError, refusalSentence, refuseUnlessOk } from "./fawn-api-client.ts";
import { RemoteConnection } from "./remote-connection.ts";
import { serverBases, serverFetch, withToken, type ServerFetch } from "./server-urls.ts";

/** The graph a run asks for: Fawn's lead agent (DeerFlow's assistant has the same name). */
export const ASSISTANT_ID = "lead_agent";

/** The title a thread has before its first reply names it, as in this browser. */
export const NEW_THREAD_TITLE = "New thread";

const FEATURE_NAMES: Record<keyof ServerFeatures, string> = {
  fawn: "Fawn's own routes (versions, search, replay, export)",
  uploads: "Uploads",
  artifacts: "Files",
  memory: "Memory",
  skills: "Skills",
  models: "The server's models",
};

export interface RemoteContextOptions {
  server: ServerSummary;
  /** The access token (Bearer), from the worker's secrets; never returned or logged. */
  token?: string;
  /** The fetch every request goes through (tests pass their own); defaults to the global one. */
  fetch?: typeof fetch;
  /** Posts a change notice (the worker posts it on `workspaceChannel(server.id)`). */
  notify?: (notice: ChangeNotice) => void;
  /** Wraps the fetch for the server's kind (DeerFlow's session cookie and CSRF header). */
  kindFetch?: (f: typeof fetch) => typeof fetch;
}

export class RemoteContext {
  readonly server: ServerSummary;
  readonly connection: RemoteConnection;
  readonly client: Client;
  /** The REST routes (`/threads/{id}/uploads`, `/memory`, …), when the server's kind has them. */
  readonly rest: ServerFetch | undefined;
  /** Fawn's own routes, on a Fawn server. */
  readonly fawn: FawnApiClient | undefined;
  private readonly notifyListener: ((notice: ChangeNotice) => void) | undefined;

  constructor(options: RemoteContextOptions) {
    this.server = options.server;
    this.connection = new RemoteConnection(options.server);
    const base = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const kinded = options.kindFetch ? options.kindFetch(base) : base;
    const watched = this.connection.watch(kinded);
    const bases = serverBases(options.server.url, options.server.kind);
    const authed = withToken(watched, options.token);
    this.client = new Client({
      apiUrl: bases.langgraph,
      apiKey: null,
      callerOptions: { fetch: authed, maxRetries: 0 },
    });
    this.rest = bases.rest === undefined ? undefined : serverFetch(bases.rest, options.token, watched);
    this.fawn =
      options.server.features.fawn && this.rest
        ? new FawnApiClient(this.rest, {
            serverName: this.connection.label,
            malformed: (what) => this.connection.malformed(what),
          })
        : undefined;
    this.notifyListener = options.notify;
  }

  notify(notice: ChangeNotice): void {
    try {
      this.notifyListener?.(notice);
    } catch {
      // A listener's failure is not the server's.
    }
  }

  /** The sentence for a feature the server does not offer ("Uploads are not available on localhost:2024."). */
  unavailable(feature: string): UserError {
    return new UserError(`${feature} ${/s$/.test(feature) ? "are" : "is"} not available on ${this.where()}.`);
  }

  private where(): string {
    const kind = { fawn: "Fawn server", langgraph: "langgraphjs dev", deerflow: "DeerFlow" }[this.server.kind];
    return `${kind} (${this.connection.label})`;
  }

  /** The REST routes for `feature`, or the sentence saying the server lacks it. */
  restFor(feature: keyof ServerFeatures): ServerFetch {
    if (!this.rest || !this.server.features[feature]) throw this.unavailable(FEATURE_NAMES[feature]);
    return this.rest;
  }

  /** Fawn's own client, or the sentence saying the server lacks `feature`. */
  fawnFor(feature: string): FawnApiClient {
    if (!this.fawn) throw this.unavailable(feature);
    return this.fawn;
  }

  /** `value` read through `schema`, or the malformed sentence naming `what`. */
  parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw this.connection.malformed(what);
    return parsed.data;
  }

  /** A JSON answer of the REST routes, refusals as their sentence, read through `schema` (as Fawn's client reads). */
  async restJson<T>(rest: ServerFetch, path: string, schema: z.ZodType<T>, what: string, init?: RequestInit) {
    return answerOf(await rest(path, init), schema, what, this.connection.label, (thing) =>
      this.connection.malformed(thing),
    );
  }

  /** Rejects a non-2xx answer with the server's `{detail}` (cut short) or a sentence naming the status. */
  async refusal(response: Response): Promise<void> {
    await refuseUnlessOk(response, this.connection.label);
  }

  /** An SDK error as the user's sentence (HTTPError's `HTTP 404: {"detail": …}`), user-facing errors as they are. */
  sdkError(error: unknown): Error {
    if (isUserFacing(error)) return error;
    if (error instanceof Error && isUserFacing(error.cause)) return error.cause;
    const status = (error as { status?: unknown } | null)?.status;
    if (typeof status === "number" && error instanceof Error) {
      const text = error.message.replace(/^HTTP \d+: /, "");
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return new FawnApiError(refusalSentence(this.connection.label, status, body), status);
    }
    if (error instanceof SyntaxError) return this.connection.malformed("LangGraph's answer");
    return error instanceof Error ? error : new Error(String(error));
  }

  /** Runs an SDK call, its failure as a sentence. */
  async sdk<T>(call: (client: Client) => Promise<T>): Promise<T> {
    try {
      return await call(this.client);
    } catch (error) {
      throw this.sdkError(error);
    }
  }
}

const timestamp = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const time = typeof value === "number" ? value : Date.parse(value);
  if (!Number.isFinite(time)) {
    ctx.addIssue({ code: "custom", message: "not a time" });
    return z.NEVER;
  }
  return time;
});

/** LangGraph's `Thread`, the fields a summary needs. */
export const langgraphThreadSchema = z.object({
  thread_id: z.string().min(1).max(200),
  created_at: timestamp,
  updated_at: timestamp,
  status: z.string().max(40).optional(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  values: z.unknown().optional(),
});

export type LangGraphThread = z.infer<typeof langgraphThreadSchema>;

/** LangGraph's `ThreadState`, the fields read of it: its values (messages, plan, files, title) and checkpoint. */
export const stateSchema = z.object({
  values: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).nullish(),
  checkpoint: z.object({ checkpoint_id: z.string().nullish() }).passthrough().nullish(),
});

/** A thread's history as LangGraph's API answers it: its states, newest first. */
export const historySchema = z.array(stateSchema).max(10_000);

/** A state's values as a record (a graph whose state is a list has none Fawn reads). */
export function valuesOf(state: z.infer<typeof stateSchema>): Record<string, unknown> {
  return state.values && !Array.isArray(state.values) ? state.values : {};
}

function statusOf(status: string | undefined): ThreadStatus {
  if (status === "busy") return "busy";
  if (status === "error") return "error";
  return "idle";
}

/** A LangGraph thread as the list shows it: its title from the values (or metadata), its pin from the metadata. */
export function summaryOf(thread: LangGraphThread): ThreadSummary {
  const values = (typeof thread.values === "object" && thread.values !== null ? thread.values : {}) as Record<
    string,
    unknown
  >;
  const metadata = thread.metadata ?? {};
  const title = [values.title, metadata.title].find((value) => typeof value === "string" && value.trim() !== "");
  return {
    thread_id: thread.thread_id,
    title: typeof title === "string" ? title.slice(0, 200) : NEW_THREAD_TITLE,
    created_at: thread.created_at,
    updated_at: thread.updated_at,
    status: statusOf(thread.status),
    ...(metadata.pinned === true && { pinned: true }),
    // DeerFlow keeps a thread's custom agent in its metadata.
    ...(typeof metadata.agent_name === "string" && metadata.agent_name && { agent: metadata.agent_name.slice(0, 64) }),
  };
}

/** Pinned first, then by recent activity, as this browser lists them. */
export function listOrder(a: ThreadSummary, b: ThreadSummary): number {
  return Number(b.pinned === true) - Number(a.pinned === true) || b.updated_at - a.updated_at;
}
