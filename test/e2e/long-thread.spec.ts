// A long conversation (hundreds of messages, imported as a DeerFlow thread.json): it opens at its last reply, scrolls
// up to its first message, a thread search opens it at an old message, and a new reply streams in at the bottom.
import { expect, test, type Page } from "@playwright/test";
import { assistantMessages, configureEndpoint, conversation, send } from "./fixtures.ts";

const MESSAGES = 400;
const TITLE = "A long conversation";

/** A DeerFlow thread.json of `count` alternating questions and answers; the 7th message holds "narwhal". */
function threadJson(count: number): Buffer {
  const messages = Array.from({ length: count }, (_, index) => {
    const turn = Math.floor(index / 2) + 1;
    const human = index % 2 === 0;
    const extra = index === 6 ? " Where is the narwhal?" : "";
    return {
      type: human ? "human" : "ai",
      id: `long-${index}`,
      content: human
        ? `Question ${turn}: tell me about **item ${turn}**.${extra}`
        : `Answer ${turn}:\n\n- a first point about item ${turn}\n- a second point`,
      additional_kwargs: {},
      response_metadata: {},
    };
  });
  return Buffer.from(JSON.stringify({ values: { title: TITLE, messages } }));
}

async function importLongThread(page: Page): Promise<void> {
  await page.getByLabel("Thread files").setInputFiles({
    name: "thread.json",
    mimeType: "application/json",
    buffer: threadJson(MESSAGES),
  });
  await expect(page.getByRole("navigation", { name: "Threads" }).getByRole("link", { name: TITLE })).toBeVisible();
}

const lastAnswer = `Answer ${MESSAGES / 2}:`;

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "New thread" })).toBeVisible();
});

test("a long thread opens at its last reply and scrolls up to its first message", async ({ page }) => {
  await importLongThread(page);
  const log = conversation(page);
  await expect(assistantMessages(page).filter({ hasText: lastAnswer })).toBeInViewport();
  // Only the messages around the view are in the page.
  expect(await log.getByRole("article").count()).toBeLessThan(MESSAGES / 2);

  // The user scrolls up, a wheel turn at a time, until the first question shows.
  const first = log.getByRole("article", { name: "User message" }).filter({ hasText: "Question 1:" });
  await log.hover();
  await expect(async () => {
    await page.mouse.wheel(0, -4000);
    await expect(first).toBeInViewport({ timeout: 200 });
  }).toPass({ timeout: 30_000 });
  await expect(log.getByText(lastAnswer)).toHaveCount(0);
});

test("a thread search opens the long thread at the old message it found", async ({ page }) => {
  await importLongThread(page);
  await expect(assistantMessages(page).filter({ hasText: lastAnswer })).toBeInViewport();
  await page.getByRole("button", { name: "New thread" }).click();

  await page.getByRole("searchbox", { name: "Search threads" }).fill("narwhal");
  await page.getByRole("navigation", { name: "Threads" }).getByRole("link", { name: TITLE }).click();
  await expect(
    conversation(page).getByRole("article", { name: "User message" }).filter({ hasText: "Where is the narwhal?" }),
  ).toBeInViewport();
});

test("a new reply in a long thread streams in at the bottom, in view", async ({ page }) => {
  await configureEndpoint(page);
  await importLongThread(page);
  await expect(assistantMessages(page).filter({ hasText: lastAnswer })).toBeInViewport();

  // A slow reply (a word every 60 ms): it stays in view while it grows.
  await send(page, "please write something long");
  const reply = assistantMessages(page).last();
  await expect(reply).toContainText("Sentence 2 of a long reply.");
  await expect(reply).toBeInViewport();
  await expect(reply).toContainText("Sentence 4 of a long reply.");
  await expect(reply).toBeInViewport();
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(conversation(page).getByRole("article", { name: "User message" }).last()).toHaveText(
    "please write something long",
  );
  await expect(assistantMessages(page).filter({ hasText: lastAnswer })).toHaveCount(1);
});

test("a reply streaming in a long thread lets the user read above: scrolled up, the view stays put", async ({
  page,
}) => {
  await configureEndpoint(page);
  await importLongThread(page);
  await expect(assistantMessages(page).filter({ hasText: lastAnswer })).toBeInViewport();

  await send(page, "please write something long");
  const reply = assistantMessages(page).last();
  await expect(reply).toContainText("Sentence 2 of a long reply.");
  await expect(reply).toBeInViewport();
  const log = conversation(page);
  await log.hover();
  await page.mouse.wheel(0, -3000);
  await expect(reply).not.toBeInViewport();
  const top = await log.evaluate((element) => element.scrollTop);
  // The reply grows below; the view is not pulled back to it.
  await expect(reply).toContainText("Sentence 5 of a long reply.");
  await expect(reply).not.toBeInViewport();
  expect(Math.abs((await log.evaluate((element) => element.scrollTop)) - top)).toBeLessThan(5);
  await page.getByRole("button", { name: "Stop" }).click();
});
