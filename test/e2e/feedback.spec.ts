// Feedback on a reply as a user meets it: "Good reply" / "Bad reply" under the answer (pressed shows as pressed, the
// chosen one pressed again takes it back), an optional comment, kept over a reload, counted in Settings → Data, and
// carried by a backup: gone with "Delete all data", back with the backup's import.
import { readFileSync } from "node:fs";
import { expect, test, type Locator } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import {
  assistantMessages,
  closeSettings,
  configureEndpoint,
  expectNoA11yViolations,
  openSettings,
  send,
} from "./fixtures.ts";

const pressed = (button: Locator, value: boolean) => expect(button).toHaveAttribute("aria-pressed", String(value));

test("rate a reply with a comment, see it after a reload, counted in Data, and kept through a backup", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, "Name a bee");
  const reply = assistantMessages(page).last();
  await expect(reply).toContainText("You said: Name a bee");
  const good = reply.getByRole("button", { name: "Good reply" });
  const bad = reply.getByRole("button", { name: "Bad reply" });
  await pressed(good, false);
  await pressed(bad, false);

  // Good, then Skip: rated without a comment. Pressed again: taken back.
  await good.click();
  await pressed(good, true);
  const comment = reply.getByRole("textbox", { name: "Comment" });
  await expect(comment).toBeFocused();
  await reply.getByRole("button", { name: "Skip" }).click();
  await expect(comment).toBeHidden();
  await good.click();
  await pressed(good, false);

  // Bad, with a comment.
  await bad.click();
  await pressed(bad, true);
  await pressed(good, false);
  await comment.fill("It named no bee.");
  await expectNoA11yViolations(page, "a reply's feedback comment");
  await reply.getByRole("button", { name: "Send" }).click();
  await expect(comment).toBeHidden();

  await page.reload();
  const reloaded = assistantMessages(page).last();
  await pressed(reloaded.getByRole("button", { name: "Bad reply" }), true);
  await pressed(reloaded.getByRole("button", { name: "Good reply" }), false);

  // Counted in Settings → Data; exported in the backup with its comment.
  const dialog = await openSettings(page, "Data");
  await expect(dialog.getByText("Feedback on replies: 0 good, 1 bad")).toBeVisible();
  const downloading = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Export all data" }).click();
  const download = await downloading;
  const archive = readFileSync(await download.path());
  const members = Object.values(unzipSync(new Uint8Array(archive))).map((data) => strFromU8(data));
  expect(members.some((text) => text.includes("It named no bee."))).toBe(true);

  await dialog.getByRole("button", { name: "Delete all data" }).click();
  await dialog
    .getByRole("group", { name: "Confirm deleting all data" })
    .getByRole("button", { name: "Delete everything" })
    .click();
  await expect(dialog.getByRole("status").filter({ hasText: "All data was deleted" })).toBeVisible();
  await expect(dialog.getByText("Feedback on replies: 0 good, 0 bad")).toBeVisible();

  // The backup sets the endpoint's address again, so it asks first.
  await dialog.getByLabel("Backup file to import").setInputFiles({
    name: download.suggestedFilename(),
    mimeType: "application/zip",
    buffer: archive,
  });
  await page
    .getByRole("dialog", { name: "Confirm what the backup adds" })
    .getByRole("button", { name: "Import and add these" })
    .click();
  await expect(dialog.getByRole("status").filter({ hasText: "Imported 1 thread." })).toBeVisible();
  await expect(dialog.getByText("Feedback on replies: 0 good, 1 bad")).toBeVisible();
  await closeSettings(page);

  await page.getByRole("navigation", { name: "Threads" }).getByRole("link").first().click();
  const restored = assistantMessages(page).last();
  await expect(restored).toContainText("You said: Name a bee");
  await pressed(restored.getByRole("button", { name: "Bad reply" }), true);
});
