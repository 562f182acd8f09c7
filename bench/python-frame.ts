// python3 start in the built app in Chromium, driven like a user through the Terminal panel: the time from pressing
// Enter on `python3 -c 'print(1)'` to the row "1" showing. First visits (each a fresh browser profile: nothing of
// Python kept, nothing started ahead): the page's first python3, alternating with first visits to the app before this
// round (BENCH_BASE_DIST, served on the next port: the anchor, measured in the same run). Then, in the first of them:
// warm runs, a second thread and back. Then repeat visits (a fresh page in the same profile: Pyodide's files and the
// interpreter snapshot the first visit kept): the page's first python3, alternating with the app before this round
// the same way. Timed inside the page (performance.now() at the Enter keydown, a MutationObserver on the terminal's
// drawn rows), so the test driver's round trips are not in the figures. `echo 1` is the shell's own baseline; Pyodide
// in a Node worker thread is the un-isolated reference.
//
// Serves dist/ itself (needs `npm run build` first; npm run bench:sandbox does it), or measures an app already
// served elsewhere: BENCH_APP_URL=http://127.0.0.1:4183 (another build, e.g. an older commit's). BENCH_LABEL names
// the build in the heading. Prints numbers only; nothing here is a timed assertion (docs/architecture.md#d10-tests).
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { configureMockModel } from "./app-page.ts";
import { median, saveBenchResult, type BenchTable } from "./report.ts";
import { startMockLlm } from "../test/mock-llm/server.ts";
import { startPreview, type PreviewServer } from "../scripts/preview-server.ts";
import { measurePythonStartup } from "../test/support/node-python-runner.ts";

const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
// Not 4180 (bench:stream) nor 4190 (ManageSieve, a port fetch and Chromium refuse).
const PORT = Number(process.env.BENCH_APP_PORT ?? 4182);
/** The app before this round (scripts/bench.ts builds it), served on PORT + 1 as the anchor; unset: no anchor. */
const BASE_DIST = process.env.BENCH_BASE_DIST;
const WARM_RUNS = 10;
const BACK_RUNS = 5;
/** First visits of each app, alternating (BENCH_PYTHON_VISITS: how many, for trying a change). */
const FIRST_VISITS = Number(process.env.BENCH_PYTHON_VISITS ?? 3);
/** Repeat visits of each app, alternating (BENCH_PYTHON_VISITS too). */
const REPEAT_VISITS = Number(process.env.BENCH_PYTHON_VISITS ?? 3);
/** The cache the page keeps the interpreter snapshot in (src/sandbox/python/page/python-frame-host.ts). */
const SNAPSHOT_CACHE = "fawn-python-snapshot";
/** How long to wait for the first visit's snapshot to be kept. */
const SNAPSHOT_WAIT_MS = 20_000;
/** The pause between the first command (which opens the thread's sandbox) and python3, in the prestart rows. */
const PAUSE_MS = 3_000;
/** A cold start on a busy 2-core machine can take a minute. */
const RUN_TIMEOUT_MS = 180_000;
const PRINT = "python3 -c 'print(1)'";
/**
 * BENCH_PYTHON_TRACE_DIR: keeps a Chromium trace (every thread) of the first first visit's python3 and of the first
 * repeat visit's, for finding where the time goes.
 */
const TRACE_DIR = process.env.BENCH_PYTHON_TRACE_DIR;
const TRACE_CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8",
  "v8.wasm",
  "toplevel",
  "loading",
];
const ECHO = "echo 1";

// Helpers in the page, as a string: tsx would wrap named functions in a helper the page does not have.
const PAGE_HELPERS = `
  window.__name = (f) => f;
  window.__bench = {
    panel: () => document.getElementById("terminal-panel"),
    // The rows as drawn (xterm's DOM renderer, redrawn each frame), not its accessibility rows: those are redrawn at
    // most once a second (xterm's TimeBasedDebouncer), which would put a 1 s floor under every figure.
    rows: () =>
      [...(window.__bench.panel()?.querySelectorAll(".xterm-rows > div") ?? [])].map((row) => row.textContent ?? ""),
    hasOne: () => window.__bench.rows().some((text) => /^1\\s*$/.test(text)),
    /** The last row with text ends in "$ " with nothing typed after it. */
    atPrompt: () => /\\$\\s*$/.test(window.__bench.rows().filter((text) => /\\S/.test(text)).at(-1) ?? ""),
    screenText: () => window.__bench.rows().join(""),
    /** Arms a timer: starts at the next Enter keydown, stops when a row reads exactly "1". */
    arm: (timeoutMs) => {
      if (window.__bench.hasOne()) throw new Error('a row already reads "1"');
      let start;
      window.__bench.timing = new Promise((resolve, reject) => {
        const onKey = (event) => {
          if (event.key === "Enter" && start === undefined) start = performance.now();
        };
        window.addEventListener("keydown", onKey, true);
        const observer = new MutationObserver(() => {
          if (start === undefined || !window.__bench.hasOne()) return;
          const ms = performance.now() - start;
          finish();
          resolve(ms);
        });
        const timer = setTimeout(() => {
          finish();
          reject(new Error('no row read "1" within ' + timeoutMs + " ms"));
        }, timeoutMs);
        const finish = () => {
          observer.disconnect();
          clearTimeout(timer);
          window.removeEventListener("keydown", onKey, true);
        };
        observer.observe(window.__bench.panel(), { subtree: true, childList: true, characterData: true });
      });
    },
  };
`;

