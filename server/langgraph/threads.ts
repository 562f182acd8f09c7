// LangGraph's thread routes over the user's Gateway: create (with `thread_id`, `if_exists`, metadata), search, count,
// get, patch, delete and copy, and the thread's state (get at the shown or a named checkpoint, update as a node) and
// history. Fawn's thread record holds the thread; LangGraph's metadata sits beside it (thread-metadata.ts).
import { Hono } from "hono";
import { z } from "zod";
import type { Gateway } from "../../src/gateway/index.ts";
import type { ThreadSummary } from "../../src/protocol/index.ts";
import type { RunQueue } from "../runs/index.ts";
import { HttpProblem, json, ownerOf, readBody, type LangGraphContext, type LangGraphEnv } from "./http.ts";
import { matchesMetadata, type Metadata, type ThreadMetadataTable } from "./thread-metadata.ts";
import {
  DEFAULT_UPDATE_NODE,
  emptyThreadState,
  readCheckpoint,
  threadHistory,
  threadStateOf,
  updateThreadState,
  type ThreadState,
} from "./thread-state.ts";

export interface ThreadRoutesDeps {
  gateway(owner: string): Promise<Gateway>;
  metadata: ThreadMetadataTable;
  /** The runs every replica shares: a thread with one pending or running is busy. */
  queue: Pick<RunQueue, "isBusy" | "list" | "delete">;
}

const metadataSchema = z.record(z.string(), z.unknown());
const stateValuesSchema = z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))]);
const checkpointSchema = z
  .object({ checkpoint_id: z.string().optional(), checkpoint_ns: z.string().nullish() })
  .loose();

const createBody = z.object({
  thread_id: z.string().optional(),
  metadata: metadataSchema.optional(),
  if_exists: z.enum(["raise", "do_nothing"]).default("raise"),
  supersteps: z
    .array(z.object({ updates: z.array(z.object({ values: stateValuesSchema.nullish(), as_node: z.string() })) }))
    .optional(),
});
const searchBody = z.object({
  metadata: metadataSchema.optional(),
  ids: z.array(z.string()).optional(),
  status: z.enum(["idle", "busy", "interrupted", "error"]).optional(),
  values: metadataSchema.optional(),
  limit: z.number().int().min(1).max(1000).default(10),
  offset: z.number().int().min(0).default(0),
  sort_by: z.enum(["thread_id", "status", "created_at", "updated_at"]).default("created_at"),
  sort_order: z.enum(["asc", "desc"]).default("desc"),
  select: z.array(z.string()).optional(),
});
const patchBody = z.object({ metadata: metadataSchema });
const stateUpdateBody = z.object({
  values: stateValuesSchema.nullish(),
  as_node: z.string().min(1).optional(),
  checkpoint_id: z.string().optional(),
  checkpoint: checkpointSchema.nullish(),
});
const historyBody = z.object({
  limit: z.number().int().min(1).max(1000).default(10),
  before: z.union([z.string(), z.object({ configurable: checkpointSchema })]).optional(),
  metadata: metadataSchema.optional(),
  checkpoint: checkpointSchema.optional(),
});
const checkpointBody = z.object({ checkpoint: checkpointSchema.nullish() });

/** A Fawn thread as LangGraph's `Thread`; `values` defaults to the title alone (what a list shows). */
export function threadResponse(thread: ThreadSummary, metadata: Metadata, values?: Record<string, unknown>) {
  return {
    thread_id: thread.thread_id,
    created_at: new Date(thread.created_at).toISOString(),
    updated_at: new Date(thread.updated_at).toISOString(),
    metadata,
    status: thread.status,
    config: {},
    values: values ?? { title: thread.title },
    interrupts: {},
  };
}

