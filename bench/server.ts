// `npm run bench:server`: 10, 50 and 200 concurrent streamed runs of Fawn's lead agent against the scripted mock
// model, through `@langchain/langgraph-sdk`'s Client, on Fawn's server (`npm run server`, embedded PGlite) and on
// `langgraphjs dev` serving the same graph, one after the other in the same run: runs per second, time to the first
// events, completed and failed runs, memory per open stream. Prints a table; with `--page` also writes the "Server"
// section of docs/performance.md. Numbers only; nothing here is a timed assertion (docs/architecture.md#d10-tests).
// Fawn's server runs twice: over its embedded PGlite (the default) and over a throwaway Debian Postgres (DATABASE_URL,
// as a team deploys it) when its binaries are installed. BENCH_SERVER_LEVELS (e.g. "10,50") and BENCH_SERVER_TARGETS
// (some of "fawn", "fawn-postgres", "langgraph") narrow a run.
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { startMockLlm } from "../test/mock-llm/server.ts";
import { saveBenchResult, type BenchResult, type BenchTable } from "./report.ts";
import { idleRss, PROMPT, runLevel, warmUp, type LevelResult } from "./server-load.ts";
import { writeSectionIntoPage } from "./server-page.ts";
import { hasDebianPostgres, startPostgres } from "../test/support/postgres.ts";
import { postmasterPid, startFawnServer, startLangGraphDev, type ModelEnv, type Target } from "./server-targets.ts";

const LEVELS = (process.env.BENCH_SERVER_LEVELS ?? "10,50,200").split(",").map(Number);
const TARGETS = (process.env.BENCH_SERVER_TARGETS ?? "fawn,fawn-postgres,langgraph").split(",");
/** A pause between levels, so one level's tail (titles, memory updates) does not run into the next's timing. */
const SETTLE_MS = 3_000;

interface TargetResult {
  name: string;
  /** Spawn → the server answered /ok, ms. */
  readyMs?: number;
  /** After the warm-up run, bytes. */
  restRss?: number;
  warmUpError?: string;
  /** Why it could not be measured at all. */
  startError?: string;
  levels: LevelResult[];
}

