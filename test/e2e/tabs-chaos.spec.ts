// The tabs reliability suite (docs/reliability.md, suite "tabs"): three tabs of one browser act at random (seeded) on
// the same three threads: send, stop, rename, switch thread, reload. After every action no thread has two runs at
// once (the run records in IndexedDB: no two runs' times overlap); at the end every tab
// shows the same thread list, and each the same messages as a freshly opened tab. Quick: one round of 8 actions;
// full (`npm run reliability`): 20 rounds.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { firstSeed, recordCase, reliabilityCases, seededRandom } from "../support/reliability.ts";
import { assistantMessages, configureEndpoint, conversation, send } from "./fixtures.ts";

const ACTIONS = ["send", "send", "stop", "rename", "switch", "reload"] as const;
type Action = (typeof ACTIONS)[number];

test.describe.configure({ timeout: reliabilityCases(150_000, 1_800_000) });

interface StoredRun {
  thread_id: string;
  run_id: string;
  status: string;
  created_at: number;
  updated_at: number;
}

/** Every run record Fawn stored, read in `page` through a connection of its own. */
function storedRuns(page: Page): Promise<StoredRun[]> {
  return page.evaluate(
    () =>
      new Promise<StoredRun[]>((resolve, reject) => {
        const open = indexedDB.open("fawn");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const request = db.transaction("runs").objectStore("runs").getAll();
          request.onsuccess = () => {
            db.close();
            resolve(request.result as StoredRun[]);
          };
          request.onerror = () => reject(request.error);
        };
      }),
  );
}

/**
 * What "never two runs on one thread at once" forbids, in words; empty when it holds. A run's record spans its start
 * to its last save (a run whose tab was reloaded mid-way stays "running": Continue resumes it), so two runs of one
 * thread at once show as a run that started before the one before it had saved for the last time.
 */
function overlappingRuns(runs: readonly StoredRun[]): string[] {
  const problems: string[] = [];
  const byThread = new Map<string, StoredRun[]>();
  for (const run of runs) byThread.set(run.thread_id, [...(byThread.get(run.thread_id) ?? []), run]);
  for (const [threadId, list] of byThread) {
    const sorted = [...list].sort((a, b) => a.created_at - b.created_at);
    for (let i = 1; i < sorted.length; i++) {
      const before = sorted[i - 1] as StoredRun;
      const after = sorted[i] as StoredRun;
      if (after.created_at < before.updated_at) {
        problems.push(`${threadId}: run ${after.run_id} started before ${before.run_id} had saved its last step`);
      }
    }
  }
  return problems;
}

function threadList(page: Page) {
  return page.getByRole("navigation", { name: "Threads" }).getByRole("link");
}

/** The messages a tab shows: each user and assistant article's text. */
async function shownMessages(page: Page): Promise<string[]> {
  return conversation(page)
    .getByRole("article")
    .evaluateAll((articles) =>
      articles.map((article) => `${article.getAttribute("aria-label")}: ${article.textContent}`),
    );
}

function threadIdOf(page: Page): string | undefined {
  return /#\/t\/([^/?]+)/.exec(page.url())?.[1];
}

/** Shows `threadId` in `page` (an in-app switch), and waits until its messages are on screen. */
async function openThreadIn(page: Page, threadId: string): Promise<void> {
  if (threadIdOf(page) !== threadId) await page.evaluate((id) => (location.hash = `#/t/${id}`), threadId);
  await expect(page).toHaveURL(new RegExp(`#/t/${threadId}`));
  await expect(conversation(page).getByRole("article", { name: "User message" }).first()).toBeVisible({
    timeout: 30_000,
  });
}

async function idle(page: Page): Promise<boolean> {
  return page.getByRole("button", { name: "Send" }).isVisible();
}

