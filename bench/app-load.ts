// The first load in Chromium: the gzip bytes the page loads first and the agent worker's (as `npm run size` counts
// them), then, over several runs of the built app, a first visit (empty storage, no service worker) and a repeat visit
// (the service worker controls the page and serves it from its precache): first paint, largest contentful paint, when
// the agent worker answers its first Gateway call (from then on Send sends), and the longest main-thread task. Needs
// `npm run build` first (npm run bench builds once); prints numbers only, nothing here asserts a timing.
import { chromium, type Browser, type Page } from "@playwright/test";
import { gzipSize, initialFiles, workerFiles } from "../scripts/dist-graph.ts";
import { startPreview } from "../scripts/preview-server.ts";
import { GATEWAY_READY_MARK } from "../src/ui/shared/perf-marks.ts";
import { median, saveBenchResult, type BenchGoal } from "./report.ts";

const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
// Its own port, apart from the other benchmarks and the e2e tests.
const PORT = Number(process.env.BENCH_APP_PORT ?? 4183);
const APP = `http://127.0.0.1:${PORT}`;
const RUNS = Number(process.env.BENCH_LOAD_RUNS ?? 5);
const INITIAL_GOAL = 100_000;
const WORKER_GOAL = 540_000;

interface Visit {
  /** First contentful paint, ms after navigation start. */
  fcp: number;
  /** Largest contentful paint so far when the worker answered, ms. */
  lcp: number;
  /** The agent worker answered its first Gateway call (GATEWAY_READY_MARK, set by src/ui/state/stores.tsx), ms. */
  workerReady: number;
  /** The composer's box is on the page and the worker answers: a message typed now is sent, ms. */
  sendUsable: number;
  /** The longest main-thread task until a second after the worker answered, ms (0: none over 50 ms). */
  longestTask: number;
}

// A string, not a function: tsx would wrap named functions in a helper the page does not have.
const OBSERVERS = `
  window.__load = { lcp: 0, longest: 0, composer: undefined };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__load.lcp = entry.startTime;
  }).observe({ type: "largest-contentful-paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__load.longest = Math.max(window.__load.longest, entry.duration);
  }).observe({ type: "longtask", buffered: true });
  const watch = new MutationObserver(() => {
    // On screen: the app renders hidden beside the prerendered first screen until it is whole (data-app-starting).
    if (document.getElementById("composer-input") && !document.querySelector("[data-app-starting]")) {
      window.__load.composer = performance.now();
      watch.disconnect();
    }
  });
  watch.observe(document, { subtree: true, childList: true });
`;

/** Loads (or reloads) the app in `page` and measures until a second after the worker has answered. */
async function visit(page: Page, reload: boolean): Promise<Visit> {
  if (reload) await page.reload();
  else await page.goto(APP);
  await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, GATEWAY_READY_MARK, {
    timeout: 60_000,
  });
  await page.waitForTimeout(1000);
  return page.evaluate((mark) => {
    const load = (window as unknown as { __load: { lcp: number; longest: number; composer?: number } }).__load;
    const ready = performance.getEntriesByName(mark)[0]!.startTime;
    const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN;
    return {
      fcp,
      lcp: load.lcp,
      workerReady: ready,
      sendUsable: Math.max(ready, load.composer ?? Number.NaN),
      longestTask: load.longest,
    };
  }, GATEWAY_READY_MARK);
}

/** One fresh profile: a first visit, then (once the service worker controls the page) a repeat visit. */
async function run(browser: Browser): Promise<{ first: Visit; repeat: Visit }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript({ content: OBSERVERS });
    const page = await context.newPage();
    const first = await visit(page, false);
    // The service worker precaches the install download (not the lazy groups: bench/precache.ts) before it activates
    // and claims the page.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 120_000 });
    const repeat = await visit(page, true);
    return { first, repeat };
  } finally {
    await context.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const ms = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? "–" : `${Math.round(value)}`);

const initialBytes = ["index.html", ...initialFiles()].reduce((sum, file) => sum + gzipSize(file), 0);
const workerBytes = workerFiles().reduce((sum, file) => sum + gzipSize(file), 0);
console.log(`initial ${kb(initialBytes)} gzip, agent worker ${kb(workerBytes)} gzip`);

