// Prints one closing line over every test report of `npm test`: "tests: N passed, N failed, N skipped".
import { existsSync, readFileSync } from "node:fs";

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

function vitestCounts(path: string): Counts {
  const report = JSON.parse(readFileSync(path, "utf8")) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
  };
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
  for (const test of flakyTests(report.suites ?? [])) console.log(`flaky (passed on its retry): ${test}`);
  return { passed: expected + flaky, failed: unexpected, skipped };
}

/** scripts/mcp-conformance.ts: scenarios that pass, fail against the baseline, and fail as the baseline expects. */
function conformanceCounts(path: string): Counts {
  const report = JSON.parse(readFileSync(path, "utf8")) as { passed: number; failed: number; expectedFailures: number };
  return { passed: report.passed, failed: report.failed, skipped: report.expectedFailures };
}

/** test/storage-browser/run.ts: the storage contract's checks in Chromium's IndexedDB. */
function storageBrowserCounts(path: string): Counts {
  const report = JSON.parse(readFileSync(path, "utf8")) as { passed: number; failed: number };
  return { passed: report.passed, failed: report.failed, skipped: 0 };
}

const reports: [string, (path: string) => Counts][] = [
  ["reports/unit.json", vitestCounts],
  ["reports/storage-memory.json", vitestCounts],
  ["reports/storage-browser.json", storageBrowserCounts],
  ["reports/server.json", vitestCounts],
  ["reports/mcp-conformance.json", conformanceCounts],
  ["reports/build.json", vitestCounts],
  ["reports/e2e.json", playwrightCounts],
];

const total: Counts = { passed: 0, failed: 0, skipped: 0 };
for (const [path, read] of reports) {
  if (!existsSync(path)) {
    console.error(`Missing test report ${path}: that suite did not run.`);
    process.exit(1);
  }
  const counts = read(path);
  console.log(`${path}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
}
console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
if (total.failed > 0 || total.passed === 0) process.exit(1);
