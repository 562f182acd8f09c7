// Two Fawn servers (`npm run server`, spawned) on one Debian Postgres, as a deployment behind a load balancer runs
// them: a run created on one is streamed, joined and cancelled from the other; a replica killed mid-run loses its
// lease, the run ends interrupted, and the thread goes on from its last step on the other; an enqueued run is taken
// by whichever replica is free. Skipped where Debian's Postgres is not installed.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../server/db/database.ts";
import { startMockLlm, type MockLlm } from "../mock-llm/server.ts";
import { hasDebianPostgres, startPostgres, type StartedPostgres } from "../support/postgres.ts";

const LEASE_MS = 1000;
const TOKEN = "replicas-test-admin-token-0123456789";

interface Replica {
  name: string;
  /** The replica id it printed. */
  id: string;
  client: Client;
  process: ChildProcess;
  output: string[];
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `npm run server` on a free port against `databaseUrl`; resolves once it prints where it listens. */
async function startReplica(name: string, databaseUrl: string, mock: MockLlm, dataDir: string): Promise<Replica> {
  const child = spawn("npm", ["run", "server", "--silent"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    // Its own process group: npm, tsx and node are killed together (SIGKILL included).
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: "0",
      FAWN_SERVER_TOKEN: TOKEN,
      FAWN_SERVER_DATA: path.join(dataDir, name),
      FAWN_MODEL_BASE_URL: mock.url,
      FAWN_MODEL: "mock-model",
      FAWN_MODEL_API_KEY: "sk-test",
      FAWN_RUN_LEASE_MS: String(LEASE_MS),
    },
  });
  const output: string[] = [];
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exit.then(() => (exited = true));
  const kill = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (exited || child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
    await Promise.race([exit, sleep(10_000)]);
  };
  const listening = new Promise<{ url: string; id: string }>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      const found = /listening on (http:\/\/\S+) \(replica ([^)]+)\)/.exec(output.join(""));
      if (found) resolve({ url: found[1]!, id: found[2]! });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    void exit.then(() => reject(new Error(`${name} exited before it listened:\n${output.join("")}`)));
  });
  try {
    const { url, id } = await Promise.race([
      listening,
      sleep(45_000).then(() => Promise.reject(new Error(`${name} did not start:\n${output.join("")}`))),
    ]);
    return { name, id, client: new Client({ apiUrl: `${url}/api`, apiKey: TOKEN }), process: child, output, kill };
  } catch (error) {
    await kill("SIGKILL");
    throw error;
  }
}

async function until<T>(what: string, check: () => Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await sleep(50);
  }
}

const human = (content: string) => ({ messages: [{ type: "human", content }] });

function messageTexts(values: unknown): string[] {
  const messages = (values as { messages?: { type?: string; content?: unknown }[] }).messages ?? [];
  return messages
    .filter((message) => message.type === "human" || message.type === "ai")
    .map(
      (message) =>
        `${message.type}: ${typeof message.content === "string" ? message.content : JSON.stringify(message.content)}`,
    );
}

