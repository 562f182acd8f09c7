// LangGraph's run routes over the server's RunQueue (server/runs): create, stream, wait, list, get, delete, join, join
// a stream (from `Last-Event-ID`), cancel (with `wait` and `action`). A run is a row any replica may execute; these
// routes only queue it and read its stored events, so a client may stream or join it on any replica.
import { Hono } from "hono";
import { z } from "zod";
import type { Gateway } from "../../src/gateway/index.ts";
import {
  RunConflictError,
  RunInputError,
  type RunKwargs,
  type RunQueue,
  type RunStatus,
  type ServerRun,
  type StoredRunEvent,
} from "../runs/index.ts";
import { agentAssistantId, agentOfAssistant } from "./agent-assistants.ts";
import { isLeadAgent, LEAD_AGENT_ASSISTANT_ID } from "./assistants.ts";
import {
  HttpProblem,
  json,
  ownerOf,
  queryFlag,
  readBody,
  serialise,
  type LangGraphContext,
  type LangGraphEnv,
} from "./http.ts";
import { eventFilter, sseResponse, streamModes } from "./sse.ts";
import type { ThreadMetadataTable } from "./thread-metadata.ts";

export interface RunRoutesDeps {
  gateway(owner: string): Promise<Gateway>;
  queue: RunQueue;
  metadata: ThreadMetadataTable;
}

const record = z.record(z.string(), z.unknown());

/** LangGraph's `RunCreate`, the parts Fawn acts on; the rest of what the SDK sends is accepted and left. */
const runBody = z.object({
  assistant_id: z.string().min(1),
  input: record.nullish(),
  command: record.nullish(),
  metadata: record.nullish(),
  config: z
    .object({ configurable: record.optional(), tags: z.array(z.string()).optional(), recursion_limit: z.number() })
    .partial()
    .nullish(),
  context: record.nullish(),
  stream_mode: z.union([z.string(), z.array(z.string())]).nullish(),
  stream_subgraphs: z.boolean().nullish(),
  stream_resumable: z.boolean().nullish(),
  multitask_strategy: z.enum(["reject", "interrupt", "rollback", "enqueue"]).nullish(),
  on_disconnect: z.enum(["cancel", "continue"]).nullish(),
  if_not_exists: z.enum(["create", "reject"]).nullish(),
  /** A run without a thread: its temporary thread is deleted once it ends, unless `keep`. */
  on_completion: z.enum(["delete", "keep"]).nullish(),
  /** Where the run starts: with input an edit forks there, without one a regeneration (server/runs/run-request.ts). */
  checkpoint: z
    .object({
      checkpoint_id: z.string().max(200).nullish(),
      checkpoint_ns: z.string().max(200).nullish(),
      checkpoint_map: record.nullish(),
    })
    .nullish(),
  checkpoint_id: z.string().max(200).nullish(),
});
type RunBody = z.infer<typeof runBody>;

const RUN_STATUSES = ["pending", "running", "error", "success", "timeout", "interrupted"] as const;

/** The kwargs the queue keeps and the executor reads, from the body as sent. */
function kwargsOf(body: RunBody): RunKwargs {
  return {
    ...(body.input && { input: body.input }),
    ...(body.command && { command: body.command }),
    stream_mode: streamModes(body.stream_mode ?? undefined),
    ...(body.stream_subgraphs != null && { stream_subgraphs: body.stream_subgraphs }),
    ...(body.config && { config: body.config }),
    ...(body.context && { context: body.context }),
    ...(body.stream_resumable != null && { stream_resumable: body.stream_resumable }),
    ...(body.on_disconnect && { on_disconnect: body.on_disconnect }),
    ...(body.checkpoint?.checkpoint_id && {
      checkpoint: {
        checkpoint_id: body.checkpoint.checkpoint_id,
        ...(body.checkpoint.checkpoint_ns != null && { checkpoint_ns: body.checkpoint.checkpoint_ns }),
      },
    }),
    ...(body.checkpoint_id && { checkpoint_id: body.checkpoint_id }),
  };
}

/** The queue's refusals as LangGraph answers them: a busy thread 409, input Fawn cannot run 422. */
function asProblem(error: unknown): unknown {
  if (error instanceof RunConflictError) return new HttpProblem(409, error.message);
  if (error instanceof RunInputError) return new HttpProblem(422, error.message);
  return error;
}

/** A run's last `values`, or LangGraph's `{__error__}` when it failed; undefined when it sent neither. */
async function finalOutput(events: AsyncIterable<StoredRunEvent>): Promise<unknown> {
  let output: unknown;
  for await (const event of events) {
    if (event.event === "values") output = event.data;
    else if (event.event === "error") output = { __error__: event.data };
  }
  return output;
}

