// Lighthouse (its default, mobile preset) on the built app served by `vite preview`, in Chromium at /usr/bin/chromium,
// in two series: on the machine as it is ("quiet"), and while a second process keeps one core busy for the whole
// series ("busy core": this benchmark starts it, a Node child spinning a loop, pinned to no core, and stops it after).
// Each run's performance score, FCP, LCP, TBT and CLS, and from its trace the longest main-thread task after the first
// contentful paint (wall and CPU time); the accessibility, best-practices and SEO scores of the quiet series; the
// audits that did not pass. With BENCH_BASE_DIST (the app before this round, scripts/bench.ts) the same runs of that
// build on the next port, alternating with Fawn's, as the anchor. LIGHTHOUSE_REPORT_DIR=<dir> keeps each run's whole
// report there as JSON. Needs `npm run build` first (npm run bench builds once); prints numbers only.
// With Lighthouse 13.5+ (LIGHTHOUSE_MODULE=<its core/index.js>, e.g. from `npm i --prefix /tmp/lh lighthouse@13.5.0`;
// the project's own is 12, for Node 20) it also scores "Agentic Browsing", in Chromium with WebMCP on.
import * as chromeLauncher from "chrome-launcher";
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import type * as LighthouseModule from "lighthouse";
import { startPreview, type PreviewServer } from "../scripts/preview-server.ts";
import { median, saveBenchResult, type BenchGoal, type BenchTable } from "./report.ts";
import type { TraceEvent as ChromeTraceEvent } from "./chrome-trace.ts";

const { default: lighthouse, defaultConfig } = (await import(
  process.env.LIGHTHOUSE_MODULE ?? "lighthouse"
)) as typeof LighthouseModule;
/** Lighthouse 13.5's category for agents (llms.txt, ai-catalog.json, WebMCP tools); absent from Lighthouse 12. */
const AGENTIC = "agentic-browsing";
const agentic = Boolean(defaultConfig.categories?.[AGENTIC]);

const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
// Its own ports, apart from the other benchmarks and the e2e tests: Fawn's, and the next one for the anchor.
const PORT = Number(process.env.BENCH_APP_PORT ?? 4184);
const BASE_DIST = process.env.BENCH_BASE_DIST;
const BASE_COMMIT = process.env.BENCH_BASE_COMMIT ?? "the build in BENCH_BASE_DIST";
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
/** Which series to run: both by default; BENCH_LIGHTHOUSE_SERIES=quiet or busy for one. */
const SERIES_CHOSEN = process.env.BENCH_LIGHTHOUSE_SERIES ?? "quiet,busy";
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo", AGENTIC] as const;
type Category = (typeof CATEGORIES)[number];
const METRICS = [
  { id: "first-contentful-paint", label: "FCP", unit: "s" },
  { id: "largest-contentful-paint", label: "LCP", unit: "s" },
  { id: "total-blocking-time", label: "TBT", unit: "ms" },
  { id: "cumulative-layout-shift", label: "CLS", unit: "" },
] as const;
type MetricId = (typeof METRICS)[number]["id"];
const TBT_GOAL_MS = 50;
const LCP_GOAL_MS = 1500;

interface Run {
  scores: Partial<Record<Category, number>>;
  metrics: Record<MetricId, number>;
  /** The longest top-level task of the page's main thread that ended after the first contentful paint, ms. */
  longestTask: { wall: number; cpu: number };
  /** Audits that count towards a score and did not pass: "id: title". */
  failed: string[];
}

type TraceEvent = ChromeTraceEvent<{
  frame?: string;
  data?: { frames?: { frame: string; isOutermostMainFrame?: boolean }[] };
}>;

/**
 * The longest top-level main-thread task that ends after the first contentful paint: Lighthouse's simulated throttling
 * counts such a task (×4, the mobile preset's CPU) towards Total Blocking Time once it is over 50 ms simulated, so
 * over ~12.5 ms here. CPU time (the thread's own) tells a long task from one the machine's other work stretched.
 */
