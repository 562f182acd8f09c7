// `npm run reliability`: every reliability suite at its full size (FAWN_RELIABILITY=full), then docs/reliability.md:
// for each suite the cases run, survived, lost (the goal: 0) and the longest recovery, summed from the lines each
// case appends to reports/reliability/<suite>.jsonl (test/support/reliability.ts). `npm test` runs the same files with
// a quick subset. A suite whose command fails or records no case says so ("failed", "not run"), never "0 lost".
// `--only crash-browser,tabs` runs some suites; `--no-write` leaves docs/reliability.md alone. `--collect DIR,DIR…`
// runs nothing: it renders docs/reliability.md from the full runs other checkouts recorded (DIR/reports/reliability/),
// each suite with the commit it ran at.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus } from "node:os";
import { resolve } from "node:path";
import { RELIABILITY_SUITES, type ReliabilityCase, type ReliabilitySuite } from "../test/support/reliability.ts";

interface SuiteRun {
  suite: ReliabilitySuite;
  /** The test files that run it; the command is chosen by where they live. */
  files: string[];
  /** vitest (unit config), vitest-server (server config) or playwright (needs the build). */
  runner: "vitest" | "vitest-server" | "playwright";
}

const RUNS: SuiteRun[] = [
  { suite: "crash-browser", files: ["test/e2e/crash.spec.ts"], runner: "playwright" },
  { suite: "crash-server", files: ["test/server/crash.test.ts"], runner: "vitest-server" },
  { suite: "model-faults", files: ["test/integration/model-faults.test.ts"], runner: "vitest" },
  { suite: "wire-formats", files: ["test/integration/provider-wire-formats.test.ts"], runner: "vitest" },
  { suite: "storage", files: ["test/e2e/storage-faults.spec.ts"], runner: "playwright" },
  { suite: "fuzz-uploads", files: ["test/integration/fuzz-uploads.test.ts"], runner: "vitest" },
  { suite: "fuzz-skills", files: ["test/integration/fuzz-skills.test.ts"], runner: "vitest" },
  { suite: "fuzz-deerflow", files: ["test/integration/fuzz-deerflow.test.ts"], runner: "vitest" },
  { suite: "fuzz-share-links", files: ["test/integration/fuzz-share-links.test.ts"], runner: "vitest" },
  { suite: "fuzz-server-requests", files: ["test/server/fuzz-requests.test.ts"], runner: "vitest-server" },
  { suite: "tabs", files: ["test/e2e/tabs-chaos.spec.ts"], runner: "playwright" },
];

const DIR = resolve("reports/reliability");
const DOC = resolve("docs/reliability.md");

interface Outcome {
  suite: ReliabilitySuite;
  files: string[];
  status: "ran" | "failed" | "not run";
  cases: ReliabilityCase[];
  seconds: number;
  /** The commit the suite ran at. */
  commit: string;
}

function args(): { only?: Set<string>; write: boolean; collect?: string[] } {
  const argv = process.argv.slice(2);
  const list = (flag: string) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? (argv[at + 1] ?? "").split(",").filter(Boolean) : undefined;
  };
  const only = list("--only");
  return { only: only && new Set(only), write: !argv.includes("--no-write"), collect: list("--collect") };
}

function command(run: SuiteRun): [string, string[]] {
  switch (run.runner) {
    case "vitest":
      return ["npx", ["vitest", "run", ...run.files]];
    case "vitest-server":
      return ["npx", ["vitest", "run", "--config", "vitest.server.config.ts", ...run.files]];
    case "playwright":
      return ["npx", ["playwright", "test", ...run.files, "--retries", "0", "--reporter", "list"]];
  }
}

function readCases(suite: ReliabilitySuite, dir = DIR): ReliabilityCase[] {
  const path = resolve(dir, `${suite}.jsonl`);
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as ReliabilityCase);
}

function run(selected: SuiteRun[]): Outcome[] {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const env = { ...process.env, FAWN_RELIABILITY: "full", FAWN_RELIABILITY_DIR: DIR, CI: process.env.CI ?? "true" };
  if (selected.some((entry) => entry.runner === "playwright") && !process.env.E2E_DIST) {
    console.log("reliability: building the app once for the browser suites…");
    const built = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit", env });
    if (built.status !== 0) throw new Error("vite build failed: the browser suites cannot run");
  }
  return selected.map((entry) => {
    const present = entry.files.filter((file) => existsSync(file));
    if (present.length === 0) {
      console.log(`reliability: ${entry.suite}: not run (no ${entry.files.join(", ")})`);
      return { suite: entry.suite, files: entry.files, status: "not run", cases: [], seconds: 0, commit: gitCommit() };
    }
    const [bin, argv] = command({ ...entry, files: present });
    console.log(`reliability: ${entry.suite}: ${bin} ${argv.join(" ")}`);
    const started = Date.now();
    const result = spawnSync(bin, argv, { stdio: "inherit", env });
    const seconds = (Date.now() - started) / 1000;
    const cases = readCases(entry.suite);
    const status = result.status !== 0 ? "failed" : cases.length === 0 ? "not run" : "ran";
    return { suite: entry.suite, files: present, status, cases, seconds, commit: gitCommit() };
  });
}