/** One round: a fresh browser context, three threads, three tabs, `count` seeded actions. */
async function round(browser: Browser, baseURL: string | undefined, seed: number, count: number): Promise<void> {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const context = await browser.newContext({ ...(baseURL && { baseURL }) });
  try {
    const first = await context.newPage();
    await first.goto("/");
    await configureEndpoint(first);
    const threads: string[] = [];
    for (let index = 0; index < 3; index++) {
      if (index > 0) await first.getByRole("button", { name: "New thread" }).click();
      await send(first, `hello ${index + 1}`);
      await expect(assistantMessages(first).last()).toContainText("answer from a script.", { timeout: 30_000 });
      await expect(first.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
      threads.push(threadIdOf(first) as string);
    }
    const tabs = [first, await context.newPage(), await context.newPage()];
    for (const tab of tabs.slice(1)) {
      await tab.goto(`/#/t/${pick(threads)}`);
      await expect(conversation(tab).getByRole("article", { name: "User message" }).first()).toBeVisible({
        timeout: 30_000,
      });
    }

    const done: string[] = [];
    for (let step = 0; step < count; step++) {
      const tabIndex = Math.floor(random() * tabs.length);
      const tab = tabs[tabIndex] as Page;
      const threadId = pick(threads);
      const action: Action = pick(ACTIONS);
      done.push(`${action} t${threads.indexOf(threadId) + 1}@tab${tabIndex + 1}`);
      if (action === "send") {
        await openThreadIn(tab, threadId);
        if (!(await idle(tab))) continue;
        const long = random() < 0.35;
        await send(tab, long ? "something long please" : "hello again");
        // It runs here, or is refused at once because another tab runs this thread; either way it is said.
        await expect(
          tab
            .getByRole("button", { name: "Stop" })
            .or(tab.getByRole("alert").filter({ hasText: "running a reply in another tab" }).first())
            .or(assistantMessages(tab).last().filter({ hasText: "answer from a script." }))
            .first(),
        ).toBeVisible({ timeout: 20_000 });
      } else if (action === "stop") {
        const stop = tab.getByRole("button", { name: "Stop" });
        if (await stop.isVisible()) {
          await stop.click({ timeout: 2_000 }).catch(() => undefined);
          await expect(tab.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 20_000 });
        }
      } else if (action === "rename") {
        await openThreadIn(tab, threadId);
        const title = `Renamed ${step + 1} (seed ${seed})`;
        await tab.getByRole("button", { name: "Thread actions" }).click();
        await tab.getByRole("menuitem", { name: "Rename" }).click();
        const dialog = tab.getByRole("dialog", { name: "Rename thread" });
        await dialog.getByRole("textbox", { name: "Title" }).fill(title);
        await dialog.getByRole("button", { name: "Save" }).click();
        await expect(dialog).toBeHidden();
      } else if (action === "switch") {
        await openThreadIn(tab, threadId);
      } else {
        await tab.reload();
        // Generous: a tab reopened while another streams a reply has taken up to the length of that reply to open
        // here (the agent worker's first answer comes late); reported, not yet explained.
        await expect(conversation(tab).getByRole("article", { name: "User message" }).first()).toBeVisible({
          timeout: 30_000,
        });
      }
      expect(overlappingRuns(await storedRuns(tab)), `after ${done.join(", ")}`).toEqual([]);
    }

    // Every run stopped or finished, then all tabs agree with each other and with a fresh tab.
    for (const tab of tabs) {
      const stop = tab.getByRole("button", { name: "Stop" });
      // The run may end by itself between the look and the click.
      if (await stop.isVisible()) await stop.click({ timeout: 2_000 }).catch(() => undefined);
    }
    for (const tab of tabs) await expect(tab.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
    expect(overlappingRuns(await storedRuns(first))).toEqual([]);
    const truth = await context.newPage();
    for (const tab of tabs) {
      const threadId = threadIdOf(tab);
      await expect
        .poll(() => threadList(tab).allTextContents(), { timeout: 20_000 })
        .toEqual(await threadList(first).allTextContents());
      if (!threadId) continue;
      await truth.goto(`/#/t/${threadId}`);
      await expect(conversation(truth).getByRole("article", { name: "User message" }).first()).toBeVisible();
      await expect(truth.getByRole("button", { name: "Send" })).toBeVisible();
      const expected = await shownMessages(truth);
      await expect.poll(() => shownMessages(tab), { timeout: 20_000 }).toEqual(expected);
    }
    expect(new Set(await Promise.all(tabs.map((tab) => threadList(tab).allTextContents().then(String)))).size).toBe(1);
    recordCase("tabs", { case: `seed ${seed}: ${done.join(", ")}`, survived: true, lost: 0 });
  } catch (error) {
    recordCase("tabs", {
      case: `seed ${seed}`,
      survived: false,
      lost: 0,
      // eslint-disable-next-line no-control-regex
      detail: (error instanceof Error ? error.message : String(error)).replace(/\u001b\[[0-9;]*m/g, "").slice(0, 1500),
    });
    throw error;
  } finally {
    await context.close();
  }
}

test("three tabs acting at random on the same threads never run one thread twice at once, and converge", async ({
  browser,
  baseURL,
}) => {
  const rounds = reliabilityCases(1, 20);
  const seed = firstSeed();
  // npm test's one round is shorter (8 actions), to keep CI's time; each full round has 12.
  const actions = reliabilityCases(8, 12);
  // Every round runs, a failed one included (each records its case), then the test fails if any did.
  const failed: string[] = [];
  for (let index = 0; index < rounds; index++) {
    await round(browser, baseURL, seed + index, actions).catch((error: unknown) => {
      failed.push(`seed ${seed + index}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
  expect(failed).toEqual([]);
});