function longestTaskAfterFcp(events: TraceEvent[]): { wall: number; cpu: number } {
  const started = events.find((event) => event.name === "TracingStartedInBrowser");
  const mainFrame = started?.args?.data?.frames?.find((frame) => frame.isOutermostMainFrame)?.frame;
  const fcp = events.find(
    (event) => event.name === "firstContentfulPaint" && (!mainFrame || event.args?.frame === mainFrame),
  );
  if (!fcp) return { wall: Number.NaN, cpu: Number.NaN };
  let longest = { wall: 0, cpu: 0 };
  for (const event of events) {
    if (event.pid !== fcp.pid || event.tid !== fcp.tid || event.ph !== "X" || event.name !== "RunTask") continue;
    const dur = event.dur ?? 0;
    if (event.ts + dur < fcp.ts || dur / 1000 <= longest.wall) continue;
    longest = { wall: dur / 1000, cpu: (event.tdur ?? 0) / 1000 };
  }
  return longest;
}

/** One Lighthouse run in a fresh Chromium profile (so a first visit: no service worker, empty caches). */
async function run(url: string, categories: readonly Category[]): Promise<Run> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    // WebMCP on only where its audits are scored: the performance figures stay comparable with Lighthouse 12's.
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", ...(agentic ? ["--enable-features=WebMCP"] : [])],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: categories.filter((id) => id !== AGENTIC || agentic),
    });
    if (!result) throw new Error("Lighthouse returned no result");
    const { lhr } = result;
    // A failed trace (NO_NAVSTART, now and then on a loaded machine) scores 0: that run is made again.
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code}`);
    if (process.env.LIGHTHOUSE_REPORT_DIR) {
      writeFileSync(join(process.env.LIGHTHOUSE_REPORT_DIR, `lighthouse-${Date.now()}.json`), JSON.stringify(lhr));
    }
    const scores = Object.fromEntries(
      categories.map((id) => {
        const category = lhr.categories[id];
        return [id, category ? Math.round((category.score ?? 0) * 100) : Number.NaN];
      }),
    ) as Run["scores"];
    const metrics = Object.fromEntries(
      METRICS.map((metric) => [metric.id, lhr.audits[metric.id]?.numericValue ?? Number.NaN]),
    ) as Run["metrics"];
    const counted = new Set(categories.flatMap((id) => lhr.categories[id]?.auditRefs.map((ref) => ref.id) ?? []));
    const failed = Object.values(lhr.audits)
      .filter(
        (audit) =>
          counted.has(audit.id) &&
          audit.score !== null &&
          audit.score < 0.9 &&
          audit.scoreDisplayMode !== "informative" &&
          audit.scoreDisplayMode !== "notApplicable" &&
          audit.scoreDisplayMode !== "manual",
      )
      .map((audit) => `${audit.id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ""}`);
    const trace = (result.artifacts as unknown as { Trace?: { traceEvents: TraceEvent[] } }).Trace;
    const longestTask = trace ? longestTaskAfterFcp(trace.traceEvents) : { wall: Number.NaN, cpu: Number.NaN };
    return { scores, metrics, longestTask, failed };
  } finally {
    chrome.kill();
  }
}

/** A run, made again when Lighthouse fails (a few times at most). */
async function runWithRetries(label: string, url: string, categories: readonly Category[]): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await run(url, categories);
      console.log(`${label}: ${JSON.stringify(result)}`);
      return result;
    } catch (error) {
      console.error(`${label}: attempt ${attempt} failed${attempt < 3 ? ", trying again" : ""}: ${String(error)}`);
      if (attempt >= 3) throw error;
    }
  }
}

/**
 * A second process keeping one core busy: a Node child spinning a loop (the OS may move it between cores), until
 * stopped. The machine's load average then shows one more runnable process for the whole series.
 */
function busyCore(): { stop(): void } {
  const child: ChildProcess = spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
  return {
    stop: () => {
      child.kill("SIGKILL");
    },
  };
}

interface Series {
  id: "quiet" | "busy";
  title: string;
  fawn: Run[];
  base: Run[];
  load: number[];
}

const seriesList: Series[] = [];
const fawnPreview = await startPreview(PORT);
let basePreview: PreviewServer | undefined;
try {
  if (BASE_DIST) basePreview = await startPreview(PORT + 1, { outDir: BASE_DIST });
  for (const id of ["quiet", "busy"] as const) {
    if (!SERIES_CHOSEN.split(",").includes(id)) continue;
    const series: Series = {
      id,
      title: id === "quiet" ? "quiet machine" : "one core kept busy",
      fawn: [],
      base: [],
      load: [],
    };
    seriesList.push(series);
    const busy = id === "busy" ? busyCore() : undefined;
    try {
      // Fawn and the anchor alternate, so that both meet the same moments of the machine's load.
      for (let index = 1; index <= RUNS; index++) {
        series.fawn.push(
          await runWithRetries(
            `${id} run ${index} Fawn`,
            `${fawnPreview.url}/`,
            id === "quiet" ? CATEGORIES : ["performance"],
          ),
        );
        if (basePreview)
          series.base.push(await runWithRetries(`${id} run ${index} before`, `${basePreview.url}/`, ["performance"]));
        series.load.push(loadavg()[0]!);
      }
    } finally {
      busy?.stop();
    }
  }
} finally {
  fawnPreview.close();
  basePreview?.close();
}

const shown = (value: number, unit: string) =>
  Number.isNaN(value)
    ? "–"
    : unit === "s"
      ? `${(value / 1000).toFixed(2)} s`
      : unit === "ms"
        ? `${Math.round(value)} ms`
        : value.toFixed(3);
/** A category this Lighthouse does not have (Agentic Browsing before 13.5) is not measured, rather than 0. */
const scoreShown = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? "n/a" : value);
const scoresOf = (runs: Run[]) => runs.map((entry) => entry.scores.performance ?? Number.NaN);
const tbtsOf = (runs: Run[]) => runs.map((entry) => entry.metrics["total-blocking-time"]);
const listed = (values: number[], unit: string) => values.map((value) => shown(value, unit)).join(", ");
const median0 = (values: number[]) => median(values) ?? Number.NaN;

const goals: BenchGoal[] = [];
for (const series of seriesList) {
  const anchor = (text: string) => (series.base.length > 0 ? `${text} (before this round)` : "—");
  const scores = scoresOf(series.fawn);
  const tbts = tbtsOf(series.fawn);
  goals.push(
    {
      measure: `Lighthouse performance score (mobile), ${series.title}, each of ${series.fawn.length} runs`,
      goal: "100",
      figure: scores.join(", "),
      met: scores.every((score) => score >= 100),
      anchor: anchor(scoresOf(series.base).join(", ")),
    },
    {
      measure: `Total Blocking Time (Lighthouse mobile), ${series.title}, each run`,
      goal: `≤ ${TBT_GOAL_MS} ms`,
      figure: listed(tbts, "ms"),
      met: tbts.every((tbt) => tbt <= TBT_GOAL_MS),
      anchor: anchor(listed(tbtsOf(series.base), "ms")),
    },
  );
}
const quiet = seriesList.find((series) => series.id === "quiet");
if (quiet) {
  const lcp = median0(quiet.fawn.map((entry) => entry.metrics["largest-contentful-paint"]));
  goals.push({
    measure: "Largest Contentful Paint (Lighthouse mobile), quiet machine, median",
    goal: `≤ ${LCP_GOAL_MS / 1000} s`,
    figure: shown(lcp, "s"),
    met: lcp <= LCP_GOAL_MS,
    anchor:
      quiet.base.length > 0
        ? `${shown(median0(quiet.base.map((entry) => entry.metrics["largest-contentful-paint"])), "s")} (before this round)`
        : "—",
  });
  if (agentic) {
    const agenticScore = median0(quiet.fawn.map((entry) => entry.scores[AGENTIC] ?? Number.NaN));
    goals.push({
      measure: "Lighthouse Agentic Browsing score (13.5+, WebMCP on)",
      goal: "100",
      figure: String(agenticScore),
      met: agenticScore >= 100,
    });
  }
}

const tables: BenchTable[] = [];
if (quiet) {
  tables.push({
    title: `Scores, quiet machine (median of ${quiet.fawn.length})`,
    columns: ["category", "score", ...quiet.fawn.map((_, index) => `run ${index + 1}`)],
    rows: CATEGORIES.map((id) => [
      id,
      scoreShown(median0(quiet.fawn.map((entry) => entry.scores[id] ?? Number.NaN))),
      ...quiet.fawn.map((entry) => scoreShown(entry.scores[id])),
    ]),
  });
}
for (const series of seriesList) {
  const rows: (string | number)[][] = [];
  const builds = [
    { label: "Fawn", runs: series.fawn },
    { label: "before", runs: series.base },
  ];
  for (const { label, runs } of builds)
    runs.forEach((entry, index) =>
      rows.push([
        `${label} ${index + 1}`,
        scoreShown(entry.scores.performance),
        ...METRICS.map((metric) => shown(entry.metrics[metric.id], metric.unit)),
        `${shown(entry.longestTask.wall, "ms")} / ${shown(entry.longestTask.cpu, "ms")}`,
        series.load[index]?.toFixed(1) ?? "–",
      ]),
    );
  tables.push({
    title: `Each run, ${series.title}${series.base.length > 0 ? ` (Fawn and the app before this round, ${BASE_COMMIT}, alternating)` : ""}`,
    columns: [
      "run",
      "performance",
      ...METRICS.map((metric) => metric.label),
      "longest task after FCP (wall / CPU)",
      "load average (1 min)",
    ],
    rows,
  });
}

const failed = [...new Set(seriesList.flatMap((series) => series.fawn.flatMap((entry) => entry.failed)))].sort();
saveBenchResult({
  name: "lighthouse",
  title: "Lighthouse",
  command: "npm run bench:lighthouse",
  about: [
    "Lighthouse 12 (the newest that runs on Node 20; 13 needs Node 22) with its default mobile preset: a mid-range",
    "phone's screen, simulated slow 4G and a 4× slower CPU. It loads the built app served by `vite preview` on",
    `localhost in headless Chromium (/usr/bin/chromium, a fresh profile each run, so a first visit), ${RUNS} times in`,
    "each of two series: on the machine as it is, and while a second process (a Node child spinning a loop, started",
    "and stopped by the benchmark) keeps one core busy for the whole series, as other work does on most laptops.",
    "Simulated throttling scales what this machine measured: a task of the page's main thread counts towards Total",
    "Blocking Time once it is over ~12.5 ms here (50 ms on the simulated phone), so a loaded machine, which stretches",
    "tasks, lowers the score. The longest task after the first contentful paint comes from each run's trace, with its",
    "CPU time (the thread's own: a task the machine's other work stretched has a wall time far above its CPU time).",
    BASE_DIST
      ? `The app before this round (${BASE_COMMIT}, BENCH_BASE_DIST) is measured in the same runs, alternating with Fawn's, on the next port.`
      : "Without BENCH_BASE_DIST (set by `npm run bench`) the app before this round is not measured: its anchors show —.",
  ].join("\n"),
  goals,
  tables,
  notes: [
    "What was split (the app's start after the first paint, src/ui/main.tsx): the task that evaluated the app's modules then, through promise callbacks in that same task, made the stores, started the agent worker, imported the Python frame host and rendered the whole app (the sidebar with its virtualized thread list, the title bar, the welcome, the composer) is now a series of tasks, each short: the modules' evaluation; the stores; the agent worker's start (gateway-client.ts, a task of its own: making a module worker costs a few ms); the app's shell, then each part in a task of its own (shared/start-steps.ts: the sidebar, the workspace switcher, the thread list, the title bar, the conversation, the composer, between them `scheduler.yield()`, else a MessageChannel message), rendered beside the prerendered first screen and hidden until whole; then the swap, in one task (no frame shows both or neither). After it, in idle time and one per task: the dialogs' chunks (each fetched and evaluated in its own task), the schedule driver, and the Markdown renderer when a thread may open (on a first visit's welcome still at the user's first focus, click or key).",
    "Measured while this was built (`BENCH_LIGHTHOUSE_RUNS=2`, load average 19–27 on 2 shared cores, so every wall-time figure was the machine's: TBT 4–22 s and scores 41–70 for both builds): the longest main-thread task after FCP took 6–8 ms of CPU time in each of Fawn's 4 runs, 64–103 ms in each of the app before this round's 4 (its one start task: the module's promise callbacks, the worker's start and the whole first render). Not yet measured on a quiet machine.",
    "What remains: the app's modules are evaluated in one task (its entry chunk and what it imports statically; splitting it would mean loading the first screen's code as several dynamic imports); the swap's style and layout of the whole app (Lighthouse counts a layout task at 2×, not 4×); index.html's first script appending the app's script and modulepreload tags; garbage collection. On a busy machine any task can be stretched: the table shows each run's longest task after FCP with its CPU time.",
    ...(failed.length > 0
      ? [`Audits not passed in some run: ${failed.map((entry) => `\`${entry}\``).join("; ")}.`]
      : ["Every audit that counts towards a score passed in every run."]),
    "`vite preview` gzips text responses; a static host serving Fawn should compress them too (text compression is the server's, not the app's).",
    `Load average at the end: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(" ")} (the machine is shared; simulated throttling amplifies its noise; each run's is in the tables).`,
  ],
});
