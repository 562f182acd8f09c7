// Sandbox latency: a trivial command and a 1 MB file write (both including the write-through to IndexedDB) in the
// browser sandbox, and Pyodide's cold and warm start. Runs under Node: just-bash and Pyodide are the real ones,
// IndexedDB is fake-indexeddb, Pyodide runs in a worker thread as it does in a Web Worker in the app.
// The Pyodide figures are the un-isolated, in-process reference (no frame, no opaque-origin worker, no browser);
// bench/python-frame.ts measures python3 in the built app in Chromium (npm run bench:sandbox runs both). Prints
// numbers only, saved as the "sandbox" result; nothing here is a timed assertion (docs/architecture.md#d10-tests).
import "fake-indexeddb/auto";
import { BrowserSandbox } from "../src/sandbox/browser/browser-sandbox.ts";
import { IndexedDbThreadFileStore } from "../src/sandbox/indexed-db-thread-file-store.ts";
import { openFawnDb, ThreadFiles } from "../src/storage/index.ts";
import { measurePythonStartup } from "../test/support/node-python-runner.ts";
import { median, saveBenchResult } from "./report.ts";

const RUNS = 100;

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

const operations: (string | number)[][] = [];

/** Times `operation` `runs` times; returns the median. */
async function measure(label: string, runs: number, operation: (i: number) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await operation(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  operations.push([label, runs, percentile(times, 50).toFixed(2), percentile(times, 95).toFixed(2)]);
  return percentile(times, 50);
}

const files = new IndexedDbThreadFileStore(new ThreadFiles(await openFawnDb("bench-sandbox")));
const sandbox = await BrowserSandbox.open({ threadId: "bench", files });
// Some files already in the thread, as in a real one.
for (let i = 0; i < 50; i++) await sandbox.writeFile(`/mnt/user-data/workspace/notes/note-${i}.md`, `# Note ${i}\n`);

const megabyte = new Uint8Array(1024 * 1024).map((_, i) => (i * 31) % 251);

const echoMs = await measure("`echo hi` (BrowserSandbox, incl. write-through check)", RUNS, () =>
  sandbox.run("echo hi"),
);
await measure("write a 1 MB file (file API, incl. IndexedDB)", 20, (i) =>
  sandbox.writeFile(`/mnt/user-data/outputs/blob-${i}.bin`, megabyte),
);
await measure("`cp` of a 1 MB file in bash (incl. IndexedDB)", 20, (i) =>
  sandbox.run(`cp /mnt/user-data/outputs/blob-0.bin /mnt/user-data/outputs/copy-${i}.bin`),
);
await sandbox.dispose();

const pyodide: (string | number)[][] = [];
const colds: number[] = [];
const warms: number[] = [];
for (let i = 1; i <= 3; i++) {
  const { coldMs, warmMs } = await measurePythonStartup();
  colds.push(coldMs);
  warms.push(warmMs);
  pyodide.push([i, coldMs.toFixed(0), warmMs.toFixed(1)]);
}

saveBenchResult({
  name: "sandbox",
  title: "Sandbox operations (Node reference)",
  command: "npm run bench:sandbox",
  about:
    "bench/sandbox.ts under Node: a trivial command and 1 MB file writes in the browser sandbox (just-bash, " +
    "including the write-through to IndexedDB, here fake-indexeddb), and Pyodide's start in a Node worker thread " +
    "with the same core as the app's python worker: the un-isolated, in-process reference for the Python start " +
    'figures measured in Chromium (bench/python-frame.ts, the "python" result).',
  goals: [
    {
      measure: "`echo hi` in the browser sandbox, median",
      goal: "none (reported)",
      figure: `${echoMs.toFixed(2)} ms`,
      met: undefined,
    },
    {
      measure: "Pyodide in a Node worker thread, cold start to print(1), median of 3",
      goal: "none (reference for python3 in Chromium)",
      figure: `${(median(colds) ?? Number.NaN).toFixed(0)} ms`,
      met: undefined,
    },
  ],
  tables: [
    { title: "Browser sandbox under Node", columns: ["operation", "runs", "median ms", "p95 ms"], rows: operations },
    {
      title: "Pyodide (python3) in Node, a worker thread: the un-isolated reference",
      columns: ["start", "cold ms (new worker, Pyodide loads, print(1))", "warm ms (same worker, print(1))"],
      rows: pyodide,
    },
  ],
  notes: [`Warm print(1) in the Node worker thread: median ${(median(warms) ?? Number.NaN).toFixed(1)} ms.`],
});