/** Writes a newline each second until `result` settles, then its JSON (LangGraph's keep-alive for long waits). */
function keptAlive(result: Promise<unknown>, headers: Record<string, string> = {}): Response {
  const encoder = new TextEncoder();
  // Once the client has gone, nothing more may be written (an enqueue then throws).
  let gone = false;
  let timer: NodeJS.Timeout | undefined;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const write = (text: string) => {
        if (!gone) controller.enqueue(encoder.encode(text));
      };
      timer = setInterval(() => write("\n"), 1000);
      let answer: string;
      try {
        answer = serialise(await result);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        answer = serialise({ __error__: { error: "Error", message } });
      }
      clearInterval(timer);
      write(answer);
      if (!gone) controller.close();
    },
    cancel() {
      gone = true;
      clearInterval(timer);
    },
  });
  return new Response(body, { headers: { "content-type": "application/json", ...headers } });
}

export function runRoutes(deps: RunRoutesDeps): Hono<LangGraphEnv> {
  const app = new Hono<LangGraphEnv>();
  const { queue } = deps;

  /** The user's Gateway and a thread of theirs, or 404 (created first when the body says `if_not_exists: create`). */
  const threadOf = async (c: LangGraphContext, createMissing = false) => {
    const owner = ownerOf(c);
    const gateway = await deps.gateway(owner);
    const threadId = c.req.param("thread_id") ?? "";
    if (!(await gateway.threads.exists(threadId))) {
      if (!createMissing) throw new HttpProblem(404, `Thread ${threadId} not found.`);
      await gateway.threads.create({ thread_id: threadId });
      return { owner, gateway, threadId, created: true };
    }
    return { owner, gateway, threadId, created: false };
  };

  const runOf = async (c: LangGraphContext): Promise<{ owner: string; gateway: Gateway; run: ServerRun }> => {
    const { owner, gateway, threadId } = await threadOf(c);
    const runId = c.req.param("run_id") ?? "";
    const run = await queue.get(owner, threadId, runId);
    if (!run) throw new HttpProblem(404, `Run ${runId} not found.`);
    return { owner, gateway, run };
  };

  /** A run without a thread runs on a new one, deleted after the run unless the body says `on_completion: keep`. */
  const temporaryThread = async (c: LangGraphContext) => {
    const owner = ownerOf(c);
    const gateway = await deps.gateway(owner);
    return { owner, gateway, threadId: (await gateway.threads.create()).thread_id, created: true };
  };

  /** Deletes a run's temporary thread once the run ended (its run record and events stay, for joins and gets). */
  const deleteAfter = (owner: string, gateway: Gateway, run: ServerRun) => {
    void (async () => {
      await queue.wait(run.run_id);
      // The Gateway may still be closing the run's last step on this replica.
      for (let attempt = 0; attempt < 20; attempt++) {
        try {
          await gateway.threads.delete(run.thread_id);
          await deps.metadata.delete(owner, run.thread_id);
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    })().catch(() => undefined);
  };

  /** Queues a run from the request's body (on the path's thread, or a temporary one); answers it with its place. */
  const create = async (c: LangGraphContext, stateless = false) => {
    const body = await readBody(c, runBody);
    // A custom agent's assistant runs the lead agent as that agent (DeerFlow's context.agent_name).
    const agent = isLeadAgent(body.assistant_id)
      ? undefined
      : await agentOfAssistant(await deps.gateway(ownerOf(c)), body.assistant_id);
    if (!isLeadAgent(body.assistant_id) && !agent) {
      throw new HttpProblem(404, `No assistant found for "${body.assistant_id}"; this server runs lead_agent.`);
    }
    if (agent) body.context = { ...body.context, agent_name: agent.name };
    const { owner, gateway, threadId, created } = stateless
      ? await temporaryThread(c)
      : await threadOf(c, body.if_not_exists === "create");
    const kwargs = kwargsOf(body);
    const run = await queue
      .create(owner, threadId, {
        assistantId: agent ? agentAssistantId(agent.name) : LEAD_AGENT_ASSISTANT_ID,
        kwargs,
        ...(body.metadata && { metadata: body.metadata }),
        ...(body.multitask_strategy && { multitaskStrategy: body.multitask_strategy }),
      })
      .catch(async (error: unknown) => {
        // A refused run leaves nothing behind: not the thread this request made for it either.
        if (created) await gateway.threads.delete(threadId).catch(() => undefined);
        throw asProblem(error);
      });
    // LangGraph marks the thread with the graph that runs on it.
    await deps.metadata.merge(owner, threadId, { graph_id: "lead_agent", assistant_id: LEAD_AGENT_ASSISTANT_ID });
    if (stateless && body.on_completion !== "keep") deleteAfter(owner, gateway, run);
    const path = stateless ? `/runs/${run.run_id}` : `/threads/${threadId}/runs/${run.run_id}`;
    return { owner, gateway, run, body, kwargs, location: { "content-location": path } };
  };

  /** The run's output once it ended: its last values, else the thread's, as LangGraph's join answers. */
  const output = async (gateway: Gateway, run: ServerRun, signal: AbortSignal) => {
    await queue.wait(run.run_id, signal);
    const out = await finalOutput(queue.events(run.run_id, 0, signal));
    if (out !== undefined) return out;
    const thread = await gateway.threads.get(run.thread_id);
    return thread ? { title: thread.title, messages: [] } : null;
  };

  for (const [prefix, stateless] of [
    ["/threads/:thread_id/runs", false],
    ["/runs", true],
  ] as const) {
    app.post(prefix, async (c) => {
      const { run, location } = await create(c, stateless);
      return json(run, 200, location);
    });

    app.post(`${prefix}/stream`, async (c) => {
      const { owner, run, body, kwargs, location } = await create(c, stateless);
      const abort = new AbortController();
      return sseResponse(queue.events(run.run_id, 0, abort.signal), {
        keep: eventFilter(streamModes(kwargs.stream_mode)),
        abort,
        headers: location,
        ...(body.on_disconnect === "cancel" && {
          onDisconnect: () => void queue.cancel(owner, run.thread_id, run.run_id),
        }),
      });
    });

    app.post(`${prefix}/wait`, async (c) => {
      const { gateway, run, location } = await create(c, stateless);
      return keptAlive(output(gateway, run, c.req.raw.signal), location);
    });
  }

  app.get("/threads/:thread_id/runs", async (c) => {
    const { owner, threadId } = await threadOf(c);
    const limit = Number(c.req.query("limit") ?? "10");
    const offset = Number(c.req.query("offset") ?? "0");
    const status = c.req.query("status");
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000 || !Number.isInteger(offset) || offset < 0) {
      throw new HttpProblem(422, "limit is a whole number from 1 to 1000 and offset one from 0.");
    }
    if (status !== undefined && !(RUN_STATUSES as readonly string[]).includes(status)) {
      throw new HttpProblem(422, `status is one of ${RUN_STATUSES.join(", ")}.`);
    }
    const runs = await queue.list(owner, threadId, {
      limit,
      offset,
      ...(status !== undefined && { status: status as RunStatus }),
    });
    return json(runs);
  });

  app.get("/threads/:thread_id/runs/:run_id", async (c) => json((await runOf(c)).run));

  app.delete("/threads/:thread_id/runs/:run_id", async (c) => {
    const { owner, run } = await runOf(c);
    if (run.status === "running") throw new HttpProblem(409, `Run ${run.run_id} is running; cancel it first.`);
    await queue.delete(owner, run.thread_id, run.run_id);
    return new Response(null, { status: 204 });
  });

  app.get("/threads/:thread_id/runs/:run_id/join", async (c) => {
    const { owner, gateway, run } = await runOf(c);
    const cancelOnDisconnect = queryFlag(c.req.query("cancel_on_disconnect"));
    const signal = c.req.raw.signal;
    if (cancelOnDisconnect) signal.addEventListener("abort", () => void queue.cancel(owner, run.thread_id, run.run_id));
    return json(await output(gateway, run, signal));
  });

  /** A join of the run's stream (`/threads/:thread_id/runs/:run_id/stream`, or `/runs/:run_id/stream` by run alone). */
  const joinStream = (c: LangGraphContext, owner: string, run: ServerRun, location: string) => {
    const lastEventId = Number.parseInt(c.req.header("last-event-id") ?? "", 10);
    const asked = c.req.queries("stream_mode");
    const abort = new AbortController();
    return sseResponse(
      queue.events(run.run_id, Number.isFinite(lastEventId) ? Math.max(0, lastEventId) : 0, abort.signal),
      {
        keep: eventFilter(streamModes(asked && asked.length > 0 ? asked : run.kwargs.stream_mode)),
        abort,
        headers: { "content-location": location },
        ...(queryFlag(c.req.query("cancel_on_disconnect")) && {
          onDisconnect: () => void queue.cancel(owner, run.thread_id, run.run_id),
        }),
      },
    );
  };
  app.get("/threads/:thread_id/runs/:run_id/stream", async (c) => {
    const { owner, run } = await runOf(c);
    return joinStream(c, owner, run, `/threads/${run.thread_id}/runs/${run.run_id}`);
  });
  app.get("/runs/:run_id/stream", async (c) => {
    const owner = ownerOf(c);
    const runId = c.req.param("run_id");
    const run = await queue.get(owner, undefined, runId);
    if (!run) throw new HttpProblem(404, `Run ${runId} not found.`);
    return joinStream(c, owner, run, `/runs/${run.run_id}`);
  });

  app.post("/threads/:thread_id/runs/:run_id/cancel", async (c) => {
    const { owner, run } = await runOf(c);
    const action = c.req.query("action") ?? "interrupt";
    if (action !== "interrupt" && action !== "rollback") {
      throw new HttpProblem(422, "action is interrupt or rollback.");
    }
    await queue.cancel(owner, run.thread_id, run.run_id, action);
    if (!queryFlag(c.req.query("wait"))) return new Response(null, { status: 202 });
    await queue.wait(run.run_id, c.req.raw.signal);
    return new Response(null, { status: 204 });
  });

  return app;
}
