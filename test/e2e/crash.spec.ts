// Crash in the browser (docs/reliability.md, suite crash-browser): the mock model's crash drill (five steps: two
// streamed file writes, a command writing a file, present_files and a streamed reply) is cut at a seeded random
// moment by one of three faults: the renderer crashes (CDP Page.crash), the tab closes, or the agent worker is
// terminated (CDP, in the worker's own target). A new page of the same browser then reopens the thread and must show
// exactly what IndexedDB holds: the head checkpoint's messages, no step shown done that has no saved result, no half
// reply, every saved file whole, Artifacts as saved; nothing saved before the cut is gone; and "Continue" finishes the
// turn without doing a step twice. Quick: one case per fault; full (FAWN_RELIABILITY=full): 50.
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { crashDrillDoneText, crashDrillFiles } from "../mock-llm/crash-drill.ts";
import { firstSeed, recordCase, reliabilityCases, seededRandom } from "../support/reliability.ts";
import { assistantMessages, configureEndpoint, conversation, send } from "./fixtures.ts";
import { savedThread, unanswered, type SavedThread } from "./saved-thread.ts";

const FAULTS = ["renderer crash", "tab closed", "worker terminated"] as const;
type Fault = (typeof FAULTS)[number];

/** A cut comes once `steps` tool steps show done (0-4; at 4 the closing reply streams), then `delayMs` later. */
const LATEST_DELAY_MS = 1500;

// Every Playwright worker loads this file; under `npm run reliability` the seed comes from the clock, so the first
// process to load it fixes it for the rest (they inherit its environment).
process.env.FAWN_RELIABILITY_SEED ??= String(firstSeed());
const SEED = firstSeed();

const CASES = reliabilityCases(3, 50);

/** The seeded plan of the case with seed `seed`: which fault, and when (after how many done steps, then how long). */
function plan(seed: number): { fault: Fault; steps: number; delayMs: number; key: string } {
  const random = seededRandom(seed);
  const steps = Math.floor(random() * 5);
  const delayMs = Math.floor(random() * LATEST_DELAY_MS);
  return { fault: FAULTS[seed % FAULTS.length] as Fault, steps, delayMs, key: `k${seed.toString(36)}` };
}

/** The status marks of every tool step on screen, in order ("Done", "Running", "Waiting for its result", "Failed"). */
function stepMarks(page: Page): Promise<string[]> {
  return conversation(page)
    .locator(".tool-step .step-status")
    .evaluateAll((marks) => marks.map((mark) => mark.getAttribute("aria-label") ?? ""));
}

/** The marks the saved messages call for: each saved call is done once its result is saved, else it is waiting. */
function expectedMarks(saved: SavedThread): string[] {
  const answered = new Set(saved.messages.flatMap((message) => message.toolCallId ?? []));
  return saved.messages.flatMap((message) =>
    message.toolCalls.map((call) => (answered.has(call.id) ? "Done" : "Waiting for its result")),
  );
}

function artifactNames(saved: SavedThread, key: string): string[] {
  const presented = saved.messages.some(
    (message) =>
      message.type === "tool" && message.toolCallId !== undefined && presentCallIds(saved).has(message.toolCallId),
  );
  const [first, , third] = crashDrillFiles(key);
  return presented ? [first, third].map((file) => file?.path.split("/").at(-1) ?? "") : [];
}

function presentCallIds(saved: SavedThread): Set<string> {
  return new Set(
    saved.messages.flatMap((message) =>
      message.toolCalls.filter((call) => call.name === "present_files").map((call) => call.id),
    ),
  );
}