const preview = await startPreview(PORT);
const browser = await chromium.launch({ executablePath: CHROME, args: ["--no-sandbox", "--disable-gpu"] });
const firsts: Visit[] = [];
const repeats: Visit[] = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const { first, repeat } = await run(browser);
    firsts.push(first);
    repeats.push(repeat);
    console.log(`run ${i + 1}: first ${JSON.stringify(first)} repeat ${JSON.stringify(repeat)}`);
  }
} finally {
  await browser.close();
  preview.close();
}

const mid = (visits: Visit[], key: keyof Visit) => median(visits.map((entry) => entry[key]));
const row = (label: string, key: keyof Visit) => [label, ms(mid(firsts, key)), ms(mid(repeats, key))];
const goals: BenchGoal[] = [
  {
    measure: "what the page loads first (index.html, its scripts and stylesheet), gzip",
    goal: `≤ ${kb(INITIAL_GOAL)}`,
    figure: kb(initialBytes),
    met: initialBytes <= INITIAL_GOAL,
  },
  {
    measure: "the agent worker's first chunk and its static imports, gzip",
    goal: `≤ ${kb(WORKER_GOAL)}`,
    figure: kb(workerBytes),
    met: workerBytes <= WORKER_GOAL,
  },
];
saveBenchResult({
  name: "load",
  title: "First load",
  command: "npm run bench:load",
  about: [
    "What a user waits for when opening Fawn. The sizes are those `npm run size` checks against size-budgets.json",
    "(gzip level 9): the page's first load is index.html with every script and stylesheet it loads before the agent",
    "worker starts; the agent worker is its entry chunk with its static imports. Settings, the command palette, the",
    "shortcuts sheet, file previews, the Markdown renderer (marked, DOMPurify, highlight.js, KaTeX, mermaid), the",
    "terminal and the OpenAI SDK in the worker are chunks of their own, fetched after the first paint (the service",
    "worker precaches them for offline use, but for mermaid's, which it caches on first use or in idle time).",
    "",
    `The timings come from the built app served by \`vite preview\` on localhost, in headless Chromium (1280×800, no`,
    `network or CPU throttling), over ${RUNS} runs, each in a fresh profile: a first visit (empty storage, no service`,
    "worker), then a reload once the service worker controls the page (the repeat visit, served from its precache).",
    "Times are ms after navigation start, medians; the worker is ready when it has answered its first Gateway call",
    `(the mark \`${GATEWAY_READY_MARK}\`, src/ui/shared/perf-marks.ts): Send is usable from the later of that and the composer`,
    "being on the page. The longest task is the longest main-thread task (Long Tasks API, over 50 ms) until a second",
    "after that.",
  ].join("\n"),
  goals,
  tables: [
    {
      title: "Sizes (gzip)",
      columns: ["part", "gzip"],
      rows: [
        ["first load (initial)", kb(initialBytes)],
        ["agent worker (static graph)", kb(workerBytes)],
      ],
    },
    {
      title: `Loading the app (ms, median of ${RUNS})`,
      columns: ["measure", "first visit", "repeat visit (service worker)"],
      rows: [
        row("first contentful paint", "fcp"),
        row("largest contentful paint", "lcp"),
        row("agent worker answers its first call", "workerReady"),
        row("Send usable", "sendUsable"),
        row("longest main-thread task", "longestTask"),
      ],
    },
  ],
  notes: [
    "Before this work (commit 409beef, this benchmark with the same mark added, 5 runs right before, load average ~9 on 2 cores): initial 138.9 KB and agent worker 587.1 KB gzip; first visit FCP 347 ms, worker ready 1027 ms, longest task 101 ms; repeat visit FCP 157 ms, worker ready 460 ms. After, in the same conditions: 89.1 KB and 474.8 KB; first visit FCP 359 ms, worker ready 940 ms, longest task 61 ms; repeat visit FCP 125 ms, worker ready 370 ms. Unthrottled on localhost, bytes barely show in these timings; Lighthouse's throttled run (bench:lighthouse) shows them.",
    "The agent worker starts right after the first paint (src/ui/gateway-client.ts), so its download does not compete with the first screen's; Gateway calls made before then wait for it.",
    "A first visit also starts the service worker's install, which precaches the install download (What installing costs, below) while the page loads; the repeat visit reads the app from Cache Storage.",
    "The OpenAI SDK (the worker's largest part) is fetched once the worker has answered; a message sent before it has arrived waits for it, which these timings do not include.",
    `Load average while this ran: ${(await import("node:os"))
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(" ")} (the machine is shared; timings are noisy).`,
  ],
});