export function threadRoutes(deps: ThreadRoutesDeps): Hono<LangGraphEnv> {
  const app = new Hono<LangGraphEnv>();

  /** The user's Gateway and the thread, or a 404 naming it (another user's thread is as unknown as a missing one). */
  const opened = async (c: LangGraphContext) => {
    const owner = ownerOf(c);
    const gateway = await deps.gateway(owner);
    const threadId = c.req.param("thread_id") ?? "";
    const thread = await gateway.threads.get(threadId);
    if (!thread) throw new HttpProblem(404, `Thread ${threadId} not found.`);
    return { owner, gateway, thread, threadId };
  };

  /** The state at `checkpointId`, else at the version the thread shows (its latest unless moved). */
  const stateAt = async (gateway: Gateway, thread: ThreadSummary, checkpointId?: string): Promise<ThreadState> => {
    const id = checkpointId ?? (await gateway.branches.shownVersion(thread.thread_id));
    const tuple = id === undefined ? undefined : await readCheckpoint(gateway.checkpointer, thread.thread_id, id);
    if (!tuple && checkpointId !== undefined) throw new HttpProblem(404, `Checkpoint ${checkpointId} not found.`);
    return tuple ? threadStateOf(tuple, thread.title) : emptyThreadState(thread.title);
  };

  const refuseWhileBusy = (gateway: Gateway, thread: ThreadSummary) => {
    if (thread.status === "busy" || gateway.runs.isRunning(thread.thread_id)) {
      throw new HttpProblem(409, `Thread ${thread.thread_id} is running; wait for its run to end.`);
    }
  };

  /** Writes a state update; a `title` in it renames the thread, and the thread then shows the new checkpoint. */
  const update = async (
    gateway: Gateway,
    thread: ThreadSummary,
    body: { values?: z.infer<typeof stateValuesSchema> | null | undefined; as_node?: string; checkpoint_id?: string },
  ) => {
    refuseWhileBusy(gateway, thread);
    const from = body.checkpoint_id ?? (await gateway.branches.shownVersion(thread.thread_id));
    const values = body.values ?? null;
    const title = !Array.isArray(values) && values && "title" in values ? values.title : undefined;
    // Checked before anything is written, as ThreadsService.rename checks it.
    const cleanTitle = typeof title === "string" ? title.replace(/\s+/g, " ").trim() : title;
    if (
      cleanTitle !== undefined &&
      (typeof cleanTitle !== "string" || cleanTitle.length < 1 || cleanTitle.length > 200)
    ) {
      throw new HttpProblem(422, "A thread title is 1 to 200 characters.");
    }
    const written = await updateThreadState(gateway.checkpointer, thread.thread_id, {
      values,
      asNode: body.as_node ?? DEFAULT_UPDATE_NODE,
      ...(from !== undefined && { checkpointId: from }),
    });
    if (typeof cleanTitle === "string") await gateway.threads.rename(thread.thread_id, cleanTitle);
    await gateway.branches.moved(thread.thread_id, from);
    return { checkpoint: written.configurable };
  };

  app.post("/threads", async (c) => {
    const body = await readBody(c, createBody);
    const owner = ownerOf(c);
    const gateway = await deps.gateway(owner);
    const existing = body.thread_id === undefined ? undefined : await gateway.threads.get(body.thread_id);
    // DeerFlow uploads a new chat's files first (the upload makes the thread in the user's storage), then creates the
    // thread without `if_exists`: a thread of the caller's that only an upload made (no LangGraph metadata row, which
    // this create always writes) and that has never run (no checkpoint, no run queued) is created by this call rather
    // than refused. A thread LangGraph's create made, or that has run, keeps LangGraph's 409.
    const uploadMade =
      existing !== undefined &&
      !(await deps.metadata.all(owner)).has(existing.thread_id) &&
      (await gateway.checkpointer.latestCheckpointId(existing.thread_id)) === undefined &&
      !(await deps.queue.isBusy(owner, existing.thread_id));
    if (existing && (body.if_exists === "do_nothing" || !uploadMade)) {
      if (body.if_exists === "raise") throw new HttpProblem(409, `Thread ${body.thread_id} already exists.`);
      return json(threadResponse(existing, await deps.metadata.get(owner, existing.thread_id)));
    }
    const thread =
      existing ?? (await gateway.threads.create(body.thread_id === undefined ? {} : { thread_id: body.thread_id }));
    const metadata = await deps.metadata.merge(owner, thread.thread_id, body.metadata ?? {});
    for (const superstep of body.supersteps ?? []) {
      for (const step of superstep.updates) {
        await update(gateway, thread, { values: step.values ?? null, as_node: step.as_node });
      }
    }
    return json(threadResponse((await gateway.threads.get(thread.thread_id)) ?? thread, metadata));
  });

  const search = async (c: LangGraphContext, body: z.infer<typeof searchBody>) => {
    const owner = ownerOf(c);
    const gateway = await deps.gateway(owner);
    const [threads, metadata] = await Promise.all([gateway.threads.list(), deps.metadata.all(owner)]);
    const ids = body.ids && new Set(body.ids);
    const matching = threads.filter(
      (thread) =>
        (!ids || ids.has(thread.thread_id)) &&
        (!body.status || thread.status === body.status) &&
        matchesMetadata(metadata.get(thread.thread_id) ?? {}, body.metadata) &&
        matchesMetadata({ title: thread.title }, body.values),
    );
    const direction = body.sort_order === "asc" ? 1 : -1;
    const key = body.sort_by;
    matching.sort((a, b) => (a[key] < b[key] ? -direction : a[key] > b[key] ? direction : 0));
    return { matching, metadata };
  };
  app.post("/threads/search", async (c) => {
    const body = await readBody(c, searchBody);
    const { matching, metadata } = await search(c, body);
    const gateway = await deps.gateway(ownerOf(c));
    // A thread's values are its state's (messages and title), as LangGraph lists them: agent-chat-ui names each
    // thread by its first message. Read only when asked for (a checkpoint read per thread).
    const withValues = !body.select || body.select.includes("values");
    const page = await Promise.all(
      matching.slice(body.offset, body.offset + body.limit).map(async (thread) => {
        const values = withValues ? (await stateAt(gateway, thread)).values : undefined;
        const response: Record<string, unknown> = threadResponse(thread, metadata.get(thread.thread_id) ?? {}, values);
        return body.select ? Object.fromEntries(body.select.map((field) => [field, response[field]])) : response;
      }),
    );
    const headers: Record<string, string> = { "x-pagination-total": String(matching.length) };
    if (body.offset + page.length < matching.length) headers["x-pagination-next"] = String(body.offset + page.length);
    return json(page, 200, headers);
  });
  app.post("/threads/count", async (c) => {
    const body = await readBody(c, searchBody);
    return json((await search(c, body)).matching.length);
  });

  app.get("/threads/:thread_id", async (c) => {
    const { owner, gateway, thread } = await opened(c);
    const state = await stateAt(gateway, thread);
    // A queued run makes the thread busy before any replica starts it.
    const busy = thread.status === "idle" && (await deps.queue.isBusy(owner, thread.thread_id));
    const shown = busy ? { ...thread, status: "busy" as const } : thread;
    return json(threadResponse(shown, await deps.metadata.get(owner, thread.thread_id), state.values));
  });
  app.patch("/threads/:thread_id", async (c) => {
    const body = await readBody(c, patchBody);
    const { owner, thread } = await opened(c);
    return json(threadResponse(thread, await deps.metadata.merge(owner, thread.thread_id, body.metadata)));
  });
  app.delete("/threads/:thread_id", async (c) => {
    const { owner, gateway, thread } = await opened(c);
    if (await deps.queue.isBusy(owner, thread.thread_id)) {
      throw new HttpProblem(409, `Thread ${thread.thread_id} has a run pending or running; cancel it first.`);
    }
    await gateway.threads.delete(thread.thread_id);
    await deps.metadata.delete(owner, thread.thread_id);
    // Its ended runs and their events go with it.
    let deleted = true;
    while (deleted) {
      const runs = await deps.queue.list(owner, thread.thread_id, { limit: 100 });
      const done = await Promise.all(runs.map((run) => deps.queue.delete(owner, thread.thread_id, run.run_id)));
      deleted = done.some(Boolean);
    }
    return new Response(null, { status: 204 });
  });
  app.post("/threads/:thread_id/copy", async (c) => {
    const { owner, gateway, thread } = await opened(c);
    const copy = await gateway.bundles.continueThread(thread.thread_id);
    const metadata = await deps.metadata.merge(owner, copy.thread_id, await deps.metadata.get(owner, thread.thread_id));
    return json(threadResponse(copy, metadata));
  });

  app.get("/threads/:thread_id/state", async (c) => {
    const { gateway, thread } = await opened(c);
    return json(await stateAt(gateway, thread));
  });
  app.post("/threads/:thread_id/state", async (c) => {
    const body = await readBody(c, stateUpdateBody);
    const { gateway, thread } = await opened(c);
    const checkpointId = body.checkpoint_id ?? body.checkpoint?.checkpoint_id;
    return json(
      await update(gateway, thread, {
        values: body.values ?? null,
        ...(body.as_node && { as_node: body.as_node }),
        ...(checkpointId && { checkpoint_id: checkpointId }),
      }),
    );
  });
  app.post("/threads/:thread_id/state/checkpoint", async (c) => {
    const body = await readBody(c, checkpointBody);
    const { gateway, thread } = await opened(c);
    return json(await stateAt(gateway, thread, body.checkpoint?.checkpoint_id));
  });
  app.get("/threads/:thread_id/state/:checkpoint_id", async (c) => {
    const { gateway, thread } = await opened(c);
    return json(await stateAt(gateway, thread, c.req.param("checkpoint_id")));
  });

  const history = async (c: LangGraphContext, body: z.infer<typeof historyBody>) => {
    const { gateway, thread } = await opened(c);
    const before = typeof body.before === "string" ? body.before : body.before?.configurable.checkpoint_id;
    const checkpointId = body.checkpoint?.checkpoint_id;
    return json(
      await threadHistory(gateway.checkpointer, thread.thread_id, {
        limit: body.limit,
        ...(before && { before }),
        ...(checkpointId && { checkpointId }),
        ...(body.metadata && { metadata: body.metadata }),
      }),
    );
  };
  app.post("/threads/:thread_id/history", async (c) => history(c, await readBody(c, historyBody)));
  app.get("/threads/:thread_id/history", async (c) => {
    const limit = Number(c.req.query("limit") ?? "10");
    const before = c.req.query("before");
    const query = { limit: Number.isFinite(limit) ? limit : Number.NaN, ...(before && { before }) };
    const parsed = historyBody.safeParse(query);
    if (!parsed.success) throw new HttpProblem(422, "limit: a whole number from 1 to 1000.");
    return history(c, parsed.data);
  });

  return app;
}
