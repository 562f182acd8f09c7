// The thread list at scale: seeds 10,000 threads (each a question and a reply of about 100 words, stored as older
// versions of Fawn stored them, so the search index must be built for them) into the built app's IndexedDB in Chromium,
// then prints the time to the first row of the list after a reload, the longest main-thread task and frame gap while
// the list scrolls from top to bottom, the one-time indexing of those threads, and how long a search takes for words
// found in one thread, in a tenth of them and in all of them. Needs `npm run build` first (npm run bench:threads does
// it). Prints numbers only; nothing here is a timed assertion (docs/architecture.md#d10-tests).
import { chromium, type Page } from "@playwright/test";
import { setTimeout as sleep } from "node:timers/promises";
import { startPreview } from "../scripts/preview-server.ts";
import { saveBenchResult } from "./report.ts";

const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
// Its own port, apart from the other benchmarks and the e2e tests.
const PORT = Number(process.env.BENCH_APP_PORT ?? 4182);
const APP = `http://127.0.0.1:${PORT}`;
const THREADS = Number(process.env.BENCH_THREADS ?? 10_000);
/** Pixels scrolled per frame while scrolling the list from top to bottom. */
const SCROLL_STEP = 600;
/** The search box waits this long after typing stops (src/ui/threads/thread-search-controller.ts SEARCH_DEBOUNCE_MS). */
const DEBOUNCE_MS = 150;

/**
 * Seeds the threads in one transaction: thread i was active i seconds after thread 0. Every reply has "reply";
 * every tenth has "lighthouse"; only thread 0's has "narwhal".
 */
