// RunQueue over PGlite in memory, with a scripted stand-in for the Gateway's runs: two queues on one database act as
// two replicas.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunEvent, RunRequest } from "../../src/protocol/index.ts";
import { openDatabase, type Database } from "../db/database.ts";
import { RunQueue } from "./run-queue.ts";
import { RunConflictError, RunInputError, type RunKwargs, type StoredRunEvent } from "./run-types.ts";

/**
 * A Gateway's runs: a message "slow" streams 300 pieces 10 ms apart, "boom" throws, anything else 5 pieces. Each run
 * saves its input's message ids in `saved` (the thread's checkpointer) as it starts.
 */
function scriptedRuns(log: RunRequest[], saved: Map<string, string[]>) {
  const controllers = new Map<string, AbortController>();
  return {
    async stream(request: RunRequest, emit: (event: RunEvent) => void): Promise<void> {
      log.push(request);
      const ids = request.input.messages.map((message) => message.id ?? "");
      saved.set(request.thread_id, [...(saved.get(request.thread_id) ?? []), ...ids]);
      const controller = new AbortController();
      controllers.set(request.run_id, controller);
      emit({ event: "metadata", data: { run_id: request.run_id, thread_id: request.thread_id } });
      const text = request.input.messages.map((message) => message.content).join("");
      if (text === "boom") throw new Error("secret-key-123 leaked");
      const pieces = text === "slow" ? 300 : 5;
      for (let index = 0; index < pieces && !controller.signal.aborted; index += 1) {
        emit({
          event: "messages",
          data: [{ type: "AIMessageChunk", id: "ai", content: `piece ${index}\u0000` }, { langgraph_node: "agent" }],
        });
        await sleep(text === "slow" ? 10 : 1);
      }
      emit({ event: "end", data: { status: controller.signal.aborted ? "interrupted" : "success" } });
    },
    async cancel(runId: string): Promise<void> {
      controllers.get(runId)?.abort();
    },
  };
}

const say = (text: string): RunKwargs => ({
  input: { messages: [{ type: "human", content: text }] },
  stream_mode: ["values"],
});

async function collect(events: AsyncIterable<StoredRunEvent>): Promise<StoredRunEvent[]> {
  const all: StoredRunEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(10);
  }
}

