// Scheduled runs as a user meets them in the browser: Thread actions → "Schedule…" makes a schedule for the open
// thread (the dialog says a closed browser runs nothing), and when its time comes (the page's clock moved on a
// minute) its prompt runs in the open thread and the reply streams in; Settings → Schedules shows how it went, turns
// it off and deletes it.
import { expect, test } from "@playwright/test";
import { assistantMessages, clickSettings, configureEndpoint, expectNoA11yViolations, send } from "./fixtures.ts";

test("a schedule a minute away runs its prompt in the open thread; Settings → Schedules shows, pauses and deletes it", async ({
  page,
}) => {
  await page.clock.install();
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, "Bees are busy today");
  await expect(assistantMessages(page).last()).toHaveText("You said: Bees are busy today");

  await page.getByRole("button", { name: "Thread actions" }).click();
  await page.getByRole("menuitem", { name: "Schedule…" }).click();
  const dialog = page.getByRole("dialog", { name: "Schedule" });
  await expect(dialog).toContainText("a closed browser runs nothing");
  await expect(dialog).toContainText("This thread has no schedules.");
  await dialog.getByRole("button", { name: "New schedule" }).click();
  // A refused Save says why and keeps what was typed.
  await dialog.getByRole("textbox", { name: "Name" }).fill("Bee check");
  await dialog.getByRole("combobox", { name: "Repeat" }).selectOption({ label: "Every N minutes" });
  await dialog.getByRole("spinbutton", { name: "Every" }).fill("1");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("A schedule needs a prompt to send.");
  await dialog.getByRole("textbox", { name: "Prompt" }).fill("How are the bees?");
  await dialog.getByRole("button", { name: "Save" }).click();
  const scheduled = dialog.getByRole("group", { name: "Bee check" });
  await expect(scheduled).toContainText("Every minute");
  await expect(scheduled).toContainText("Next run:");
  await expectNoA11yViolations(page, "Thread actions → Schedule… with one schedule");
  await dialog.getByRole("button", { name: "Close" }).click();

  // Its time comes while the thread is open: the prompt runs there, and the reply streams in.
  await page.clock.fastForward("01:05");
  await expect(assistantMessages(page)).toHaveCount(2, { timeout: 20_000 });
  await expect(assistantMessages(page).last()).toHaveText("You said: How are the bees?");

  await clickSettings(page);
  const settings = page.getByRole("dialog", { name: "Settings" });
  await settings.getByRole("tab", { name: "Schedules" }).click();
  const panel = settings.getByRole("tabpanel", { name: "Schedules" });
  const listed = panel.getByRole("group", { name: "Bee check" });
  await expect(listed).toContainText(/Last run: .*, done/);
  await listed.getByRole("checkbox", { name: "Bee check on" }).uncheck();
  await expect(listed).toContainText("Off");
  await listed.getByRole("button", { name: "Delete Bee check" }).click();
  await listed.getByRole("button", { name: "Confirm delete" }).click();
  await expect(panel).toContainText("No schedules yet.");
});
