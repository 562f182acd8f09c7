// `npm run bench`: builds the app once, runs every benchmark one after another (each hands its figures to
// reports/bench/ through bench/report.ts) and writes docs/performance.md from them, with the machine and the date.
// `npm run bench -- --only stream,threads` runs some (the others' last results stay); `--report` only writes the page.
// Benchmarks that compare with the app before a change serve a build of that commit too: BASE_COMMIT below, or
// `--base <commit>`, built once into reports/bench-base/<commit>/ and handed to them as BENCH_BASE_DIST (with
// BENCH_BASE_COMMIT); `--base none` skips it.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, loadavg, release, totalmem } from "node:os";
import { join } from "node:path";
import { BENCH_RESULTS_DIR, markdownTable, type BenchResult } from "../bench/report.ts";

interface Bench {
  /** What `--only` names. */
  id: string;
  /** The command, run from the repository's root with its node_modules/.bin on the PATH. */
  command: string[];
  /** Whether it reads the built app in dist/. */
  usesBuild: boolean;
}

/** Every benchmark, in the order the page shows them. */
const BENCHES: Bench[] = [
  { id: "load", command: ["tsx", "bench/app-load.ts"], usesBuild: true },
  { id: "install", command: ["tsx", "bench/precache.ts"], usesBuild: true },
  { id: "lighthouse", command: ["tsx", "bench/lighthouse.ts"], usesBuild: true },
  { id: "stream", command: ["tsx", "bench/stream-render.ts"], usesBuild: true },
  { id: "long-thread", command: ["tsx", "bench/long-thread.ts"], usesBuild: true },
  { id: "threads", command: ["tsx", "bench/thread-list.ts"], usesBuild: true },
  { id: "python", command: ["tsx", "bench/python-frame.ts"], usesBuild: true },
  { id: "sandbox", command: ["tsx", "bench/sandbox.ts"], usesBuild: false },
  { id: "checkpoint", command: ["tsx", "bench/checkpoint.ts"], usesBuild: false },
  { id: "idb", command: ["tsx", "bench/idb-browser.ts"], usesBuild: false },
  { id: "on-device", command: ["tsx", "bench/on-device.ts"], usesBuild: false },
  {
    id: "bundle",
    command: ["vitest", "run", "--config", "vitest.bench.config.ts", "bench/bundle.bench-run.ts"],
    usesBuild: false,
  },
  { id: "server", command: ["tsx", "bench/server.ts"], usesBuild: false },
];

/** Sections in this order; results of other names follow, by name. */
const ORDER = [
  "load",
  "install",
  "lighthouse",
  "stream",
  "long-thread",
  "threads",
  "python",
  "sandbox",
  "checkpoint",
  "idb-browser",
  "bundle",
  "server",
  "on-device",
];
/**
 * Results saved for trying a change (BENCH_STREAM_FAWN_ONLY, BENCH_APP_URL): printed and kept apart, never in the
 * page (one of them once put a second "Streaming a reply" at its end).
 */
const TRIAL_RESULT = /-(?:fawn-only|other-build)\.json$/;
const DOC = join(process.cwd(), "docs", "performance.md");
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
/** A benchmark that runs longer than this is stopped and reported as failed. */
const BENCH_TIMEOUT_MS = 20 * 60_000;

const args = process.argv.slice(2);
const onlyAt = args.findIndex((arg) => arg === "--only" || arg.startsWith("--only="));
const only = onlyAt < 0 ? undefined : args[onlyAt]!.includes("=") ? args[onlyAt]!.split("=")[1] : args[onlyAt + 1];
const reportOnly = args.includes("--report");
/** The app before the current round of performance work (issue 34), the anchor of the benchmarks that compare. */
const BASE_COMMIT = "9f9d383";
const baseAt = args.indexOf("--base");
const baseCommit = baseAt < 0 ? BASE_COMMIT : args[baseAt + 1];
if (baseAt >= 0 && (!baseCommit || baseCommit.startsWith("--"))) {
  throw new Error("--base needs a commit (or none): npm run bench -- --base 9f9d383");
}
const chosen = only ? BENCHES.filter((bench) => only.split(",").includes(bench.id)) : BENCHES;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PATH: `${join(process.cwd(), "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
};

/**
 * Builds `commit` once into reports/bench-base/<commit>/dist (a detached worktree sharing this checkout's
 * node_modules) and returns that directory, or undefined (with the reason printed) when it cannot.
 */
function baseBuild(commit: string): string | undefined {
  const root = join(process.cwd(), "reports", "bench-base", commit);
  const dist = join(root, "dist");
  if (existsSync(join(dist, "index.html"))) return dist;
  const tree = join(root, "tree");
  try {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    execFileSync("git", ["worktree", "add", "--detach", "--force", tree, commit], { stdio: "ignore" });
    symlinkSync(join(process.cwd(), "node_modules"), join(tree, "node_modules"));
    console.log(`\n== vite build of ${commit} (the anchor: the app before this round)`);
    execFileSync(join(process.cwd(), "node_modules", ".bin", "vite"), ["build", "--outDir", dist, "--emptyOutDir"], {
      cwd: tree,
      stdio: "inherit",
    });
    return dist;
  } catch (error) {
    console.log(`No build of ${commit} for the anchors: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  } finally {
    if (existsSync(tree)) execFileSync("git", ["worktree", "remove", "--force", tree], { stdio: "ignore" });
  }
}