async function seed(page: Page, total: number): Promise<void> {
  await page.evaluate(async (count) => {
    const words =
      "agent browser worker index search thread message reply model token stream render scroll layout memory skill sandbox python report chart table summary plan todo review budget travel garden recipe music history science".split(
        " ",
      );
    let state = 42;
    const random = () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
    const sentence = (length: number) =>
      Array.from({ length }, () => words[Math.floor(random() * words.length)]).join(" ");
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("fawn");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const tx = db.transaction(["threads", "entries"], "readwrite");
    const start = Date.now() - count * 1000;
    for (let i = 0; i < count; i++) {
      const id = `bench-${i}`;
      tx.objectStore("threads").put({
        thread_id: id,
        title: `Thread ${i}: ${sentence(4)}`,
        created_at: start + i * 1000,
        updated_at: start + i * 1000,
        status: "idle",
        ...(i % 1000 === 0 && { pinned: true }),
      });
      const extra = `${i % 10 === 0 ? " lighthouse" : ""}${i === 0 ? " narwhal" : ""}`;
      const messages = [
        { type: "human", id: `h${i}`, content: `${sentence(20)}?` },
        { type: "ai", id: `a${i}`, content: `Here is my reply. ${sentence(80)}${extra}.` },
      ];
      messages.forEach((message, seq) =>
        tx.objectStore("entries").put({ thread_id: id, seq, entry: { kind: "message", message } }),
      );
    }
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, total);
}

/** Types `query` into the search box and measures until the results' status line answers it, in ms. */
function timeSearch(page: Page, query: string): Promise<{ ms: number; status: string }> {
  return page.evaluate(
    (text) =>
      new Promise<{ ms: number; status: string }>((resolve) => {
        const nav = document.querySelector('nav[aria-label="Threads"]')!;
        const box = nav.querySelector<HTMLInputElement>('input[type="search"]')!;
        const start = performance.now();
        box.value = text;
        box.dispatchEvent(new Event("input", { bubbles: true }));
        const check = () => {
          const status = nav.querySelector('[role="status"]')?.textContent ?? "";
          if (status && !status.startsWith("Searching") && !status.includes("Still indexing")) {
            resolve({ ms: performance.now() - start, status });
          } else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    query,
  );
}

async function clearSearch(page: Page): Promise<void> {
  const box = page.getByRole("searchbox", { name: "Search threads" });
  await box.fill("");
  await page.getByRole("navigation", { name: "Threads" }).getByRole("link").first().waitFor();
}

const preview = await startPreview(PORT);
const browser = await chromium.launch({ executablePath: CHROME, args: ["--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // A string, not a function: tsx would wrap named functions in a helper the page does not have. The functions given
  // to page.evaluate below do get that wrapping (esbuild's __name), so the page gets a do-nothing __name.
  await page.addInitScript({
    content: `
      window.__name = (target) => target;
      window.__longTasks = [];
      window.__firstRow = undefined;
      window.__shell = undefined;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
      }).observe({ type: "longtask", buffered: true });
      const rowShown = () => document.querySelector('nav[aria-label="Threads"] a[data-index]');
      const watch = new MutationObserver(() => {
        if (window.__shell === undefined && document.querySelector("button.new-thread")) {
          window.__shell = performance.now();
        }
        if (window.__firstRow === undefined && rowShown()) {
          window.__firstRow = performance.now();
          watch.disconnect();
        }
      });
      watch.observe(document, { subtree: true, childList: true });
    `,
  });
  await page.goto(APP);
  const threads = page.getByRole("navigation", { name: "Threads" });
  await threads.getByText("No threads yet.").waitFor();
  // The agent worker creates the database; opening it before that would create an empty one.
  while (!(await page.evaluate(async () => (await indexedDB.databases()).some((db) => db.name === "fawn")))) {
    await sleep(50);
  }
  const seedStart = Date.now();
  await seed(page, THREADS);
  const seedMs = Date.now() - seedStart;

  // First render: a fresh page load with every thread stored.
  await page.reload();
  await threads.getByRole("link").first().waitFor();
  const { shell, firstRow, rendered } = await page.evaluate(() => ({
    shell: (window as unknown as { __shell: number }).__shell,
    firstRow: (window as unknown as { __firstRow: number }).__firstRow,
    rendered: document.querySelectorAll('nav[aria-label="Threads"] a[data-index]').length,
  }));
  await sleep(1000);

  // Scroll from top to bottom, one step per frame, watching long tasks and frame gaps.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const taskMs = async () => {
    const { metrics } = (await cdp.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] };
    return (metrics.find((metric) => metric.name === "TaskDuration")?.value ?? 0) * 1000;
  };
  await page.evaluate(() => ((window as unknown as { __longTasks: number[] }).__longTasks.length = 0));
  const taskBefore = await taskMs();
  const scroll = await page.evaluate(
    (step) =>
      new Promise<{ frames: number; maxGap: number; ms: number; lastShown: string }>((resolve) => {
        const scroller = document.querySelector<HTMLElement>('nav[aria-label="Threads"] .thread-scroll')!;
        const start = performance.now();
        let last = start;
        let maxGap = 0;
        let frames = 0;
        const frame = (now: number) => {
          maxGap = Math.max(maxGap, now - last);
          last = now;
          frames++;
          if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) {
            // One more frame so the last rows render.
            requestAnimationFrame(() => {
              const links = scroller.querySelectorAll("a[data-index]");
              resolve({
                frames,
                maxGap,
                ms: performance.now() - start,
                lastShown: links[links.length - 1]?.textContent ?? "",
              });
            });
            return;
          }
          scroller.scrollTop += step;
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    SCROLL_STEP,
  );
  const scrollTaskMs = (await taskMs()) - taskBefore;
  const scrollLongTasks = await page.evaluate(() => [...(window as unknown as { __longTasks: number[] }).__longTasks]);

  // Search: the first query indexes every seeded thread (they predate the index), then searches run on the index.
  await page.evaluate(() => ((window as unknown as { __longTasks: number[] }).__longTasks.length = 0));
  const indexing = await timeSearch(page, "narwhal");
  const indexLongTasks = await page.evaluate(() => [...(window as unknown as { __longTasks: number[] }).__longTasks]);
  await clearSearch(page);
  const queries = ["narwhal", "lighthouse", "reply", "lighthouse narwhal", "budget travel", "thread 9999"];
  const searches: { query: string; ms: number; status: string }[] = [];
  for (const query of queries) {
    // Twice each, keeping the second: the first may still warm caches.
    await timeSearch(page, query);
    await clearSearch(page);
    searches.push({ query, ...(await timeSearch(page, query)) });
    await clearSearch(page);
  }
  const searchLongTasks = await page.evaluate(() => [...(window as unknown as { __longTasks: number[] }).__longTasks]);

  const max = (values: number[]) => (values.length > 0 ? `${Math.max(...values).toFixed(0)} ms` : "none over 50 ms");
  const rows: [string, string][] = [
    ["seeding (one IndexedDB transaction, in the page)", `${seedMs} ms`],
    ['app shell ("New thread") shown, from navigation start', `${shell.toFixed(0)} ms`],
    ["first row of the list shown, from navigation start", `${firstRow.toFixed(0)} ms`],
    ["rows in the page after the first render", String(rendered)],
    [`scroll top to bottom (${SCROLL_STEP} px a frame)`, `${scroll.frames} frames in ${scroll.ms.toFixed(0)} ms`],
    ["scroll: longest main-thread task", max(scrollLongTasks)],
    ["scroll: longest frame gap", `${scroll.maxGap.toFixed(1)} ms`],
    ["scroll: main-thread task time per frame", `${(scrollTaskMs / scroll.frames).toFixed(2)} ms`],
    ["scroll: last row shown", scroll.lastShown],
    [`first search, indexing all ${THREADS.toLocaleString("en")} threads first`, `${indexing.ms.toFixed(0)} ms`],
    ["first search: longest main-thread task meanwhile", max(indexLongTasks)],
    ...searches.map(({ query, ms, status }): [string, string] => [
      `search "${query}" (${status.replace(/\.$/, "")}): typed → shown, less the ${DEBOUNCE_MS} ms pause`,
      `${(ms - DEBOUNCE_MS).toFixed(0)} ms`,
    ]),
    ["searches: longest main-thread task", max(searchLongTasks)],
  ];
  saveBenchResult({
    name: "threads",
    title: `The thread list with ${THREADS.toLocaleString("en")} threads`,
    command: "npm run bench:threads",
    about:
      `Seeds ${THREADS.toLocaleString("en")} threads (a question and a reply of about 100 words each, stored as older ` +
      "versions of Fawn stored them, so the search index must be built for them) into the built app's IndexedDB in " +
      "Chromium, then times the first row of the list after a reload, scrolls the list from top to bottom one step " +
      "a frame, and times searches: the first one indexes every thread.",
    goals: [
      {
        measure: "scrolling the list: tasks over 50 ms",
        goal: "none",
        figure: max(scrollLongTasks),
        met: scrollLongTasks.length === 0,
      },
    ],
    tables: [{ title: "Thread list", columns: ["measure", "value"], rows }],
  });
} finally {
  await browser.close();
  preview.close();
}
