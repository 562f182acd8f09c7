// Prints what `npm test` ran, read from every suite's report, each kind apart so no figure hides another: Fawn's own
// tests, third-party suites run against Fawn (LangGraph's checkpoint validation, MCP's conformance runner), the scripted
// model's own tests, expected failures and skips. Ends with one line, "tests: N passed, N failed, N skipped (…)".
// A suite whose report is missing, or that could not run, says "not run" and fails the summary: never "0 passed".
import { existsSync, readFileSync } from "node:fs";

type Kind = "own" | "checkpointValidation" | "mockModel";

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

const empty = (): Counts => ({ passed: 0, failed: 0, skipped: 0 });

function add(into: Counts, from: Counts): void {
  into.passed += from.passed;
  into.failed += from.failed;
  into.skipped += from.skipped;
}

interface VitestReport {
  testResults: {
    name: string;
    assertionResults: { ancestorTitles: string[]; status: string }[];
  }[];
}

/**
 * LangGraph's checkpoint validation (@langchain/langgraph-checkpoint-validation) names its blocks
 * "<saver>" › "<saver>#put" (#putWrites, #getTuple, #list, #deleteThread).
 */
function isCheckpointValidation(ancestors: string[]): boolean {
  return ancestors.some((title, index) => {
    const match = /^(.+)#(put|putWrites|getTuple|list|deleteThread)$/.exec(title);
    return match !== null && index > 0 && ancestors[index - 1] === match[1];
  });
}

function vitestKinds(path: string): Record<Kind, Counts> {
  const report = JSON.parse(readFileSync(path, "utf8")) as VitestReport;
  const kinds: Record<Kind, Counts> = { own: empty(), checkpointValidation: empty(), mockModel: empty() };
  for (const file of report.testResults) {
    const mockModel = /[\\/]test[\\/]mock-llm[\\/]/.test(file.name);
    for (const test of file.assertionResults) {
      const kind: Kind = mockModel
        ? "mockModel"
        : isCheckpointValidation(test.ancestorTitles)
          ? "checkpointValidation"
          : "own";
      if (test.status === "passed") kinds[kind].passed++;
      else if (test.status === "failed") kinds[kind].failed++;
      else kinds[kind].skipped++;
    }
    // A file that failed to load has no assertion results but a failed status.
    if (file.assertionResults.length === 0 && (file as { status?: string }).status === "failed") kinds.own.failed++;
  }
  return kinds;
}

interface PlaywrightSuite {
  title: string;
  file?: string;
  specs?: { title: string; line: number; tests: { status: string }[] }[];
  suites?: PlaywrightSuite[];
}

/** "file:line › title" of every test that failed first and passed on its retry. */
function flakyTests(suites: PlaywrightSuite[], file = ""): string[] {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests.some((test) => test.status === "flaky") ? [`${suite.file ?? file}:${spec.line} › ${spec.title}`] : [],
    ),
    ...flakyTests(suite.suites ?? [], suite.file ?? file),
  ]);
}

function playwrightCounts(path: string): Counts {
  const report = JSON.parse(readFileSync(path, "utf8")) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    suites?: PlaywrightSuite[];
  };
  const { expected, unexpected, flaky, skipped } = report.stats;
  for (const test of flakyTests(report.suites ?? [])) console.log(`  flaky (passed on its retry): ${test}`);
  return { passed: expected + flaky, failed: unexpected, skipped };
}

const own = empty();
const checkpointValidation = empty();
const mockModel = empty();
let conformance: { passed: number; failed: number; expectedFailures: number } | undefined;
const notRun: string[] = [];

function line(label: string, counts: Counts): void {
  const skipped = counts.skipped ? `, ${counts.skipped} skipped` : "";
  console.log(`  ${label.padEnd(44)} ${counts.passed} passed, ${counts.failed} failed${skipped}`);
}

function readReport<T>(label: string, path: string, read: (path: string) => T): T | undefined {
  if (existsSync(path)) return read(path);
  notRun.push(label);
  console.log(`  ${label.padEnd(44)} not run (no ${path})`);
  return undefined;
}

console.log("Fawn's own tests:");
const vitestSuites: [string, string][] = [
  ["unit and integration (vitest)", "reports/unit.json"],
  ["storage contract, in memory (vitest)", "reports/storage-memory.json"],
  ["server over Postgres and PGlite (vitest)", "reports/server.json"],
  ["build checks (vitest)", "reports/build.json"],
];
const vitestKindsBySuite: [string, Record<Kind, Counts>][] = [];
for (const [label, path] of vitestSuites) {
  const kinds = readReport(label, path, vitestKinds);
  if (!kinds) continue;
  vitestKindsBySuite.push([label, kinds]);
  line(label, kinds.own);
  add(own, kinds.own);
  add(checkpointValidation, kinds.checkpointValidation);
  add(mockModel, kinds.mockModel);
}
const browserStorage = readReport("storage contract, Chromium's IndexedDB", "reports/storage-browser.json", (path) => {
  const report = JSON.parse(readFileSync(path, "utf8")) as { passed: number; failed: number };
  return { passed: report.passed, failed: report.failed, skipped: 0 };
});
if (browserStorage) {
  line("storage contract, Chromium's IndexedDB", browserStorage);
  add(own, browserStorage);
}
const e2e = readReport("end to end in Chromium (Playwright)", "reports/e2e.json", playwrightCounts);
if (e2e) {
  line("end to end in Chromium (Playwright)", e2e);
  add(own, e2e);
}
line("all of Fawn's own", own);

console.log("Third-party suites run against Fawn:");
line("LangGraph's checkpoint validation", checkpointValidation);
for (const [label, kinds] of vitestKindsBySuite) {
  if (kinds.checkpointValidation.passed + kinds.checkpointValidation.failed > 0)
    console.log(
      `    in ${label}: ${kinds.checkpointValidation.passed} passed, ${kinds.checkpointValidation.failed} failed`,
    );
}
const conformanceReport = readReport("MCP conformance, client scenarios", "reports/mcp-conformance.json", (path) => {
  return JSON.parse(readFileSync(path, "utf8")) as {
    skipped?: boolean;
    passed: number;
    failed: number;
    expectedFailures: number;
  };
});
if (conformanceReport?.skipped) {
  notRun.push("MCP conformance, client scenarios");
  console.log(`  ${"MCP conformance, client scenarios".padEnd(44)} not run (no Node ≥ 22 for its runner)`);
} else if (conformanceReport) {
  conformance = conformanceReport;
  console.log(
    `  ${"MCP conformance, client scenarios".padEnd(44)} ${conformance.passed} passed, ${conformance.failed} failed, ` +
      `${conformance.expectedFailures} expected failures (features Fawn does not claim: test/mcp/conformance-baseline.yml)`,
  );
}

console.log("The scripted model's own tests (test/mock-llm):");
line("mock model", mockModel);

const total = empty();
for (const counts of [own, checkpointValidation, mockModel]) add(total, counts);
if (conformance) add(total, { passed: conformance.passed, failed: conformance.failed, skipped: 0 });
const thirdParty = checkpointValidation.passed + (conformance?.passed ?? 0);
const expected = conformance?.expectedFailures ?? 0;
const notRunText = notRun.length ? `; not run: ${notRun.join(", ")}` : "";
console.log(
  `tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped ` +
    `(Fawn's own ${own.passed}, third-party suites against Fawn ${thirdParty}, scripted model ${mockModel.passed}; ` +
    `${expected} expected failures${notRunText})`,
);
if (total.failed > 0 || own.passed === 0 || notRun.length > 0) process.exit(1);