function run(command: string[], timeout?: number): { ok: boolean; status: string } {
  const [file, ...rest] = command;
  const result = spawnSync(file!, rest, { stdio: "inherit", env, timeout });
  if (result.error) return { ok: false, status: result.error.message };
  return { ok: result.status === 0, status: result.signal ? `stopped (${result.signal})` : `exit ${result.status}` };
}

const failures: { id: string; status: string }[] = [];
const loadBefore = loadavg();
const started = new Date();
if (!reportOnly) {
  // A full run starts from nothing, so the page shows only this run's figures.
  if (chosen === BENCHES) rmSync(BENCH_RESULTS_DIR, { recursive: true, force: true });
  mkdirSync(BENCH_RESULTS_DIR, { recursive: true });
  if (chosen.some((bench) => bench.usesBuild)) {
    console.log("\n== vite build (once for every benchmark)");
    if (!run(["vite", "build"]).ok) throw new Error("vite build failed: no benchmark ran.");
    const baseDist = baseCommit && baseCommit !== "none" ? baseBuild(baseCommit) : undefined;
    if (baseDist) Object.assign(env, { BENCH_BASE_DIST: baseDist, BENCH_BASE_COMMIT: baseCommit });
  }
  for (const bench of chosen) {
    console.log(`\n== ${bench.id}: ${bench.command.join(" ")}`);
    const result = run(bench.command, BENCH_TIMEOUT_MS);
    if (!result.ok) failures.push({ id: bench.id, status: result.status });
  }
}
const loadAfter = loadavg();

function readResults(): BenchResult[] {
  if (!existsSync(BENCH_RESULTS_DIR)) return [];
  const results = readdirSync(BENCH_RESULTS_DIR)
    .filter((file) => file.endsWith(".json") && !TRIAL_RESULT.test(file))
    .map((file) => JSON.parse(readFileSync(join(BENCH_RESULTS_DIR, file), "utf8")) as BenchResult);
  const rank = (name: string) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length);
  return results.sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

function chromiumVersion(): string {
  try {
    return execFileSync(CHROME, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "not found";
  }
}

function commit(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    // The page itself does not count: a run rewrites it.
    const dirty =
      execFileSync("git", ["status", "--porcelain", "--", ".", ":!docs/performance.md"], { encoding: "utf8" }).trim()
        .length > 0;
    return dirty ? `${head} with uncommitted changes` : head;
  } catch {
    return "unknown";
  }
}

const verdict = (met: boolean | undefined) => (met === undefined ? "?" : met ? "✓ met" : "✗ not met");
const results = readResults();
const cpu = cpus();
const lines: string[] = [
  "# Performance",
  "",
  `Written by \`npm run bench\` on ${started.toISOString().slice(0, 10)} (${started.toISOString().slice(11, 16)} UTC), ` +
    `at commit ${commit()}. Do not edit it by hand: run \`npm run bench\` again. Each section's text comes from its ` +
    "benchmark in `bench/`. Numbers only: nothing here is a timed assertion (docs/architecture.md#d10-tests).",
  "",
  "## The machine",
  "",
  "| item | value |",
  "| --- | --- |",
  `| CPU | ${cpu[0]?.model ?? "unknown"}, ${cpu.length} cores |`,
  `| memory | ${(totalmem() / 2 ** 30).toFixed(0)} GiB |`,
  `| system | Linux ${release()} |`,
  `| Node.js | ${process.version} |`,
  `| Chromium | ${chromiumVersion()} (headless, software rendering) |`,
  `| load average (1 min) before and after | ${loadBefore[0]?.toFixed(2)} → ${loadAfter[0]?.toFixed(2)} |`,
  "",
  "A load average above the core count means other work shared the cores: wall-clock figures then grow, CPU-time " +
    "figures much less.",
  "",
  "## Goals",
  "",
  "| benchmark | measure | goal | Fawn | anchor, same run | |",
  "| --- | --- | --- | --- | --- | --- |",
  ...results.flatMap((result) =>
    result.goals.map(
      (goal) =>
        `| [${result.title}](#${result.name}) | ${goal.measure} | ${goal.goal} | ${goal.figure} | ${goal.anchor ?? "—"} | ${verdict(goal.met)} |`,
    ),
  ),
  "",
];
for (const result of results) {
  lines.push(`<a id="${result.name}"></a>`, "", `## ${result.title}`, "", `Run alone: \`${result.command}\`.`, "");
  lines.push(result.about, "");
  if (result.goals.length > 0) {
    lines.push(
      markdownTable({
        title: "Goals",
        columns: ["measure", "goal", "Fawn", "anchor", ""],
        rows: result.goals.map((goal) => [goal.measure, goal.goal, goal.figure, goal.anchor ?? "—", verdict(goal.met)]),
      }),
      "",
    );
  }
  for (const table of result.tables) lines.push(markdownTable(table), "");
  if (result.notes?.length) lines.push(...result.notes.map((note) => `- ${note}`), "");
}
if (failures.length > 0) {
  lines.push("## Benchmarks that failed in this run", "");
  for (const failure of failures) lines.push(`- \`${failure.id}\`: ${failure.status}`);
  lines.push("");
}
writeFileSync(DOC, `${lines.join("\n").trimEnd()}\n`);
execFileSync(join("node_modules", ".bin", "prettier"), ["--write", DOC], { stdio: "ignore" });
console.log(
  `\nWrote ${DOC} from ${results.length} results${failures.length ? `; ${failures.length} benchmarks failed` : ""}.`,
);
if (failures.length > 0) process.exitCode = 1;
