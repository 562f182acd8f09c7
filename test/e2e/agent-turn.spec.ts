// One agent turn reads as one answer: its steps named for people, one Regenerate and one token count at its end, a
// step waiting for its result marked as waiting (live and in replay), a clarification's answer shown once (on its
// card), and a notice styled by its kind that stays in the thread it belongs to.
import { expect, test, type Download, type Page } from "@playwright/test";
import { assistantMessages, callTool, configureEndpoint, conversation, send } from "./fixtures.ts";

async function bytesOf(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function threadAction(page: Page, item: string): Promise<void> {
  await page.getByRole("button", { name: "Thread actions" }).click();
  await page.getByRole("menuitem", { name: item }).click();
}

async function idle(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
}

/** The accessible names of the status marks of every tool step on screen, in order. */
async function stepMarks(page: Page): Promise<string[]> {
  return conversation(page)
    .locator(".tool-step .step-status")
    .evaluateAll((marks) => marks.map((mark) => mark.getAttribute("aria-label") ?? ""));
}

test("a replayed step waiting for its result shows as waiting, then done; never as failed", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, callTool("bash", { command: "echo replayed" }));
  await expect(assistantMessages(page).last()).toContainText("The tool returned:");
  await idle(page);

  await threadAction(page, "Replay");
  const replay = page.getByRole("region", { name: "Replay" });
  await replay.getByRole("button", { name: "Pause" }).click();
  const position = replay.getByText(/^Step \d+ of \d+$/);
  while (!/^Step 1 of/.test((await position.textContent()) ?? "")) {
    await replay.getByRole("button", { name: "Previous step" }).click();
  }
  const count = Number(/of (\d+)$/.exec((await position.textContent()) ?? "")?.[1]);
  const seen: string[][] = [];
  for (let step = 1; step <= count; step++) {
    await expect(position).toHaveText(`Step ${step} of ${count}`);
    seen.push(await stepMarks(page));
    if (step < count) await replay.getByRole("button", { name: "Next step" }).click();
  }
  const marks = seen.flat();
  expect(marks).not.toContain("Failed");
  expect(marks).toContain("Waiting for its result");
  expect(seen.at(-1)).toEqual(["Done"]);
  // The waiting step's row says so in words too, not only by its mark.
  while (!/^Step 1 of/.test((await position.textContent()) ?? "")) {
    await replay.getByRole("button", { name: "Previous step" }).click();
  }
  while (!(await stepMarks(page)).includes("Waiting for its result")) {
    await replay.getByRole("button", { name: "Next step" }).click();
  }
  const waiting = conversation(page).locator('.tool-step[data-status="pending"]');
  await expect(waiting).toHaveCount(1);
  await expect(waiting.getByRole("img", { name: "Waiting for its result" })).toBeVisible();
});

test("an answer of several steps has one Regenerate and one token count, at its end, and steps named for people", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  await page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Pro" }).check();
  const todos = [
    { content: "Read the notes", status: "completed" },
    { content: "Write the report", status: "in_progress" },
  ];
  await send(page, callTool("write_todos", { todos }));
  await expect(page.getByRole("region", { name: "Plan" })).toContainText("Write the report");
  await expect(assistantMessages(page).last()).toContainText("The tool returned:");
  await idle(page);
  await send(page, callTool("bash", { command: "echo second" }));
  await expect(assistantMessages(page).last()).toContainText("The tool returned:");
  await idle(page);

  for (const shown of ["live", "reloaded"]) {
    if (shown === "reloaded") await page.reload();
    const log = conversation(page);
    // Two answers of two model steps each: one Regenerate and one token count per answer.
    await expect(assistantMessages(page)).toHaveCount(4);
    await expect(log.getByRole("button", { name: "Regenerate" }), shown).toHaveCount(2);
    await expect(assistantMessages(page).nth(1).getByRole("button", { name: "Regenerate" })).toHaveCount(1);
    await expect(assistantMessages(page).nth(3).getByRole("button", { name: "Regenerate" })).toHaveCount(1);
    const usage = log.locator(".token-usage");
    await expect(usage, shown).toHaveCount(2);
    // Each count comes after its answer's last message and sums the answer's steps: together, the thread's total.
    const totals = (await usage.allTextContents()).map((text) => Number(text.replace(/\D/g, "")));
    const header = Number(((await page.locator(".thread-tokens").textContent()) ?? "").replace(/\D/g, ""));
    expect(totals[0]! + totals[1]!).toBe(header);
    const after = await usage.evaluateAll((counts) =>
      counts.map((count) => {
        const articles = [...document.querySelectorAll('[aria-label="Assistant message"]')];
        const before = articles.filter(
          (article) => article.compareDocumentPosition(count) & Node.DOCUMENT_POSITION_FOLLOWING,
        );
        return before.length;
      }),
    );
    expect(after).toEqual([2, 4]);

    // Steps say what happened; the tool's own name is in the step's details.
    const steps = log.getByRole("list", { name: "Tool calls" });
    await expect(steps.first()).toContainText("Updated the plan");
    await expect(steps.last()).toContainText("Ran echo second");
    await expect(log).not.toContainText("Used write_todos");
    await steps.first().locator("summary").click();
    await expect(steps.first()).toContainText("Tool: write_todos");
  }
});