interface BenchWindow {
  __bench: {
    hasOne(): boolean;
    atPrompt(): boolean;
    screenText(): string;
    arm(timeoutMs: number): void;
    timing: Promise<number>;
  };
}

/** Sends "hello" and waits for the mock's reply and the run's end, so the thread exists. */
async function sayHello(page: Page): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).fill("hello");
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByRole("article", { name: "Assistant message" }).last().waitFor();
  await page.getByRole("button", { name: "Send" }).waitFor();
}

/** Opens the Terminal panel (unless it is open) and waits for the current thread's first prompt. */
async function openTerminal(page: Page): Promise<void> {
  const toggle = page.getByRole("button", { name: "Terminal", exact: true });
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await page.waitForFunction(() => (window as unknown as BenchWindow).__bench.atPrompt(), null, { timeout: 30_000 });
}

/** Ms from Enter on `command` to a row reading "1", measured in the page; waits for the next prompt after. */
async function timeCommand(page: Page, command: string): Promise<number> {
  await page.locator("#terminal-panel textarea").focus();
  // Ctrl+L: the screen (and any earlier "1") goes to the scrollback; the rows hold only the prompt.
  await page.keyboard.press("Control+l");
  await page.waitForFunction(() => {
    const bench = (window as unknown as BenchWindow).__bench;
    return bench.atPrompt() && !bench.hasOne();
  });
  await page.keyboard.type(command);
  await page.waitForFunction(
    (typed) => (window as unknown as BenchWindow).__bench.screenText().includes(typed),
    command,
  );
  await page.evaluate((timeout) => (window as unknown as BenchWindow).__bench.arm(timeout), RUN_TIMEOUT_MS);
  await page.keyboard.press("Enter");
  const ms = await page.evaluate(() => (window as unknown as BenchWindow).__bench.timing);
  await page.waitForFunction(() => (window as unknown as BenchWindow).__bench.atPrompt(), null, {
    timeout: RUN_TIMEOUT_MS,
  });
  return ms;
}

async function timeRuns(page: Page, command: string, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await timeCommand(page, command));
  return times;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

function ms(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return "—";
  return `${value.toFixed(value >= 1000 ? 0 : 1)} ms`;
}

function row(label: string, times: number[]): (string | number)[] {
  const sorted = [...times].sort((a, b) => a - b);
  const p95 = times.length > 1 ? ms(percentile(sorted, 95)) : "—";
  return [label, times.length, ms(median(times)), p95, times.map((time) => time.toFixed(0)).join(", ")];
}

/** Whether the page's origin keeps an interpreter snapshot. */
function snapshotKept(page: Page): Promise<boolean> {
  return page.evaluate(
    async (name) => (await caches.has(name)) && (await (await caches.open(name)).keys()).length > 0,
    SNAPSHOT_CACHE,
  );
}

/** Waits (bounded) until the page's origin keeps a snapshot; false if none came (e.g. an older build). */
async function waitForSnapshot(page: Page): Promise<boolean> {
  const until = Date.now() + SNAPSHOT_WAIT_MS;
  while (Date.now() < until) {
    if (await snapshotKept(page)) return true;
    await page.waitForTimeout(250);
  }
  return false;
}

let repeatTraced = false;

/** A repeat visit: a fresh page in the same profile opens `thread`; its first python3 is timed. */
async function repeatVisit(context: BrowserContext, url: string, pauseMs = 0): Promise<number> {
  const page = await context.newPage();
  try {
    await page.goto(url);
    await page.evaluate(() => navigator.serviceWorker?.ready);
    // The page settles first: a user types a command some time after the page shows.
    await page.waitForTimeout(1_000);
    await openTerminal(page);
    // A first command opens the thread's sandbox (the Terminal panel alone does not), which prestarts the spare; the
    // python3 that follows a moment later takes it.
    if (pauseMs > 0) {
      await timeRuns(page, ECHO, 1);
      await page.waitForTimeout(pauseMs);
    }
    const browser = context.browser();
    const tracing = TRACE_DIR && browser && !repeatTraced && pauseMs === 0;
    if (tracing) {
      repeatTraced = true;
      await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    }
    const [time] = await timeRuns(page, PRINT, 1);
    if (tracing) writeFileSync(join(TRACE_DIR, `python-repeat-visit-${Date.now()}.json`), await browser.stopTracing());
    return time!;
  } finally {
    await page.close();
  }
}

