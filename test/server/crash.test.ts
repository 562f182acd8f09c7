// Crash on the server (reliability suite crash-server): two `npm run server` replicas on one Debian Postgres, driven
// by LangGraph's SDK against the mock model. A replica running a turn with tool calls and a file write is SIGKILLed
// at a seeded random moment: the other replica ends the run `interrupted` once its lease expires, the thread holds
// everything that was saved before the kill (and no half step), its files agree with its steps, Continue (a run with
// no input) finishes the turn, a new run works, and the killed replica starts again. Postgres restarted mid-run: both
// replicas keep running without a restart of their own, the run ends (finished, a clear error, or interrupted and
// continued), nothing saved is lost and the next run works. Quick: 3 kills and 1 restart; full: 50 and 5.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../server/db/database.ts";
import { SLOW_WRITE_PATH, SLOW_WRITE_TEXT } from "../mock-llm/scenarios.ts";
import { startMockLlm, type MockLlm } from "../mock-llm/server.ts";
import { hasDebianPostgres, startPostgres, type StartedPostgres } from "../support/postgres.ts";
import { firstSeed, recordCase, reliabilityCases, seededRandom } from "../support/reliability.ts";
import { startReplica, type Replica } from "./replica-process.ts";
import { checkThread, messagesOf, observeThread, type Observed, type SavedMessage } from "./crash-checks.ts";

const LEASE_MS = 2000;
const TOKEN = "crash-test-admin-token-0123456789abcdef";
const PORTS = { postgres: 15_433, mock: 15_434, a: 15_401, b: 15_402 } as const;

const human = (content: string) => ({ messages: [{ type: "human", content }] });

async function until<T>(what: string, check: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await sleep(50);
  }
}

/** A turn the mock model plays: its prompt, the file it writes, and the reply that ends it. */
interface Script {
  name: string;
  prompt: string;
  file: { path: string; content: string };
  finalReply: RegExp;
  /** About how long the turn runs, ms (where the cut points fall). */
  lengthMs: number;
}

function toolsScript(tag: string): Script {
  const file = {
    path: `/mnt/user-data/outputs/crash-${tag}.md`,
    content: `# Crash ${tag}\n\nSaved whole or not at all.\n`,
  };
  const write = { description: "Write the notes", path: file.path, content: file.content };
  const bash = { description: "Count the lines", command: `wc -l ${file.path}` };
  return {
    name: "tool calls",
    prompt: `call tools write_file ${JSON.stringify(write)}; bash ${JSON.stringify(bash)}`,
    file,
    finalReply: /^The tool returned: /,
    lengthMs: 2500,
  };
}

function slowWriteScript(tag: string): Script {
  return {
    name: "slow write",
    prompt: `write slowly (${tag})`,
    file: { path: SLOW_WRITE_PATH, content: SLOW_WRITE_TEXT },
    finalReply: /^The notes are written\.$/,
    lengthMs: 6500,
  };
}