test("a clarification's answer shows once, on its card, and the model still reads it; also after reload and import", async ({
  page,
  browser,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(
    page,
    'call tool ask_clarification {"question":"Which format?","clarification_type":"approach_choice","options":["PDF","Plain text"]}',
  );
  const card = conversation(page).getByRole("group", { name: "Clarification" });
  await card.getByRole("button", { name: "PDF" }).click();
  // The model got the answer with its question.
  await expect(assistantMessages(page).last()).toHaveText(
    'You said: For your clarification "Which format?", my answer is: PDF',
  );
  await idle(page);

  const expectOnce = async (target: Page, when: string) => {
    const log = conversation(target);
    await expect(log.getByRole("group", { name: "Clarification" }), when).toContainText("Your answer: PDF");
    const users = log.getByRole("article", { name: "User message" });
    await expect(users, when).toHaveCount(1);
    await expect(users, when).toContainText("call tool ask_clarification");
    await expect(users.filter({ hasText: "my answer is" }), when).toHaveCount(0);
  };
  await expectOnce(page, "live");
  await page.reload();
  await expectOnce(page, "reloaded");

  const saving = page.waitForEvent("download");
  await threadAction(page, "Export");
  await page.getByRole("menuitem", { name: "Fawn bundle (.fawn)" }).click();
  const bundle = await saving;
  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto("/");
  await other.getByLabel("Thread files").setInputFiles({
    name: bundle.suggestedFilename(),
    mimeType: "application/octet-stream",
    buffer: await bytesOf(bundle),
  });
  await expect(other.getByRole("region", { name: "Imported thread" })).toBeVisible();
  await expectOnce(other, "imported");
  await context.close();
});

test("a /compact success is a status notice, not an error, and stays in its thread", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  const filler = "pebble ".repeat(300);
  for (const [index, text] of [`first ${filler}`, "second", "third"].entries()) {
    await send(page, text);
    await expect(assistantMessages(page)).toHaveCount(index + 1);
    await expect(assistantMessages(page).last()).toContainText("You said:");
    await idle(page);
  }
  const compacted = page.locator(".notice").filter({ hasText: "Compacted:" });
  await page.getByRole("textbox", { name: "Message" }).click();
  await page.keyboard.type("/compact");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Compacted: 2 older messages" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Compacted:" })).toHaveCount(0);
  await expect(compacted).toHaveAttribute("data-kind", "success");
  const styles = await compacted.evaluate((element) => {
    const style = getComputedStyle(element);
    return { background: style.backgroundColor, border: style.borderColor };
  });
  const errorStyle = await page.evaluate(() => {
    const probe = document.createElement("div");
    probe.className = "notice";
    probe.dataset.kind = "error";
    document.querySelector(".main")!.append(probe);
    const style = getComputedStyle(probe);
    const result = { background: style.backgroundColor, border: style.borderColor };
    probe.remove();
    return result;
  });
  expect(styles.background).not.toBe(errorStyle.background);

  // Another thread: the notice stays behind.
  await page.getByRole("button", { name: "New thread" }).click();
  await send(page, "elsewhere");
  await expect(assistantMessages(page).last()).toContainText("You said: elsewhere");
  await expect(compacted).toHaveCount(0);
  await page.getByRole("navigation", { name: "Threads" }).getByRole("link").last().click();
  await expect(conversation(page).getByRole("article", { name: "User message" }).first()).toContainText("first");
  await page.getByRole("navigation", { name: "Threads" }).getByRole("link").first().click();
  await expect(assistantMessages(page).last()).toContainText("You said: elsewhere");
  await expect(compacted).toHaveCount(0);
});