/** A first visit in a fresh profile, up to the thread's first prompt in the Terminal panel. */
interface Visit {
  context: BrowserContext;
  page: Page;
  /** The thread's URL hash. */
  thread: string;
}

async function firstVisit(browser: Browser, app: string, mockUrl: string): Promise<Visit> {
  const context = await browser.newContext();
  await context.addInitScript({ content: PAGE_HELPERS });
  const page = await context.newPage();
  await page.goto(app);
  // The service worker is installed (its install download is done) before anything is timed.
  await page.evaluate(() => navigator.serviceWorker?.ready);
  await configureMockModel(page, mockUrl);
  await sayHello(page);
  const thread = await page.evaluate(() => location.hash);
  await openTerminal(page);
  return { context, page, thread };
}

const mock = await startMockLlm({ port: 0 });
const previews: PreviewServer[] = [];
async function serve(port: number, outDir?: string): Promise<string> {
  const preview = await startPreview(port, outDir ? { outDir } : {});
  previews.push(preview);
  return preview.url;
}
const app = process.env.BENCH_APP_URL ?? (await serve(PORT));
const base = BASE_DIST ? await serve(PORT + 1, BASE_DIST) : undefined;
const browser = await chromium.launch({ executablePath: CHROME, args: ["--no-sandbox", "--disable-gpu"] });
try {
  // First visits, alternating with the app before this round; the first of each is kept for what follows.
  const cold: number[] = [];
  const baseCold: number[] = [];
  let main: Visit | undefined;
  let baseMain: Visit | undefined;
  for (let i = 0; i < FIRST_VISITS; i++) {
    const order = base && i % 2 === 1 ? [base, app] : base ? [app, base] : [app];
    for (const url of order) {
      const visit = await firstVisit(browser, url, mock.url);
      const tracing = TRACE_DIR && i === 0 && url === app;
      if (tracing) await browser.startTracing(visit.page, { categories: TRACE_CATEGORIES });
      const [time] = await timeRuns(visit.page, PRINT, 1);
      if (tracing) writeFileSync(join(TRACE_DIR, `python-first-visit-${Date.now()}.json`), await browser.stopTracing());
      (url === app ? cold : baseCold).push(time!);
      if (url === app && !main) main = visit;
      else if (url === base && !baseMain) baseMain = visit;
      else await visit.context.close();
    }
  }
  const { page, context, thread: firstThread } = main!;
  const warm = await timeRuns(page, PRINT, WARM_RUNS);
  const echo = await timeRuns(page, ECHO, WARM_RUNS);
  const kept = await waitForSnapshot(page);

  await page.getByRole("button", { name: "New thread" }).click();
  await page.getByRole("button", { name: "Send" }).waitFor();
  await sayHello(page);
  if ((await page.evaluate(() => location.hash)) === firstThread) throw new Error("New thread did not open a thread");
  await openTerminal(page);
  const secondCold = await timeRuns(page, PRINT, 1);
  const secondWarm = await timeRuns(page, PRINT, BACK_RUNS);

  await page.locator(`a[href="${firstThread}"]`).click();
  await page.waitForFunction((hash) => location.hash === hash, firstThread);
  await openTerminal(page);
  const back = await timeRuns(page, PRINT, BACK_RUNS);
  await page.close();

  // Repeat visits, alternating with the app before this round (whose first visit kept a snapshot of its own).
  const baseKept = baseMain ? await waitForSnapshot(baseMain.page) : false;
  await baseMain?.page.close();
  const fromCache: number[] = [];
  const baseFromCache: number[] = [];
  for (let i = 0; i < REPEAT_VISITS; i++) {
    fromCache.push(await repeatVisit(context, `${app}/${firstThread}`));
    if (baseMain) baseFromCache.push(await repeatVisit(baseMain.context, `${base}/${baseMain.thread}`));
  }
  await baseMain?.context.close();
  const afterPause: number[] = [];
  for (let i = 0; i < 2; i++) afterPause.push(await repeatVisit(context, `${app}/${firstThread}`, PAUSE_MS));
  await context.close();

  const node = await measurePythonStartup();

  const label = process.env.BENCH_LABEL ? ` (${process.env.BENCH_LABEL})` : "";
  const before = base ? " (the app before this round, same run)" : "";
  const table: BenchTable = {
    title: `python3 in the Terminal panel, Enter to the row \`1\`, timed in the page${label}`,
    columns: ["command", "runs", "median", "p95", "each run (ms)"],
    rows: [
      row("`echo 1` (the shell's own baseline)", echo),
      row("first visit: the page's first python3 (nothing kept, nothing started ahead)", cold),
      ...(base ? [row(`first visit: the page's first python3${before}`, baseCold)] : []),
      row("first visit: warm, same thread", warm),
      row("first visit: first python3 in a second thread (the spare)", secondCold),
      row("first visit: warm, second thread", secondWarm),
      row("first visit: back in the first thread", back),
      row("repeat visit: the page's first python3 (from cache, snapshot)", fromCache),
      ...(base ? [row(`repeat visit: the page's first python3${before}`, baseFromCache)] : []),
      row(
        `repeat visit, first python3 ${PAUSE_MS / 1000} s after an \`echo\` opened the sandbox (prestarted spare)`,
        afterPause,
      ),
      row("Pyodide in a Node worker thread, cold (un-isolated reference)", [node.coldMs]),
      row("Pyodide in a Node worker thread, warm (un-isolated reference)", [node.warmMs]),
    ],
  };
  const coldMedian = median(cold);
  const fromCacheMedian = median(fromCache);
  const warmMedian = median(warm);
  const anchor = (times: number[]) => (base ? `${ms(median(times))} (the app before this round, same run)` : "—");
  saveBenchResult({
    name: "python",
    title: "Python start",
    command: "npm run bench:sandbox",
    about:
      "The built app in Chromium (bench/python-frame.ts), driven like a user through the Terminal panel: the time " +
      "from pressing Enter on `python3 -c 'print(1)'` to the row `1` showing, measured in the page. Python runs in a " +
      "walled-off worker per thread (a frame with its own policy, a `data:` worker with an opaque origin). A first " +
      "visit is a fresh browser profile once the service worker is installed, with nothing of Python kept and " +
      "nothing started ahead: the python3 typed as the thread's first command is the first thing that loads Pyodide. " +
      "It starts from the interpreter snapshot the build ships (made in Node at build time, fetched with Pyodide's " +
      "files on first use), which the page then keeps in Fawn's Cache Storage. A repeat visit is a fresh page in the " +
      "same profile, its python3 again the thread's first command. First and repeat visits alternate with the same " +
      "visits to the app before this round (which initialised Python on a first visit and kept a snapshot of its own " +
      `for the next), served from its own build in the same run. ${FIRST_VISITS} first and ${REPEAT_VISITS} repeat ` +
      `visits of each, ${WARM_RUNS} warm runs.`,
    goals: [
      {
        measure: "the first python3 of a first visit (nothing kept, nothing started ahead), median",
        goal: "≤ 1.5 s",
        figure: ms(coldMedian),
        met: coldMedian === undefined ? undefined : coldMedian <= 1_500,
        anchor: anchor(baseCold),
      },
      {
        measure: "the page's first python3 from cache (repeat visit), median",
        goal: "≤ 1.5 s",
        figure: ms(fromCacheMedian),
        met: fromCacheMedian === undefined ? undefined : fromCacheMedian <= 1_500,
        anchor: anchor(baseFromCache),
      },
      {
        measure: "python3 warm, same thread, median",
        goal: "≤ 50 ms",
        figure: ms(warmMedian),
        met: warmMedian === undefined ? undefined : warmMedian <= 50,
        anchor: `${ms(node.warmMs)} (Pyodide in a Node worker thread, un-isolated)`,
      },
    ],
    tables: [table],
    notes: [
      kept
        ? "The first visit kept a snapshot while its first python3 ran; every later interpreter of this build starts from it."
        : "No snapshot was kept: the repeat-visit figures are the long way.",
      ...(base && !baseKept ? ["The app before this round kept no snapshot: its repeat visits are the long way."] : []),
      "The shipped snapshot is the interpreter's memory (31 MB) gzipped to about 6 MB, under pyodide/ with Pyodide's files; its name changes with Pyodide or the code that sets Python up. Without it (offline before Python's first use), the first python3 initialises Python (about 1.5 s more on a quiet machine) and keeps a snapshot of its own.",
      "The spare interpreter (started 0.5 s after a program ends) makes a second thread's first python3 as fast as a warm run.",
      "Once a snapshot is kept, a thread's sandbox opening (its first command or tool call, e.g. the agent's write_file before python3; the Terminal panel opening alone does not open it) starts the spare 1 s later (one at most, never while a program or start is under way): the prestart row is a repeat visit whose python3 comes 3 s after a first `echo`; the goal rows run python3 as the page's first command, so they do not count on the prestart.",
    ],
  });
} finally {
  await browser.close();
  await mock.close();
  for (const preview of previews) preview.close();
}