/** The suites' full runs recorded in other checkouts: the first of `dirs` holding a suite's cases gives them. */
function collect(selected: SuiteRun[], dirs: string[]): Outcome[] {
  return selected.map((entry) => {
    for (const dir of dirs) {
      const cases = readCases(entry.suite, resolve(dir, "reports/reliability"));
      if (cases.length === 0) continue;
      // A copy of a run kept outside its checkout names its commit in a COMMIT file beside the cases.
      const marker = resolve(dir, "reports/reliability/COMMIT");
      const commit = existsSync(marker) ? readFileSync(marker, "utf8").trim() : gitCommit(dir);
      return { suite: entry.suite, files: entry.files, status: "ran", cases, seconds: 0, commit };
    }
    return { suite: entry.suite, files: entry.files, status: "not run", cases: [], seconds: 0, commit: gitCommit() };
  });
}

function seconds(ms: number | undefined): string {
  if (ms === undefined) return "—";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function gitCommit(dir = "."): string {
  const result = spawnSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"], { encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim() : "unknown";
}

function render(outcomes: Outcome[]): string {
  const rows = outcomes.map((outcome) => {
    const survived = outcome.cases.filter((entry) => entry.survived).length;
    const lost = outcome.cases.reduce((sum, entry) => sum + entry.lost, 0);
    const recoveries = outcome.cases.map((entry) => entry.recoveryMs).filter((ms): ms is number => ms !== undefined);
    const longest = recoveries.length ? Math.max(...recoveries) : undefined;
    const counts =
      outcome.status === "not run"
        ? "not run | — | — | —"
        : `${outcome.cases.length} | ${survived} | ${lost} | ${seconds(longest)}`;
    const status = outcome.status === "failed" ? " (**failed**)" : "";
    const files = outcome.files.map((file) => `\`${file}\``).join(", ");
    const time = outcome.seconds ? `${Math.round(outcome.seconds)} s` : "—";
    return `| ${outcome.suite}${status} | ${RELIABILITY_SUITES[outcome.suite]} | ${counts} | ${time} | \`${outcome.commit}\` | ${files} |`;
  });
  const failures = outcomes.flatMap((outcome) =>
    outcome.cases
      .filter((entry) => !entry.survived)
      .map((entry) => `- ${outcome.suite}: ${entry.case}: ${entry.detail ?? "did not survive"}`),
  );
  const totalCases = outcomes.reduce((sum, outcome) => sum + outcome.cases.length, 0);
  const totalLost = outcomes.reduce((sum, outcome) => sum + outcome.cases.reduce((s, entry) => s + entry.lost, 0), 0);
  return [
    "# Reliability",
    "",
    "What happens to a user's work when things break at the worst moment, again and again: figures from Fawn's own",
    "suites, written by `npm run reliability` (every suite at its full size). `npm test` runs a quick subset of each.",
    "A case **survived** when, after the fault, nothing the user had saved is gone, nothing half-written shows, and the",
    "user can go on (the thread reopens at its last saved step and Continue finishes the turn; the run retries or ends",
    "with one sentence; bad input is refused whole with one sentence). **Lost** counts items gone (messages, files,",
    "records): the goal is 0. **Longest recovery** is the longest time from the fault to the user being able to go on.",
    "",
    `Written on ${new Date().toISOString().slice(0, 10)} (each suite's commit is in its row), ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? "unknown CPU"}): ${totalCases} cases, ${totalLost} lost.`,
    "",
    "| Suite | What breaks | Cases run | Survived | Lost | Longest recovery | Suite time | Commit | Tests |",
    "| ----- | ----------- | --------: | -------: | ---: | ---------------: | ---------: | ------ | ----- |",
    ...rows,
    "",
    "## Cases that did not survive",
    "",
    ...(failures.length ? failures : ["None."]),
    "",
    "## Replaying a case",
    "",
    "Each case names its seed. `FAWN_RELIABILITY=full FAWN_RELIABILITY_SEED=<seed>` with the suite's test file runs the",
    "same cut points again; `npm run reliability -- --only <suite>` runs one suite at full size.",
    "",
  ].join("\n");
}

const { only, write, collect: dirs } = args();
const selected = RUNS.filter((entry) => !only || only.has(entry.suite));
const outcomes = dirs ? collect(selected, dirs) : run(selected);
for (const outcome of outcomes) {
  const lost = outcome.cases.reduce((sum, entry) => sum + entry.lost, 0);
  console.log(
    `reliability: ${outcome.suite}: ${outcome.status}, ${outcome.cases.length} cases, ${lost} lost, ${outcome.seconds.toFixed(0)} s`,
  );
}
/** The hand-kept part of docs/reliability.md (what the suites found and what became of it), kept on each rewrite. */
const KEPT_HEADING = "## Found by these suites";
function kept(): string {
  const existing = existsSync(DOC) ? readFileSync(DOC, "utf8") : "";
  const at = existing.indexOf(KEPT_HEADING);
  return at >= 0 ? `\n${existing.slice(at)}` : "";
}
if (write && !only) writeFileSync(DOC, render(outcomes) + kept());
else if (write) {
  mkdirSync(DIR, { recursive: true });
  writeFileSync(resolve(DIR, "reliability.md"), render(outcomes));
}
const bad = outcomes.some((outcome) => outcome.status === "failed" || outcome.cases.some((entry) => !entry.survived));
process.exit(bad ? 1 : 0);