describe.skipIf(!hasDebianPostgres())("replicas on one Postgres", () => {
  let postgres: StartedPostgres;
  let mock: MockLlm;
  let db: Database;
  let dataDir: string;
  const replicas: Replica[] = [];
  let a: Replica;
  let b: Replica;

  /** Which replica holds (or held) a run, from the runs table. */
  const heldBy = async (runId: string) =>
    (await db.query<{ replica: string | null }>("SELECT replica FROM fawn_runs WHERE run_id = $1", [runId]))[0]
      ?.replica;

  /**
   * Waits until a replica holds the run (either may take it: both poll the queue) and its reply has begun; returns
   * that replica and the other one.
   */
  const replyBegun = async (runId: string) => {
    const id = await until("a replica to take the run", () => heldBy(runId));
    await until("its reply to begin", async () => {
      const rows = await db.query("SELECT 1 FROM fawn_run_events WHERE run_id = $1 AND event = 'messages'", [runId]);
      return rows.length > 0;
    });
    const holder = id === a.id ? a : b;
    return { holder, other: holder === a ? b : a };
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "fawn-replicas-"));
    postgres = await startPostgres();
    mock = await startMockLlm({ port: 0 });
    db = await openDatabase({ url: postgres.url });
    // One after the other: both migrate the same database at start.
    for (const name of ["a", "b"]) replicas.push(await startReplica(name, postgres.url, mock, dataDir));
    [a, b] = replicas as [Replica, Replica];
  }, 120_000);

  afterAll(async () => {
    for (const replica of replicas) await replica.kill("SIGKILL");
    await db?.close();
    await mock?.close();
    await postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it("streams a run created on one replica, and joins it from the other with the same events", async () => {
    const thread = await a.client.threads.create();
    const run = await a.client.runs.create(thread.thread_id, "lead_agent", {
      input: human("hello"),
      streamMode: ["values", "messages-tuple"],
    });
    const joined: { event: string; data: unknown }[] = [];
    for await (const part of b.client.runs.joinStream(thread.thread_id, run.run_id)) joined.push(part);
    const events = joined.map((part) => part.event);
    expect(events[0]).toBe("metadata");
    expect(events).toContain("values");
    expect(events).toContain("messages");
    expect((await b.client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
    const state = await b.client.threads.getState(thread.thread_id);
    expect(messageTexts(state.values)[0]).toBe("human: hello");
    expect(messageTexts(state.values)).toHaveLength(2);
    // Joined again afterwards, on the replica that ran it: the stored events, the same ones.
    const again: { event: string }[] = [];
    for await (const part of a.client.runs.joinStream(thread.thread_id, run.run_id)) again.push(part);
    expect(again.map((part) => part.event)).toEqual(events);
  }, 60_000);

  it("cancels from one replica a run the other is running", async () => {
    const thread = await a.client.threads.create();
    const run = await a.client.runs.create(thread.thread_id, "lead_agent", { input: human("long") });
    const { other } = await replyBegun(run.run_id);
    const started = Date.now();
    await other.client.runs.cancel(thread.thread_id, run.run_id, true);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await other.client.runs.get(thread.thread_id, run.run_id)).status).toBe("interrupted");
    // The thread is free again: a new run goes on from what the cancelled one saved.
    const values = await other.client.runs.wait(thread.thread_id, "lead_agent", { input: human("hello") });
    expect(messageTexts(values)[0]).toBe("human: long");
    expect(messageTexts(values)).toContain("human: hello");
  }, 60_000);

  it("rolls back from one replica a run the other is running: the thread is as it was before the run", async () => {
    const thread = await a.client.threads.create();
    const before = messageTexts(await b.client.runs.wait(thread.thread_id, "lead_agent", { input: human("hello") }));
    const run = await a.client.runs.create(thread.thread_id, "lead_agent", { input: human("long") });
    const { other } = await replyBegun(run.run_id);
    await other.client.runs.cancel(thread.thread_id, run.run_id, true, "rollback");
    expect((await other.client.runs.get(thread.thread_id, run.run_id)).status).toBe("interrupted");
    expect(messageTexts((await a.client.threads.getState(thread.thread_id)).values)).toEqual(before);
  }, 60_000);

  it("takes an enqueued run on either replica, one run of a thread at a time", async () => {
    const thread = await a.client.threads.create();
    const first = await a.client.runs.create(thread.thread_id, "lead_agent", { input: human("hello") });
    const second = await b.client.runs.create(thread.thread_id, "lead_agent", {
      input: human("echo queued"),
      multitaskStrategy: "enqueue",
    });
    await expect(a.client.runs.create(thread.thread_id, "lead_agent", { input: human("refused") })).rejects.toThrow(
      /already running/,
    );
    await b.client.runs.join(thread.thread_id, second.run_id);
    expect((await a.client.runs.get(thread.thread_id, first.run_id)).status).toBe("success");
    expect((await a.client.runs.get(thread.thread_id, second.run_id)).status).toBe("success");
    expect([a.id, b.id]).toContain(await heldBy(second.run_id));
    const state = await a.client.threads.getState(thread.thread_id);
    expect(messageTexts(state.values).filter((text) => text.startsWith("human"))).toEqual([
      "human: hello",
      "human: echo queued",
    ]);
  }, 60_000);

  it("ends a killed replica's run as interrupted once its lease expires, and the thread goes on on the other", async () => {
    const thread = await a.client.threads.create();
    const run = await a.client.runs.create(thread.thread_id, "lead_agent", { input: human("long") });
    const { holder, other } = await replyBegun(run.run_id);
    // A joiner on the other replica follows the run from the table, and stops when the run ends without its holder.
    const joined = (async () => {
      const parts: { event: string; data: unknown }[] = [];
      for await (const part of other.client.runs.joinStream(thread.thread_id, run.run_id)) parts.push(part);
      return parts;
    })();
    await holder.kill("SIGKILL");
    const killedAt = Date.now();
    const status = await until("the run to be interrupted", async () => {
      const seen = await other.client.runs.get(thread.thread_id, run.run_id);
      return seen.status !== "running" && seen.status;
    });
    expect(status).toBe("interrupted");
    expect(Date.now() - killedAt).toBeLessThan(LEASE_MS * 5);
    expect((await joined).length).toBeGreaterThan(0);
    // A run with no input resumes the cut-off reply on the replica left, from the last step the killed one saved.
    const resumed = await other.client.runs.create(thread.thread_id, "lead_agent", { input: null });
    await other.client.runs.join(thread.thread_id, resumed.run_id);
    expect(await heldBy(resumed.run_id)).toBe(other.id);
    expect((await other.client.runs.get(thread.thread_id, resumed.run_id)).status).toBe("success");
    const texts = messageTexts((await other.client.threads.getState(thread.thread_id)).values);
    expect(texts[0]).toBe("human: long");
    expect(texts.filter((text) => text === "human: long")).toHaveLength(1);
    expect(texts.at(-1)).toMatch(/^ai: /);
  }, 90_000);
});