/** Nearest-rank percentile of `values` (undefined when empty). */
function percentile(values: number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function pair(values: (number | undefined)[]): string {
  const present = values.filter((value): value is number => value !== undefined);
  const p50 = percentile(present, 50);
  const p95 = percentile(present, 95);
  return p50 === undefined || p95 === undefined ? "—" : `${Math.round(p50)} / ${Math.round(p95)}`;
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

async function measure(name: string, start: () => Promise<Target>, modelCalls: () => number): Promise<TargetResult> {
  const result: TargetResult = { name, levels: [] };
  console.log(`\n== ${name}: starting`);
  const spawned = performance.now();
  let target: Target;
  try {
    target = await start();
  } catch (error) {
    result.startError = (error as Error).message.split("\n")[0];
    console.error(`${name} did not start: ${(error as Error).message}`);
    return result;
  }
  result.readyMs = performance.now() - spawned;
  console.log(`== ${name}: answering at ${target.apiUrl}; measuring the processes under ${target.pids.join(", ")}`);
  try {
    const warm = await warmUp(target);
    if (!warm.ok) {
      result.warmUpError = warm.error;
      console.error(`${name}: the warm-up run failed (${warm.error})\n${target.output()}`);
    }
    await sleep(SETTLE_MS);
    result.restRss = await idleRss(target.pids);
    for (const concurrency of LEVELS) {
      console.log(`== ${name}: ${concurrency} concurrent streams`);
      const callsBefore = modelCalls();
      const level = await runLevel(target, concurrency);
      const failed = level.streams.filter((stream) => !stream.ok).length;
      console.log(
        `   ${level.streams.length - failed} completed, ${failed} failed in ${(level.wallMs / 1000).toFixed(1)} s`,
      );
      result.levels.push(level);
      await sleep(SETTLE_MS);
      // After the pause: a run's title or memory update may call the model once its stream has ended.
      level.modelCalls = modelCalls() - callsBefore;
    }
  } finally {
    await target.stop();
  }
  return result;
}

function levelRow(name: string, level: LevelResult): (string | number)[] {
  const completed = level.streams.filter((stream) => stream.ok);
  const failed = level.streams.length - completed.length;
  const perStream = Math.max(0, level.peakRss - level.idleRss) / level.concurrency;
  return [
    name,
    level.concurrency,
    (completed.length / (level.wallMs / 1000)).toFixed(1),
    pair(level.streams.map((stream) => stream.metadataMs)),
    pair(level.streams.map((stream) => stream.firstEventMs)),
    pair(level.streams.map((stream) => stream.firstTokenMs)),
    pair(completed.map((stream) => stream.totalMs)),
    completed.length,
    failed,
    `${(perStream / 1024).toFixed(0)} KB`,
    level.peakOpen,
    completed.length > 0 ? Math.round(level.serverCpuMs / completed.length) : "—",
    (level.modelCalls / level.concurrency).toFixed(1),
  ];
}

/** Each failure's reason, counted, per target and level. */
function failureNotes(results: TargetResult[]): string[] {
  const notes: string[] = [];
  for (const result of results) {
    if (result.startError) notes.push(`${result.name} did not start: ${result.startError}`);
    if (result.warmUpError) notes.push(`${result.name}'s warm-up run failed: ${result.warmUpError}`);
    for (const level of result.levels) {
      const reasons = new Map<string, number>();
      for (const stream of level.streams) {
        if (!stream.ok) reasons.set(stream.error ?? "unknown", (reasons.get(stream.error ?? "unknown") ?? 0) + 1);
      }
      if (reasons.size === 0) continue;
      const listed = [...reasons]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([reason, count]) => `${count}× "${reason}"`);
      notes.push(`${result.name} at ${level.concurrency} streams failed: ${listed.join("; ")}.`);
    }
  }
  return notes;
}

/** The commit measured, as scripts/bench.ts names it (the page itself does not count as a change). */
function commit(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const changed = execFileSync("git", ["status", "--porcelain", "--", ".", ":!docs/performance.md"], {
      encoding: "utf8",
    }).trim();
    return changed ? `${head} with uncommitted changes` : head;
  } catch {
    return "unknown";
  }
}