/** Cuts the run by `fault`; resolves once the page (or its worker) is gone. */
async function cut(page: Page, context: BrowserContext, fault: Fault): Promise<void> {
  if (fault === "tab closed") {
    await page.close();
  } else if (fault === "renderer crash") {
    const session = await context.newCDPSession(page);
    const crashed = page.waitForEvent("crash");
    // The renderer dies before it can answer.
    void session.send("Page.crash").catch(() => undefined);
    await crashed;
  } else {
    const worker = page.workers().find((candidate) => candidate.url().includes("agent.worker"));
    if (!worker) throw new Error("the agent worker is not running");
    const closed = new Promise<void>((resolve) => worker.once("close", () => resolve()));
    // CDP Runtime.evaluate in the worker's target: it stops there, as a worker the browser terminates does.
    void worker.evaluate("self.close()").catch(() => undefined);
    await closed;
    // The tab is left showing a run that never ends (nothing tells a page its worker is gone): the user closes it.
    await page.close();
  }
}

/** Checks that the screen shows exactly the saved thread `saved`; resolves once it does (the page may still be loading it). */
async function expectShowsSaved(page: Page, saved: SavedThread, key: string): Promise<void> {
  const humans = saved.messages.filter((message) => message.type === "human");
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible({ timeout: 30_000 });
  await expect(conversation(page).getByRole("article", { name: "User message" })).toHaveCount(humans.length, {
    timeout: 30_000,
  });
  await expect.poll(() => stepMarks(page), { message: "tool steps as saved" }).toEqual(expectedMarks(saved));
  const done = crashDrillDoneText(key);
  const doneSaved = saved.messages.some((message) => message.type === "ai" && message.text === done);
  if (doneSaved) await expect(assistantMessages(page).last()).toContainText(done);
  // No half reply: the closing sentence shows whole when it is saved, and not a word of it otherwise.
  else await expect(conversation(page)).not.toContainText(`Drill ${key} is`);
  const artifacts = page.getByRole("region", { name: "Artifacts" });
  for (const name of artifactNames(saved, key)) {
    await expect(artifacts.getByRole("button", { name: `Preview ${name}`, exact: true })).toBeVisible();
  }
  const notPresented = artifacts.getByRole("button", { name: `Preview drill-${key}-3.md`, exact: true });
  if (artifactNames(saved, key).length === 0) await expect(notPresented).toHaveCount(0);
  const resumable = unanswered(saved.messages);
  await expect(page.getByText("This reply was cut off before it finished.")).toHaveCount(resumable ? 1 : 0);
  await expect(page.getByRole("button", { name: "Continue" })).toHaveCount(resumable ? 1 : 0);
}

/** Problems with the thread's files: a drill file whose bytes are not the whole file, or a saved step's file missing. */
function fileProblems(saved: SavedThread, key: string): string[] {
  const problems: string[] = [];
  const results = saved.messages.filter((message) => message.type === "tool").length;
  crashDrillFiles(key).forEach((file, index) => {
    const bytes = saved.files[file.path];
    if (bytes !== undefined && bytes !== file.content)
      problems.push(`${file.path} is half-written (${bytes.length} bytes)`);
    if (bytes === undefined && index < results) problems.push(`${file.path} is missing though its step is saved`);
  });
  return problems;
}

/** What was saved before the cut and is gone after it: messages (by id) and files (by path and bytes). */
function lostItems(before: SavedThread, after: SavedThread): string[] {
  const ids = new Set(after.messages.map((message) => message.id));
  return [
    ...before.messages.filter((message) => !ids.has(message.id)).map((message) => `message ${message.id}`),
    ...Object.entries(before.files)
      .filter(([path, bytes]) => after.files[path] !== bytes)
      .map(([path]) => `file ${path}`),
  ];
}

/** The finished turn: one user message, each of the four steps once with its result, the closing reply, every file whole. */
function finishedProblems(saved: SavedThread, key: string): string[] {
  const problems = fileProblems(saved, key);
  const steps = saved.messages.flatMap((message) => message.toolCalls.map((call) => call.name));
  const results = saved.messages.flatMap((message) => message.toolCallId ?? []);
  if (saved.messages.filter((message) => message.type === "human").length !== 1) problems.push("not one user message");
  if (steps.join() !== "write_file,bash,write_file,present_files") problems.push(`steps ${steps.join()}`);
  if (new Set(results).size !== 4 || results.length !== 4) problems.push(`${results.length} results`);
  if (saved.messages.at(-1)?.text !== crashDrillDoneText(key)) problems.push("no closing reply");
  for (const file of crashDrillFiles(key))
    if (saved.files[file.path] === undefined) problems.push(`${file.path} missing`);
  return problems;
}