describe("RunQueue", () => {
  let db: Database;
  let requests: RunRequest[];
  let rolledBack: string[][];
  let closed: string[][];
  let queues: RunQueue[];
  /** Each thread's saved message ids. */
  let saved: Map<string, string[]>;
  const replica = (replicaId: string, leaseMs = 400): RunQueue => {
    const runs = scriptedRuns(requests, saved);
    const queue = new RunQueue({
      db,
      gateways: {
        forUser: async () => ({
          runs,
          branches: { rollBack: async (...args: string[]) => rolledBack.push(args) },
          sandbox: { close: async (threadId: string) => closed.push([replicaId, threadId]) },
          checkpointer: {
            getTuple: async (config: { configurable: { thread_id: string } }) => ({
              checkpoint: {
                channel_values: { messages: (saved.get(config.configurable.thread_id) ?? []).map((id) => ({ id })) },
              },
            }),
          },
        }),
      } as never,
      replicaId,
      leaseMs,
      pollMs: 20,
    });
    queues.push(queue);
    return queue;
  };

  // One database for the suite (opening one takes a second or two); each test has its own thread ids.
  beforeAll(async () => {
    // FAWN_RUNS_TEST_DATABASE_URL runs the same suite over a real Postgres (a throwaway one: it deletes every run).
    const url = process.env.FAWN_RUNS_TEST_DATABASE_URL;
    db = await openDatabase(url ? { url } : {});
  }, 60_000);
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    requests = [];
    rolledBack = [];
    closed = [];
    saved = new Map();
    queues = [];
    await db.exec("DELETE FROM fawn_runs; DELETE FROM fawn_run_events;");
  });
  afterEach(async () => {
    for (const queue of queues) await queue.stop();
  });

  it("runs a created run through the owner's Gateway and keeps every event in order", async () => {
    const queue = replica("a");
    queue.start();
    const run = await queue.create("alice", "t1", { assistantId: "lead_agent", kwargs: say("hi"), metadata: { k: 1 } });
    expect(run).toMatchObject({ status: "pending", thread_id: "t1", metadata: { k: 1 }, multitask_strategy: "reject" });
    const events = await collect(queue.events(run.run_id));
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(events.map((event) => event.event)).toEqual(["metadata", ...Array(5).fill("messages"), "end"]);
    // A join that read `end` reads the run ended: the end is stored with its status.
    expect((await queue.get("alice", "t1", run.run_id))!.status).toBe("success");
    expect((await queue.wait(run.run_id)).status).toBe("success");
    // Stored: the same events from the table (NUL made safe for jsonb), and a replay after seq 5.
    const stored = await collect(queue.events(run.run_id, 5));
    expect(stored.map((event) => event.seq)).toEqual([6, 7]);
    const rows = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM fawn_run_events WHERE run_id = $1", [
      run.run_id,
    ]);
    expect(rows[0]!.n).toBe(7);
    expect(JSON.stringify(stored)).not.toContain("\\u0000");
    expect((await collect(queue.events(run.run_id, 1)))[0]!.data).toEqual([
      { type: "AIMessageChunk", id: "ai", content: "piece 0\uFFFD" },
      { langgraph_node: "agent" },
    ]);
    expect(requests[0]).toMatchObject({ thread_id: "t1", input: { messages: [{ type: "human", content: "hi" }] } });
  });

  it("refuses a second run on a busy thread with reject, and queues it with enqueue", async () => {
    const queue = replica("a");
    const first = await queue.create("alice", "t1", { assistantId: "a", kwargs: say("hi") });
    await expect(queue.create("alice", "t1", { assistantId: "a", kwargs: say("again") })).rejects.toBeInstanceOf(
      RunConflictError,
    );
    // Another user's thread of the same id is not busy.
    await queue.create("bob", "t1", { assistantId: "a", kwargs: say("hi") });
    const second = await queue.create("alice", "t1", {
      assistantId: "a",
      kwargs: say("again"),
      multitaskStrategy: "enqueue",
    });
    expect(await queue.isBusy("alice", "t1")).toBe(true);
    queue.start();
    expect((await queue.wait(second.run_id)).status).toBe("success");
    expect((await queue.get("alice", "t1", first.run_id))!.status).toBe("success");
    const order = requests.filter((request) => request.thread_id === "t1").map((request) => request.run_id);
    expect(order.indexOf(first.run_id)).toBeLessThan(order.indexOf(second.run_id));
    expect(await queue.isBusy("alice", "t1")).toBe(false);
    expect(await queue.get("bob", "t1", first.run_id)).toBeUndefined();
  });

  it("interrupts the running run for an interrupt run, which then starts", async () => {
    const queue = replica("a");
    queue.start();
    const slow = await queue.create("alice", "t1", { assistantId: "a", kwargs: say("slow") });
    await until(async () => (await queue.get("alice", "t1", slow.run_id))?.status === "running");
    const next = await queue.create("alice", "t1", {
      assistantId: "a",
      kwargs: say("hi"),
      multitaskStrategy: "interrupt",
    });
    expect((await queue.wait(slow.run_id)).status).toBe("interrupted");
    expect((await queue.wait(next.run_id)).status).toBe("success");
  });

  it("rolls the thread back to before the running run for a rollback run, then starts it", async () => {
    const queue = replica("a");
    queue.start();
    const slow = await queue.create("alice", "t1", { assistantId: "a", kwargs: say("slow") });
    await until(async () => (await queue.get("alice", "t1", slow.run_id))?.status === "running");
    const next = await queue.create("alice", "t1", {
      assistantId: "a",
      kwargs: say("hi"),
      multitaskStrategy: "rollback",
    });
    expect((await queue.wait(slow.run_id)).status).toBe("interrupted");
    expect((await queue.wait(next.run_id)).status).toBe("success");
    expect(rolledBack).toEqual([["t1", slow.run_id]]);
  });

  it("cancels a running run from another replica, and a pending one at once", async () => {
    const a = replica("a");
    const b = replica("b");
    a.start();
    const slow = await a.create("alice", "t1", { assistantId: "a", kwargs: say("slow") });
    await until(async () => (await a.get("alice", "t1", slow.run_id))?.status === "running");
    const queued = await a.create("alice", "t1", { assistantId: "a", kwargs: say("hi"), multitaskStrategy: "enqueue" });
    const cancelledPending = await b.cancel("alice", "t1", queued.run_id);
    expect(cancelledPending!.status).toBe("interrupted");
    expect((await collect(b.events(queued.run_id))).map((event) => event.event)).toEqual(["metadata", "end"]);
    // B follows A's run from the table, then cancels it.
    const joined = collect(b.events(slow.run_id));
    await sleep(100);
    await b.cancel("alice", "t1", slow.run_id);
    const events = await joined;
    expect(events.at(-1)).toMatchObject({ event: "end", data: { status: "interrupted" } });
    expect((await b.get("alice", "t1", slow.run_id))!.status).toBe("interrupted");
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect((await b.wait(slow.run_id)).status).toBe("interrupted");
    expect(await b.cancel("bob", "t1", slow.run_id)).toBeUndefined();
  });

  it("ends a dead replica's run as interrupted once its lease expires, and the thread's next run starts elsewhere", async () => {
    const b = replica("b", 200);
    const dead = await b.create("alice", "t1", { assistantId: "a", kwargs: say("slow") });
    // Replica "dead" claimed it, saved its message, stored two events and stopped renewing its lease.
    saved.set("t1", [(dead.kwargs.input!.messages![0] as { id: string }).id]);
    await db.query(
      "UPDATE fawn_runs SET status = 'running', replica = 'dead', lease_until = now() + interval '100 milliseconds' WHERE run_id = $1",
      [dead.run_id],
    );
    await db.query(
      `INSERT INTO fawn_run_events (run_id, seq, event, data) VALUES ($1, 1, 'metadata', '{}'), ($1, 2, 'messages', '[]')`,
      [dead.run_id],
    );
    const next = await b.create("alice", "t1", {
      assistantId: "a",
      kwargs: { input: null },
      multitaskStrategy: "enqueue",
    });
    b.start();
    expect((await b.wait(dead.run_id)).status).toBe("interrupted");
    expect((await collect(b.events(dead.run_id))).map((event) => [event.seq, event.event])).toEqual([
      [1, "metadata"],
      [2, "messages"],
      [3, "end"],
    ]);
    expect((await b.wait(next.run_id)).status).toBe("success");
    expect(requests.at(-1)).toMatchObject({ run_id: next.run_id, branch: { kind: "resume" } });
  });

  it("sends a dead replica's message on Continue when the thread never saved it (found by the crash suite)", async () => {
    const b = replica("b", 200);
    const dead = await b.create("alice", "t1", { assistantId: "a", kwargs: say("slow") });
    // Replica "dead" claimed it and died before the thread saved anything of it.
    await db.query(
      "UPDATE fawn_runs SET status = 'running', replica = 'dead', lease_until = now() + interval '100 milliseconds' WHERE run_id = $1",
      [dead.run_id],
    );
    const next = await b.create("alice", "t1", {
      assistantId: "a",
      kwargs: { input: null },
      multitaskStrategy: "enqueue",
    });
    b.start();
    expect((await b.wait(dead.run_id)).status).toBe("interrupted");
    expect((await b.wait(next.run_id)).status).toBe("success");
    const sent = requests.at(-1)!;
    expect(sent.run_id).toBe(next.run_id);
    expect(sent.branch).toBeUndefined();
    expect(sent.input.messages).toEqual([expect.objectContaining({ content: "slow" })]);
  });

  it("takes an enqueued run on whichever replica is free, one running run per thread", async () => {
    const a = replica("a");
    const b = replica("b");
    const runs = [];
    for (const thread of ["t1", "t1", "t2", "t3"]) {
      runs.push(await a.create("alice", thread, { assistantId: "a", kwargs: say("hi"), multitaskStrategy: "enqueue" }));
    }
    a.start();
    b.start();
    for (const run of runs) expect((await a.wait(run.run_id)).status).toBe("success");
    const replicas = await db.query<{ run_id: string; replica: string }>(
      "SELECT run_id, replica FROM fawn_runs ORDER BY created_at",
    );
    expect(replicas.every((row) => row.replica === "a" || row.replica === "b")).toBe(true);
    // Each run starts from the stored files: the sandbox a replica kept is closed before each of t1's two runs.
    expect(closed.filter(([, thread]) => thread === "t1").map(([replicaId]) => replicaId)).toEqual(
      replicas.slice(0, 2).map((row) => row.replica),
    );
  });

  it("ends a run that fails outside the Gateway with an error event that carries no detail", async () => {
    const queue = replica("a");
    queue.start();
    const run = await queue.create("alice", "t1", { assistantId: "a", kwargs: say("boom") });
    const events = await collect(queue.events(run.run_id));
    expect(events.map((event) => event.event)).toEqual(["metadata", "error", "end"]);
    expect(JSON.stringify(events)).not.toContain("secret-key-123");
    expect((await queue.wait(run.run_id)).status).toBe("error");
  });

  it("lists, gets and deletes runs, each only for its owner", async () => {
    const queue = replica("a");
    queue.start();
    const first = await queue.create("alice", "t1", { assistantId: "a", kwargs: say("hi") });
    await queue.wait(first.run_id);
    const second = await queue.create("alice", "t1", { assistantId: "a", kwargs: say("hi") });
    await queue.wait(second.run_id);
    expect((await queue.list("alice", "t1")).map((run) => run.run_id)).toEqual([second.run_id, first.run_id]);
    expect(await queue.list("alice", "t1", { limit: 1, offset: 1 })).toHaveLength(1);
    expect(await queue.list("bob", "t1")).toEqual([]);
    expect(await queue.delete("bob", "t1", first.run_id)).toBe(false);
    expect(await queue.delete("alice", "t1", first.run_id)).toBe(true);
    expect(await queue.get("alice", "t1", first.run_id)).toBeUndefined();
    expect(await collect(queue.events(first.run_id))).toEqual([]);
  });

  it("refuses kwargs it cannot run before queueing them", async () => {
    const queue = replica("a");
    await expect(
      queue.create("alice", "t1", {
        assistantId: "a",
        kwargs: { input: { messages: [{ type: "ai", content: "x" }] } },
      }),
    ).rejects.toBeInstanceOf(RunInputError);
    await expect(
      queue.create("alice", "t1", { assistantId: "a", kwargs: { command: { goto: "agent" }, input: null } }),
    ).rejects.toBeInstanceOf(RunInputError);
    expect(await queue.list("alice", "t1")).toEqual([]);
  });
});