describe.skipIf(!hasDebianPostgres())("crash on the server", () => {
  let postgres: StartedPostgres;
  let mock: MockLlm;
  let db: Database;
  let dataDir: string;
  const replicas: Record<"a" | "b", Replica | undefined> = { a: undefined, b: undefined };
  const start = async (name: "a" | "b") => {
    replicas[name] = await startReplica(name, {
      databaseUrl: postgres.url,
      modelUrl: mock.url,
      token: TOKEN,
      dataDir,
      port: PORTS[name],
      leaseMs: LEASE_MS,
    });
    return replicas[name];
  };
  /** Each replica's state and last output, for a case that failed. */
  const lastWords = () =>
    Object.values(replicas).map(
      (replica) =>
        `replica ${replica?.name} ${replica?.alive() ? "running" : "exited"}: ${replica?.output.join("").slice(-600)}`,
    );
  const live = () => Object.values(replicas).filter((replica): replica is Replica => replica?.alive() === true);

  /** Which replica holds (or held) a run, from the runs table. */
  const heldBy = async (runId: string) =>
    (await db.query<{ replica: string | null }>("SELECT replica FROM fawn_runs WHERE run_id = $1", [runId]))[0]
      ?.replica;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "fawn-crash-"));
    postgres = await startPostgres({ port: PORTS.postgres });
    mock = await startMockLlm({ port: PORTS.mock });
    db = await openDatabase({ url: postgres.url });
    // One after the other: both migrate the same database at start.
    await start("a");
    await start("b");
  }, 180_000);

  afterAll(async () => {
    for (const replica of Object.values(replicas)) await replica?.kill("SIGKILL");
    await db?.close();
    await mock?.close();
    await postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** A thread with one finished turn (saved before anything breaks), on `replica`. */
  const threadWithHistory = async (replica: Replica) => {
    const thread = await replica.client.threads.create();
    await replica.client.runs.wait(thread.thread_id, "lead_agent", { input: human("hello") });
    return thread.thread_id;
  };

  /** Continue (a run with no input) on `replica`, then a new message: both must finish. Returns a problem or undefined. */
  const continueAndGoOn = async (replica: Replica, threadId: string, script: Script): Promise<string[]> => {
    const problems: string[] = [];
    // Killed after saving the turn's last reply but before its run was marked done: nothing is cut off, and Continue
    // says so in its sentence (as for any thread with nothing to continue); the next message must still work.
    const before = messagesOf(await replica.client.threads.getState(threadId)).at(-1);
    const whole = before?.type === "ai" && script.finalReply.test(before.text);
    const resumed = await replica.client.runs.create(threadId, "lead_agent", { input: null });
    await replica.client.runs.join(threadId, resumed.run_id);
    const status = (await replica.client.runs.get(threadId, resumed.run_id)).status;
    if (whole) {
      const error = await errorOf(replica, threadId, resumed.run_id);
      if (status !== "error" || error !== "This thread has no cut-off reply to continue.") {
        problems.push(`Continue of a whole turn ended ${status}: ${error}`);
      }
    } else if (status !== "success") {
      problems.push(`Continue ended ${status}: ${await errorOf(replica, threadId, resumed.run_id)}`);
    }
    const after = messagesOf(await replica.client.threads.getState(threadId));
    problems.push(...(await checkThread(replica, threadId, after, { script, finished: true })));
    const next = await replica.client.runs.create(threadId, "lead_agent", { input: human("and now?") });
    await replica.client.runs.join(threadId, next.run_id);
    const nextStatus = (await replica.client.runs.get(threadId, next.run_id)).status;
    if (nextStatus !== "success") problems.push(`the next run ended ${nextStatus}`);
    const last = messagesOf(await replica.client.threads.getState(threadId)).at(-1);
    if (last?.type !== "ai" || last.text !== "You said: and now?") {
      problems.push(`the next run's reply is ${JSON.stringify(last)}`);
    }
    return problems;
  };

  /** The sentence of a run's error event, if it has one. */
  const errorOf = async (replica: Replica, threadId: string, runId: string) => {
    for await (const part of replica.client.runs.joinStream(threadId, runId)) {
      if (part.event === "error") return (part.data as { message?: string }).message;
    }
    return undefined;
  };

  /** The saved messages seen before the fault must all be there after it, in order and unchanged. */
  const lostOf = (seen: SavedMessage[], after: SavedMessage[]) =>
    seen.filter((message, index) => JSON.stringify(after[index]) !== JSON.stringify(message)).length;

  it("a replica SIGKILLed mid-run: the other ends it interrupted, nothing saved is lost, Continue finishes it", async () => {
    const seed = firstSeed();
    const random = seededRandom(seed);
    const cases = reliabilityCases(3, 50);
    const failures: string[] = [];
    for (let index = 0; index < cases; index++) {
      const tag = `${seed}-${index}`;
      // Quick runs use the short turn; full runs mix in the slow file write (60 argument pieces, ~5 s).
      const script = index > 0 && random() < 0.3 ? slowWriteScript(tag) : toolsScript(tag);
      const cutFraction = random();
      const creator = live()[Math.floor(random() * live().length)]!;
      let name = `seed ${seed} #${index}: ${script.name}`;
      let recoveryMs: number | undefined;
      let lost = 0;
      const problems: string[] = [];
      try {
        const threadId = await threadWithHistory(creator);
        const run = await creator.client.runs.create(threadId, "lead_agent", { input: human(script.prompt) });
        const holderId = await until("a replica to take the run", () => heldBy(run.run_id));
        const holder = live().find((replica) => replica.id === holderId)!;
        const other = live().find((replica) => replica !== holder)!;
        const cutMs = Math.round(cutFraction * script.lengthMs);
        name += `, SIGKILL of the replica running it ${cutMs} ms after it took the run`;
        const observing: Observed = observeThread(other, threadId);
        const joined = (async () => {
          let parts = 0;
          for await (const _ of other.client.runs.joinStream(threadId, run.run_id)) parts++;
          return parts;
        })();
        await sleep(cutMs);
        await holder.kill("SIGKILL");
        const killedAt = Date.now();
        const seen = await observing.stop();
        const status = await until("the run to end", async () => {
          const got = await other.client.runs.get(threadId, run.run_id);
          return got.status !== "running" && got.status !== "pending" && got.status;
        });
        recoveryMs = Date.now() - killedAt;
        name += ` (${seen.length} messages saved by then, run ${status})`;
        const restarted = start(holder.name as "a" | "b");
        if (status !== "interrupted" && status !== "success") problems.push(`the run ended ${status}`);
        if (recoveryMs > LEASE_MS * 5) problems.push(`the run was running for ${recoveryMs} ms after the kill`);
        const joinEnded = await Promise.race([joined.then(() => true), sleep(10_000).then(() => false)]);
        if (!joinEnded) problems.push("a join on the other replica did not end");
        const after = messagesOf(await other.client.threads.getState(threadId));
        lost = lostOf(seen, after);
        if (lost > 0) problems.push(`${lost} saved messages changed or gone: ${JSON.stringify({ seen, after })}`);
        problems.push(...(await checkThread(other, threadId, after, { script, finished: status === "success" })));
        if (status === "interrupted") problems.push(...(await continueAndGoOn(other, threadId, script)));
        await restarted;
      } catch (error) {
        problems.push(`failed: ${(error as Error).message}`, ...lastWords());
      }
      for (const name of ["a", "b"] as const) if (!replicas[name]?.alive()) await start(name).catch(() => undefined);
      recordCase("crash-server", {
        case: name,
        survived: problems.length === 0,
        lost,
        ...(recoveryMs !== undefined && { recoveryMs }),
        ...(problems.length > 0 && { detail: problems.join("; ").slice(0, 2000) }),
      });
      if (problems.length > 0) failures.push(`${name}: ${problems.join("; ")}`);
    }
    expect(failures).toEqual([]);
  }, 3_600_000);

  it("a transaction whose connection is cut mid-way rejects, and the process and its pool go on (found by the suite)", async () => {
    const own = await openDatabase({ url: postgres.url, poolSize: 2 });
    try {
      const cut = own.transaction(async (sql) => {
        const [{ pid }] = (await sql.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")) as [{ pid: number }];
        await db.query("SELECT pg_terminate_backend($1)", [pid]);
        await sql.query("SELECT pg_sleep(0.2)");
      });
      await expect(cut).rejects.toThrow();
      // Had the cut client's 'error' event gone unheard, the process would have ended before this line.
      expect(await own.transaction((sql) => sql.query("SELECT 1 AS one"))).toEqual([{ one: 1 }]);
    } finally {
      await own.close();
    }
  });

  it("Postgres restarted mid-run: the replicas recover by themselves, the run ends cleanly, the next run works", async () => {
    const seed = firstSeed() + 1;
    const random = seededRandom(seed);
    const cases = reliabilityCases(1, 5);
    const failures: string[] = [];
    for (let index = 0; index < cases; index++) {
      const script = slowWriteScript(`pg-${seed}-${index}`);
      const cutMs = Math.round(random() * script.lengthMs);
      const downMs = Math.round(random() * 1500);
      let name = `seed ${seed} #${index}: ${script.name}, Postgres restarted ${cutMs} ms into the run, down ${downMs} ms`;
      let recoveryMs: number | undefined;
      let lost = 0;
      const problems: string[] = [];
      try {
        const [a, b] = live() as [Replica, Replica];
        const threadId = await threadWithHistory(a);
        const run = await a.client.runs.create(threadId, "lead_agent", { input: human(script.prompt) });
        await until("a replica to take the run", () => heldBy(run.run_id));
        const observing = observeThread(b, threadId);
        await sleep(cutMs);
        const seen = await observing.stop();
        const restartedAt = Date.now();
        await postgres.restart(downMs);
        const status = await until(
          "the run to end",
          async () => {
            const got = await b.client.runs.get(threadId, run.run_id);
            return got.status !== "running" && got.status !== "pending" && got.status;
          },
          60_000,
        );
        name += ` (run ${status})`;
        for (const replica of [a, b]) if (!replica.alive()) problems.push(`replica ${replica.name} exited`);
        if (status === "error") {
          const message = await errorOf(b, threadId, run.run_id);
          name += `: ${message}`;
          if (!message || !/^[A-Z].*[.!?]$/.test(message)) problems.push(`its error is not a sentence: ${message}`);
        } else if (status !== "success" && status !== "interrupted") problems.push(`the run ended ${status}`);
        const after = messagesOf(await b.client.threads.getState(threadId));
        lost = lostOf(seen, after);
        if (lost > 0) problems.push(`${lost} saved messages changed or gone: ${JSON.stringify({ seen, after })}`);
        problems.push(...(await checkThread(b, threadId, after, { script, finished: status === "success" })));
        if (status !== "success") problems.push(...(await continueAndGoOn(a, threadId, script)));
        recoveryMs = Date.now() - restartedAt;
        // Both replicas serve again: a new thread's turn on each.
        for (const replica of [a, b]) {
          const thread = await replica.client.threads.create();
          const values = await replica.client.runs.wait(thread.thread_id, "lead_agent", { input: human("hello") });
          if (messagesOf({ values }).length !== 2) problems.push(`replica ${replica.name} cannot run a new thread`);
        }
      } catch (error) {
        problems.push(`failed: ${(error as Error).message}`, ...lastWords());
      }
      for (const name of ["a", "b"] as const) if (!replicas[name]?.alive()) await start(name).catch(() => undefined);
      recordCase("crash-server", {
        case: name,
        survived: problems.length === 0,
        lost,
        ...(recoveryMs !== undefined && { recoveryMs }),
        ...(problems.length > 0 && { detail: problems.join("; ").slice(0, 2000) }),
      });
      if (problems.length > 0) failures.push(`${name}: ${problems.join("; ")}`);
    }
    expect(failures).toEqual([]);
  }, 1_800_000);
});