/** Where the run was when it was cut, in words, from what was saved. */
function stage(saved: SavedThread): string {
  const results = saved.messages.filter((message) => message.type === "tool").length;
  if (saved.messages.length === 0) return "before anything was saved";
  if (!unanswered(saved.messages)) return "after the turn finished";
  return `after ${results} saved step${results === 1 ? "" : "s"}`;
}

for (let index = 0; index < CASES; index++) {
  const seed = SEED + index;
  const { fault, steps, delayMs, key } = plan(seed);
  const when = `${delayMs} ms after ${steps} done step${steps === 1 ? "" : "s"}`;
  test(`crash case ${index + 1}: ${fault} mid-run; the reopened thread is as saved and Continue finishes it`, async ({
    page,
    context,
  }) => {
    // A drill, its cut, the reopen and Continue: a few runs of ~5 s each, far slower on a busy machine.
    test.setTimeout(180_000);
    test.info().annotations.push({ type: "seed", description: String(seed) });
    let where = "";

    let lost: string[] = [];
    try {
      await page.goto("/");
      await configureEndpoint(page);
      if (fault === "worker terminated") {
        await expect.poll(() => page.workers().some((worker) => worker.url().includes("agent.worker"))).toBe(true);
      }
      await send(page, `crash drill ${key}`);
      await expect
        .poll(async () => (await stepMarks(page)).filter((mark) => mark === "Done").length, { timeout: 60_000 })
        .toBeGreaterThanOrEqual(steps);
      // Then a moment, not a state: whatever the run is doing `delayMs` later is cut.
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const before = await savedThread(page);
      const cutAt = Date.now();
      await cut(page, context, fault);

      const again = await context.newPage();
      await again.goto(before.threadId ? `/#/t/${before.threadId}` : "/");
      const after = await savedThread(again);
      where = stage(after);
      lost = lostItems(before, after);
      expect(lost, "saved before the cut, gone after it").toEqual([]);
      expect(fileProblems(after, key), "files as saved").toEqual([]);
      await expectShowsSaved(again, after, key);
      const recoveryMs = Date.now() - cutAt;

      // Cut before the run saved its first step (the user's message): nothing was saved, so nothing is lost, and the
      // thread takes the message again.
      if (after.messages.length === 0) await send(again, `crash drill ${key}`);
      else if (unanswered(after.messages)) await again.getByRole("button", { name: "Continue" }).click();
      if (after.messages.length === 0 || unanswered(after.messages)) {
        await expect(assistantMessages(again).last()).toContainText(crashDrillDoneText(key), { timeout: 90_000 });
        await expect(again.getByRole("button", { name: "Stop" })).toBeHidden();
      }
      const finished = await savedThread(again);
      expect(finishedProblems(finished, key), "the finished turn").toEqual([]);
      await expectShowsSaved(again, finished, key);
      recordCase("crash-browser", {
        case: `seed ${seed}, ${fault} ${when}, ${where}`,
        survived: true,
        lost: 0,
        recoveryMs,
        ...(after.messages.length === 0 && { detail: "cut before the message was saved: sent again" }),
      });
    } catch (error) {
      recordCase("crash-browser", {
        case: `seed ${seed}, ${fault} ${when}, ${where || "before the reopen"}`,
        survived: false,
        lost: lost.length,
        detail: String(error instanceof Error ? error.message : error)
          .split("\n")[0]
          ?.slice(0, 300),
      });
      throw error;
    }
  });
}
