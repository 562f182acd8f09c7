// Streaming render cost: the mock model streams a 2,000-token reply (20,000 characters) at 200 tokens per second
// into the built app in Chromium; prints the longest main-thread task (from sending until the run has ended and the
// saved thread is shown), the main thread's time per token and how often the message is updated while it is about
// 1,000, 10,000 and 20,000 characters long. Needs `npm run build` first (npm run bench:stream does it). Prints numbers
// only; nothing here is a timed assertion (docs/architecture.md#d10-tests).
import { chromium } from "@playwright/test";
import { setTimeout as sleep } from "node:timers/promises";
import { configureMockModel } from "./app-page.ts";
import { startMockLlm } from "../test/mock-llm/server.ts";
import { startPreview } from "../scripts/preview-server.ts";

const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
// Not 4190: that is ManageSieve, a port fetch and Chromium refuse.
const PORT = Number(process.env.BENCH_APP_PORT ?? 4180);
const APP = `http://127.0.0.1:${PORT}`;
/** Characters per token in the "stream bench" reply (test/mock-llm/scenarios.ts). */
const CHARS_PER_TOKEN = 10;
const TOTAL_CHARS = 20_000;
/** Each cost is measured over this many characters (100 tokens) ending at the mark. */
const WINDOW_CHARS = 1_000;

interface Sample {
  chars: number;
  /** DOM updates of the reply so far. */
  updates: number;
  /** The renderer's main-thread task time so far (CDP Performance.TaskDuration), in ms. */
  taskMs: number;
  at: number;
}

const mock = await startMockLlm({ port: 0 });
const preview = await startPreview(PORT);
const browser = await chromium.launch({ executablePath: CHROME, args: ["--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage();
  // A string, not a function: tsx would wrap named functions in a helper the page does not have.
  await page.addInitScript({
    content: `
      window.__longTasks = [];
      window.__maxFrameGap = 0;
      window.__watchFrames = false;
      window.__updates = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
      }).observe({ type: "longtask", buffered: true });
      let last = performance.now();
      const frame = (now) => {
        if (window.__watchFrames) window.__maxFrameGap = Math.max(window.__maxFrameGap, now - last);
        last = now;
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
      // One count per DOM update of an assistant message (mutations arrive batched, once per update).
      const inReply = (node) => {
        const element = node.nodeType === 1 ? node : node.parentElement;
        return !!element?.closest('[aria-label="Assistant message"]');
      };
      new MutationObserver((records) => {
        if (records.some((record) => inReply(record.target))) window.__updates++;
      }).observe(document, { subtree: true, childList: true, characterData: true });
    `,
  });
  await page.goto(APP);
  await configureMockModel(page, mock.url);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const taskMs = async () => {
    const { metrics } = (await cdp.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] };
    return (metrics.find((metric) => metric.name === "TaskDuration")?.value ?? 0) * 1000;
  };
  const replyState = () =>
    page.evaluate(() => {
      const replies = document.querySelectorAll('[aria-label="Assistant message"]');
      const updates = (window as unknown as { __updates: number }).__updates;
      return { chars: replies[replies.length - 1]?.textContent?.length ?? 0, updates };
    });

  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[]; __watchFrames: boolean };
    w.__longTasks.length = 0;
    w.__watchFrames = true;
  });
  await page.getByRole("textbox", { name: "Message" }).fill("stream bench");
  const started = Date.now();
  await page.getByRole("button", { name: "Send" }).click();
  const samples: Sample[] = [];
  while (Date.now() - started < 60_000) {
    const [{ chars, updates }, task] = await Promise.all([replyState(), taskMs()]);
    samples.push({ chars, updates, taskMs: task, at: Date.now() - started });
    if (chars >= TOTAL_CHARS - 10) break;
    await sleep(25);
  }
  // Long tasks count until the run has ended and the saved thread has replaced the live one.
  await page.getByRole("button", { name: "Stop" }).waitFor({ state: "hidden", timeout: 30_000 });
  await sleep(1_000);
  const { longTasks, maxFrameGap } = await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[]; __maxFrameGap: number };
    return { longTasks: [...w.__longTasks], maxFrameGap: w.__maxFrameGap };
  });

  /** The first and last samples of the window of characters ending at `mark`. */
  const windowAt = (mark: number): [Sample, Sample] | undefined => {
    const end = samples.find((sample) => sample.chars >= mark);
    const start = samples.findLast((sample) => sample.chars <= mark - WINDOW_CHARS);
    return end && start && end.chars > start.chars ? [start, end] : undefined;
  };
  /** Main-thread ms per token over the window ending at `mark`. */
  const costAt = (mark: number): string => {
    const window = windowAt(mark);
    if (!window) return "n/a";
    const [start, end] = window;
    return ((end.taskMs - start.taskMs) / ((end.chars - start.chars) / CHARS_PER_TOKEN)).toFixed(3);
  };
  /** DOM updates of the reply per second over the window ending at `mark`. */
  const updatesAt = (mark: number): string => {
    const window = windowAt(mark);
    if (!window || window[1].at === window[0].at) return "n/a";
    const [start, end] = window;
    return ((end.updates - start.updates) / ((end.at - start.at) / 1000)).toFixed(1);
  };
  const last = samples.at(-1);
  console.log("Streaming a 2,000-token reply at 200 tokens/s into the UI (Chromium, built app)");
  console.log(`| measure | value |`);
  console.log(`| --- | --- |`);
  console.log(`| reply length reached (chars) | ${last?.chars ?? 0} in ${((last?.at ?? 0) / 1000).toFixed(1)} s |`);
  console.log(`| long tasks (≥ 50 ms), until the run has ended | ${longTasks.length} |`);
  console.log(
    `| longest long task (ms) | ${longTasks.length > 0 ? Math.max(...longTasks).toFixed(1) : "none over 50"} |`,
  );
  console.log(`| longest gap between frames (ms) | ${maxFrameGap.toFixed(1)} |`);
  console.log(`| main-thread ms per token at ~1,000 chars | ${costAt(1_000)} |`);
  console.log(`| main-thread ms per token at ~10,000 chars | ${costAt(10_000)} |`);
  console.log(`| main-thread ms per token at ~20,000 chars | ${costAt(TOTAL_CHARS - 10)} |`);
  console.log(`| reply updates per second at ~1,000 chars | ${updatesAt(1_000)} |`);
  console.log(`| reply updates per second at ~20,000 chars | ${updatesAt(TOTAL_CHARS - 10)} |`);
} finally {
  await browser.close();
  await mock.close();
  preview.close();
}
