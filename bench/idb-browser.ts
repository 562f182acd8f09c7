// Milliseconds and bytes per agent step written into Chromium's real IndexedDB: builds the small page in
// bench/idb-browser/ (its own vite config, into a temporary folder; no build of the app), serves it on BENCH_APP_PORT,
// and runs it in /usr/bin/chromium. Prints numbers only; nothing here is a timed assertion
// (docs/architecture.md#d10-tests).
import { chromium } from "@playwright/test";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { build, preview } from "vite";
import type { IdbBenchOptions, IdbBenchResult, Timing } from "./idb-browser/main.ts";
import { saveBenchResult, type BenchGoal } from "./report.ts";

const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
// Its own port, apart from the other benchmarks and the e2e tests.
const PORT = Number(process.env.BENCH_APP_PORT ?? 4184);
const OPTIONS: IdbBenchOptions = {
  samples: (process.env.BENCH_IDB_STEPS ?? "100,1000,2000,5000").split(",").map(Number),
  window: 50,
  anchorPuts: 20,
};
const configFile = fileURLToPath(new URL("idb-browser/vite.config.ts", import.meta.url));

await build({ configFile });
const server = await preview({ configFile, preview: { host: "127.0.0.1", port: PORT, strictPort: true } });
let result: IdbBenchResult;
try {
  const browser = await chromium.launch({ executablePath: CHROME });
  try {
    const page = await browser.newPage();
    page.on("console", (message) => console.log(`  page: ${message.text()}`));
    await page.goto(`http://127.0.0.1:${PORT}/`);
    await page.waitForFunction(() => typeof window.fawnIdbBench === "function");
    result = await page.evaluate((options) => window.fawnIdbBench(options), OPTIONS);
  } finally {
    await browser.close();
  }
} finally {
  await server.close();
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const timingText = (value: Timing) => `${value.median.toFixed(2)} / ${value.p95.toFixed(2)}`;
const bytesText = (value: number) => `${Math.round(value).toLocaleString("en-US")} bytes`;
const first = result.fawn[0];
const last = result.fawn.at(-1);
const naiveFirst = result.naive[0];
const naiveLast = result.naive.at(-1);
if (!first || !last || !naiveFirst || !naiveLast) throw new Error("the page returned no figures");
const stepText = last.step.toLocaleString("en-US");
const growth = last.step_ms.median / first.step_ms.median;
const bytesGrowth = last.bytes / first.bytes;

const goals: BenchGoal[] = [
  {
    measure: `Time per agent step at step ${stepText} in Chromium (median; checkpoint, pending writes, run record)`,
    goal: `flat (≤ 1.5× step ${first.step})`,
    figure: `${ms(last.step_ms.median)} (${growth.toFixed(2)}× step ${first.step}; p95 ${ms(last.step_ms.p95)})`,
    met: growth <= 1.5,
    anchor: `${ms(naiveLast.put_ms.median)} for the checkpoint alone, ${(naiveLast.put_ms.median / naiveFirst.put_ms.median).toFixed(1)}× step ${naiveFirst.step} (whole checkpoint per step, MemorySaver's serde, one store)`,
  },
  {
    measure: `Bytes written per agent step at step ${stepText}`,
    goal: `flat (≤ 1.5× step ${first.step})`,
    figure: `${bytesText(last.bytes)} (${bytesGrowth.toFixed(2)}× step ${first.step})`,
    met: bytesGrowth <= 1.5,
    anchor: `${bytesText(naiveLast.bytes)} (whole checkpoint per step)`,
  },
];

saveBenchResult({
  name: "idb-browser",
  title: "IndexedDB writes per agent step in Chromium",
  command: "npm run bench:idb",
  about: [
    `One agent thread grows by one message per step (a question, a tool call, the tool's result, an answer, repeated)`,
    `up to step ${stepText}, written into Chromium's real IndexedDB (headless /usr/bin/chromium) as a Fawn run writes`,
    `each step: the task's pending writes and the checkpoint through \`IndexedDbCheckpointSaver\`, then the run record's`,
    `new \`end\` (the newest checkpoint's id, read back, then the run record put), as \`RunService\` does at every saved`,
    `step (after a throwaway thread of 300 steps has warmed the JIT up). Times are wall-clock in the page (IndexedDB's own threads included), median and p95 over the`,
    `${OPTIONS.window} steps up to step N; bytes are the serialized payloads written (keys and IndexedDB's overhead not`,
    `counted). "Read" is opening the thread: a new saver reads the newest checkpoint back (median of 3). The anchor, in the same run, is`,
    `a naive saver: the whole checkpoint with its channel values, serialized by LangGraph's MemorySaver serde, put as one`,
    `record per step into one store (serializing included); its cost depends on the checkpoint's size only, so it writes`,
    `the ${OPTIONS.anchorPuts} checkpoints up to each step N. The page is built by \`bench/idb-browser/vite.config.ts\``,
    `into a temporary folder and served on BENCH_APP_PORT.`,
  ].join(" "),
  goals,
  tables: [
    {
      title: "Fawn, per agent step (ms: median / p95)",
      columns: ["step", "whole step (ms)", "checkpoint put (ms)", "bytes/step", "read newest checkpoint (ms)"],
      rows: result.fawn.map((row) => [
        row.step,
        timingText(row.step_ms),
        timingText(row.put_ms),
        Math.round(row.bytes),
        row.read_ms.toFixed(0),
      ]),
    },
    {
      title: "Anchor: whole checkpoint per step into one store (ms: median / p95)",
      columns: ["step", "checkpoint put (ms)", "bytes/step"],
      rows: result.naive.map((row) => [row.step, timingText(row.put_ms), Math.round(row.bytes)]),
    },
  ],
  notes: [
    ...(result.usage_per_step !== undefined
      ? [
          `Chromium's own storage estimate grew by ${bytesText(result.usage_per_step)} per step over the whole thread (navigator.storage.estimate(): on-disk files, coarse).`,
        ]
      : []),
    `Browser: ${result.user_agent}.`,
    `Figures are noisy on a shared machine; load average (1/5/15 min) at the end of this run: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")}.`,
  ],
});