async function main(): Promise<void> {
  const started = new Date();
  const mock = await startMockLlm();
  const model: ModelEnv = { baseUrl: mock.url, model: "mock-model", apiKey: "mock-bench-key" };
  const loadBefore = loadavg()[0] ?? 0;
  const results: TargetResult[] = [];
  try {
    const calls = () => mock.requests.length;
    if (TARGETS.includes("fawn")) {
      results.push(await measure("Fawn server (PGlite)", () => startFawnServer(model), calls));
    }
    if (TARGETS.includes("fawn-postgres") && hasDebianPostgres()) {
      const postgres = await startPostgres();
      try {
        const pids = [postmasterPid(postgres.port)].filter((pid) => pid !== undefined);
        const database = { url: postgres.url, pids, name: "Fawn server (Postgres)" };
        results.push(await measure(database.name, () => startFawnServer(model, database), calls));
      } finally {
        await postgres.stop();
      }
    }
    if (TARGETS.includes("langgraph")) {
      results.push(await measure("langgraphjs dev", () => startLangGraphDev(model), calls));
    }
  } finally {
    await mock.close();
  }
  const loadAfter = loadavg()[0] ?? 0;

  const runs: BenchTable = {
    title: "Concurrent streamed runs (ms: p50 / p95, from the request)",
    columns: [
      "server",
      "streams",
      "runs/s",
      "to metadata",
      "to first event after it",
      "to first token",
      "to the end (completed)",
      "completed",
      "failed",
      "memory per open stream",
      "most open at once",
      "server CPU per run (ms)",
      "model calls per run",
    ],
    rows: results.flatMap((result) => result.levels.map((level) => levelRow(result.name, level))),
  };
  const rest: BenchTable = {
    title: "The servers at rest",
    columns: ["server", "start → answering /ok", "resident memory after one run (process tree)"],
    rows: results.map((result) => [
      result.name,
      result.readyMs === undefined ? "did not start" : `${(result.readyMs / 1000).toFixed(1)} s`,
      result.restRss === undefined ? "—" : mb(result.restRss),
    ]),
  };
  const bench: BenchResult = {
    name: "server",
    title: "Server",
    command: "npm run bench:server",
    about:
      "Fawn's lead agent served over LangGraph's API, driven by `@langchain/langgraph-sdk`'s `Client` " +
      "(`client.runs.stream`, stream modes `values` and `messages-tuple`, no client-side queue or retries) from the " +
      "benchmark's process: for each level, that many threads are created first (not timed), then that many runs " +
      `start at once, one per thread, each asking "${PROMPT}" of the scripted mock model (\`test/mock-llm\`, in the ` +
      "benchmark's process), which answers in about six words 20 ms apart. Three servers, one after the other in " +
      "the same run, each in a child process started as a user would: **Fawn server (PGlite)** is `npm run server` " +
      "(`tsx server/main.ts`, its embedded PGlite in a fresh temporary `FAWN_SERVER_DATA`, `FAWN_MODEL_*` naming the " +
      "mock, the admin's token); **Fawn server (Postgres)** is the same over a throwaway Debian Postgres (the newest installed; 15 here) " +
      "(`DATABASE_URL`; fsync off, as the tests start it), whose processes count in its memory and CPU figures; " +
      "**langgraphjs dev** is LangGraph's own JS server (`langgraphjs dev --no-reload`, its defaults: in-memory " +
      "store, 10 runs at a time) serving the same graph (`langgraph.json` → `server/graph.ts`). " +
      "Each server makes one warm-up run first. Runs/s is the completed runs over the level's wall time (first " +
      "request → last stream's end). The first events are measured from the request: `metadata` (both servers send " +
      "it once a worker starts the run, so it includes the time queued: a Fawn replica runs at most 16 runs at once, `langgraphjs dev` 10), the first event after it, and the first " +
      "`messages` event (a token of the reply). A run fails when " +
      "its stream carries an `error` event, the request is refused, or the stream breaks or lasts over 3 minutes. " +
      "Memory per open stream is the server's resident memory (its process tree's proportional set size, Pss in " +
      "/proc/<pid>/smaps_rollup: for one Node process its VmRSS, for Postgres its shared buffers once; sampled every " +
      "50 ms while any of the level's streams is open) at its highest, minus the same just before the level, divided " +
      "by the level's streams: it counts the runs' work (the agent, its checkpoints, the run's events), not only " +
      "the sockets, and a garbage collector's timing moves it by hundreds of KB. Server CPU per run is the user + " +
      "system time of the server's process tree (from /proc/<pid>/stat) over the level's wall time, divided by the " +
      "completed runs: unlike the wall-clock figures it hardly grows when other work shares the cores. Every server " +
      "shares the machine's cores with the benchmark and the mock model.",
    goals: [],
    tables: [runs, rest],
    notes: [
      ...failureNotes(results),
      `Measured on ${started.toISOString().slice(0, 16).replace("T", " ")} UTC at commit ${commit()}.`,
      `Load average (1 min) before and after: ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)} on this machine's ` +
        "cores: above the core count, other work shared them and every wall-clock figure grows.",
    ],
  };
  saveBenchResult(bench);
  if (process.argv.includes("--page")) writeSectionIntoPage(bench);
  if (results.some((result) => result.startError)) process.exitCode = 1;
}

await main();
