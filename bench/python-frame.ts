// python3 start in the built app in Chromium, driven like a user through the Terminal panel: the time from pressing
// Enter on `python3 -c 'print(1)'` to the row "1" showing, cold (the page's first python3: the walled-off frame, a
// worker, Pyodide loading) and warm (the thread's interpreter already running), with `echo 1` as the shell's own
// baseline; then a cold start in a second thread and the first thread's warm figure after going back to it. Timed
// inside the page (performance.now() at the Enter keydown, a MutationObserver on the terminal's drawn rows), so the
// test driver's round trips are not in the figures.
//
// Serves dist/ itself (needs `npm run build` first; npm run bench:sandbox does it), or measures an app already
// served elsewhere: BENCH_APP_URL=http://127.0.0.1:4183 (another build, e.g. an older commit's). BENCH_LABEL names
// the build in the heading. Prints numbers only; nothing here is a timed assertion (docs/architecture.md#d10-tests).
import { chromium, type Page } from "@playwright/test";
import { configureMockModel } from "./app-page.ts";
import { startMockLlm } from "../test/mock-llm/server.ts";
import { startPreview, type PreviewServer } from "../scripts/preview-server.ts";

const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
// Not 4180 (bench:stream) nor 4190 (ManageSieve, a port fetch and Chromium refuse).
const PORT = Number(process.env.BENCH_APP_PORT ?? 4182);
const WARM_RUNS = 10;
const BACK_RUNS = 5;
/** A cold start on a busy 2-core machine can take a minute. */
const RUN_TIMEOUT_MS = 180_000;
const PRINT = "python3 -c 'print(1)'";
const ECHO = "echo 1";

// Helpers in the page, as a string: tsx would wrap named functions in a helper the page does not have.
const PAGE_HELPERS = `
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

function row(label: string, times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const median = percentile(sorted, 50);
  const digits = median >= 1000 ? 0 : 1;
  const p95 = times.length > 1 ? percentile(sorted, 95).toFixed(digits) : "—";
  return `| ${label} | ${times.length} | ${median.toFixed(digits)} | ${p95} |`;
}

const mock = await startMockLlm({ port: 0 });
let preview: PreviewServer | undefined;
const app = process.env.BENCH_APP_URL ?? (preview = await startPreview(PORT)).url;
const browser = await chromium.launch({ executablePath: CHROME, args: ["--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage();
  await page.addInitScript({ content: PAGE_HELPERS });
  await page.goto(app);
  // The service worker's precache (Pyodide included) is done before anything is timed.
  await page.evaluate(() => navigator.serviceWorker?.ready);
  await configureMockModel(page, mock.url);

  await sayHello(page);
  const firstThread = await page.evaluate(() => location.hash);
  await openTerminal(page);
  const cold = await timeRuns(page, PRINT, 1);
  const warm = await timeRuns(page, PRINT, WARM_RUNS);
  const echo = await timeRuns(page, ECHO, WARM_RUNS);

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

  console.log(`python3 start in Chromium, built app${process.env.BENCH_LABEL ? ` (${process.env.BENCH_LABEL})` : ""}`);
  console.log("Enter to the row `1` in the Terminal panel, timed in the page\n");
  console.log("| command | runs | median ms | p95 ms |");
  console.log("|---|---|---|---|");
  console.log(row("`echo 1` (the shell's own baseline)", echo));
  console.log(row("`print(1)` cold: the page's first python3", cold));
  console.log(row("`print(1)` warm, same thread", warm));
  console.log(row("`print(1)` cold: first in a second thread", secondCold));
  console.log(row("`print(1)` warm, second thread", secondWarm));
  console.log(row("`print(1)` back in the first thread", back));
  console.log(`(back in the first thread, run by run: ${back.map((ms) => ms.toFixed(1)).join(", ")} ms)`);
} finally {
  await browser.close();
  await mock.close();
  preview?.close();
}
