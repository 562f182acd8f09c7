// Long-term memory as the user meets it: a preference said in one thread reaches the next, and Settings → Memory
// shows it and can delete it.
import { expect, test, type Page } from "@playwright/test";
import {
  assistantMessages,
  closeSettings,
  configureEndpoint,
  openSettings,
  send,
  systemPromptFor,
} from "./fixtures.ts";

const FACT = "User prefers dark roast coffee";

/** Settings → Memory with updates applied right after a run instead of 30 s later. */
async function learnAtOnce(page: Page): Promise<void> {
  const dialog = await openSettings(page, "Memory");
  await dialog.getByRole("spinbutton", { name: "Update delay (seconds)" }).fill("0");
  await dialog.getByRole("button", { name: "Save memory settings" }).click();
  await expect(dialog.getByRole("status")).toContainText("Saved");
  await closeSettings(page);
}

async function newThreadSays(page: Page, text: string): Promise<void> {
  await page.getByRole("button", { name: "New thread" }).click();
  await send(page, text);
  await expect(assistantMessages(page).last()).toHaveText(`You said: ${text}`);
}

test("a preference stated in one thread is in the next thread's prompt; the Memory tab lists and deletes it", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  await learnAtOnce(page);

  await send(page, "For the record, I prefer dark roast coffee.");
  await expect(assistantMessages(page).last()).toHaveText("You said: For the record, I prefer dark roast coffee.");

  // The update runs after the reply; the tab shows what is stored when it opens.
  await expect(async () => {
    const dialog = await openSettings(page, "Memory");
    try {
      await expect(dialog.getByRole("table", { name: "Facts" })).toContainText(FACT, { timeout: 1_000 });
    } finally {
      await closeSettings(page);
    }
  }).toPass({ timeout: 15_000 });

  await newThreadSays(page, "What should I drink this morning?");
  expect(await systemPromptFor(page, "What should I drink this morning?")).toContain(FACT);

  const dialog = await openSettings(page, "Memory");
  await dialog.getByRole("button", { name: `Delete fact: ${FACT}` }).click();
  await dialog.getByRole("button", { name: "Confirm delete" }).click();
  await expect(dialog.getByRole("table", { name: "Facts" })).toHaveCount(0);
  await expect(dialog.getByText(FACT)).toHaveCount(0);
  await closeSettings(page);

  await newThreadSays(page, "And what about the afternoon?");
  expect(await systemPromptFor(page, "And what about the afternoon?")).not.toContain(FACT);
});

test("with memory switched off nothing is learned", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  const dialog = await openSettings(page, "Memory");
  await dialog.getByRole("spinbutton", { name: "Update delay (seconds)" }).fill("0");
  await dialog.getByRole("checkbox", { name: "Use memory" }).uncheck();
  await dialog.getByRole("button", { name: "Save memory settings" }).click();
  await expect(dialog.getByRole("status")).toContainText("Saved");
  await closeSettings(page);

  await send(page, "Note that I use Emacs for everything.");
  await expect(assistantMessages(page).last()).toHaveText("You said: Note that I use Emacs for everything.");
  await newThreadSays(page, "Which editor do I use?");
  expect(await systemPromptFor(page, "Which editor do I use?")).not.toContain("Emacs");
  const memory = await openSettings(page, "Memory");
  await expect(memory.getByText("Nothing remembered yet.")).toBeVisible();
});
