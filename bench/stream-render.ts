// Streaming render cost: the mock model streams a 2,000-token reply (20,000 characters) at 200 tokens per second
// into the built app in Chromium; prints the longest main-thread task and the main thread's time per token while
// the message is about 1,000 and about 20,000 characters long. Needs `npm run build` first (npm run bench:stream
// does it). Prints numbers only; nothing here is a timed assertion (DESIGN.md D10).
import { chromium, type Page } from "@playwright/test";
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { startMockLlm } from "../test/mock-llm/server.ts";

const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
// Not 4190: that is ManageSieve, a port fetch and Chromium refuse.
const PORT = Number(process.env.BENCH_APP_PORT ?? 4180);
const APP = `http://127.0.0.1:${PORT}`;
/** Characters per token in the "stream bench" reply (test/mock-llm/scenarios.ts). */
const CHARS_PER_TOKEN = 10;
const TOTAL_CHARS = 20_000;
/** Each cost is measured over this many characters (100 tokens) ending at the mark. */
const WINDOW_CHARS = 1_000;

async function waitForServer(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  throw new Error(`vite preview did not answer at ${url}; run npm run build first.`);
}

async function configure(page: Page, baseUrl: string): Promise<void> {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("tab", { name: "Models" }).click();
  await dialog.getByRole("textbox", { name: "Base URL", exact: true }).fill(baseUrl);
  await dialog.getByRole("combobox", { name: "Model", exact: true }).fill("mock-model");
  await dialog.getByRole("button", { name: "Save" }).click();
  await dialog.getByText("Saved.").waitFor();
  await dialog.getByRole("button", { name: "Close settings" }).click();
}

interface Sample {
  chars: number;
  /** The renderer's main-thread task time so far (CDP Performance.TaskDuration), in ms. */
  taskMs: number;
  at: number;
}

// Its own process group, so the whole npx → vite tree is stopped at the end.
const preview = spawn("npx", ["vite", "preview", "--host", "127.0.0.1", "--port", String(PORT), "--strictPort"], {
  stdio: "ignore",
  detached: true,
});
const mock = await startMockLlm({ port: 0 });
const browser = await chromium.launch({ executablePath: CHROME, args: ["--no-sandbox", "--disable-gpu"] });
try {
  await waitForServer(APP);
  const page = await browser.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: number[]; __maxFrameGap: number; __watchFrames: boolean };
    w.__longTasks = [];
    w.__maxFrameGap = 0;
    w.__watchFrames = false;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
    }).observe({ type: "longtask", buffered: true });
    let last = performance.now();
    const frame = (now: number) => {
      if (w.__watchFrames) w.__maxFrameGap = Math.max(w.__maxFrameGap, now - last);
      last = now;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  await page.goto(APP);
  await configure(page, mock.url);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const taskMs = async () => {
    const { metrics } = (await cdp.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] };
    return (metrics.find((metric) => metric.name === "TaskDuration")?.value ?? 0) * 1000;
  };
  const replyLength = () =>
    page.evaluate(() => {
      const replies = document.querySelectorAll('[aria-label="Assistant message"]');
      return replies[replies.length - 1]?.textContent?.length ?? 0;
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
    const [chars, task] = await Promise.all([replyLength(), taskMs()]);
    samples.push({ chars, taskMs: task, at: Date.now() - started });
    if (chars >= TOTAL_CHARS - 10) break;
    await sleep(25);
  }
  const { longTasks, maxFrameGap } = await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[]; __maxFrameGap: number };
    return { longTasks: [...w.__longTasks], maxFrameGap: w.__maxFrameGap };
  });

  /** Main-thread ms per token over the window of characters ending at `mark`. */
  const costAt = (mark: number): string => {
    const end = samples.find((sample) => sample.chars >= mark);
    const start = samples.findLast((sample) => sample.chars <= mark - WINDOW_CHARS);
    if (!end || !start || end.chars === start.chars) return "n/a";
    const tokens = (end.chars - start.chars) / CHARS_PER_TOKEN;
    return ((end.taskMs - start.taskMs) / tokens).toFixed(3);
  };
  const last = samples.at(-1);
  console.log("Streaming a 2,000-token reply at 200 tokens/s into the UI (Chromium, built app)");
  console.log(`| measure | value |`);
  console.log(`| --- | --- |`);
  console.log(`| reply length reached (chars) | ${last?.chars ?? 0} in ${((last?.at ?? 0) / 1000).toFixed(1)} s |`);
  console.log(`| long tasks (≥ 50 ms) | ${longTasks.length} |`);
  console.log(
    `| longest long task (ms) | ${longTasks.length > 0 ? Math.max(...longTasks).toFixed(1) : "none over 50"} |`,
  );
  console.log(`| longest gap between frames (ms) | ${maxFrameGap.toFixed(1)} |`);
  console.log(`| main-thread ms per token at ~1,000 chars | ${costAt(1_000)} |`);
  console.log(`| main-thread ms per token at ~10,000 chars | ${costAt(10_000)} |`);
  console.log(`| main-thread ms per token at ~20,000 chars | ${costAt(TOTAL_CHARS - 10)} |`);
} finally {
  await browser.close();
  await mock.close();
  if (preview.pid !== undefined) process.kill(-preview.pid);
}
