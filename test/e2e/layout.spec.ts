// The layout around a thread with presented files and a plan: on a wide screen they sit in a column beside the
// conversation; on a phone they take a line or two, so the conversation keeps most of the screen, and the few
// controls of the top bar stay in one row.
import { expect, test, type Page } from "@playwright/test";
import { callTool, configureEndpoint, conversation, send } from "./fixtures.ts";

async function threadWithFilesAndPlan(page: Page): Promise<void> {
  await page.goto("/");
  await configureEndpoint(page);
  await page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Pro" }).check();
  await send(page, "Make a plan demo");
  await expect(page.getByRole("region", { name: "Plan" })).toContainText("3 of 3 done", { timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
  await send(page, callTool("write_file", { path: "/mnt/user-data/outputs/notes.md", content: "# Notes\n" }));
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
  await send(page, callTool("present_files", { filepaths: ["/mnt/user-data/outputs/notes.md"] }));
  await expect(page.getByRole("button", { name: "Preview notes.md" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
}

test.describe("on a wide screen", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("the files and the plan sit in a column to the right of the conversation", async ({ page }) => {
    await threadWithFilesAndPlan(page);
    const log = await conversation(page).boundingBox();
    const files = await page.getByRole("region", { name: "Artifacts" }).boundingBox();
    const plan = await page.getByRole("region", { name: "Plan" }).boundingBox();
    const composer = await page.getByRole("textbox", { name: "Message" }).boundingBox();
    expect(files!.x).toBeGreaterThanOrEqual(log!.x + log!.width - 1);
    expect(plan!.x).toBeGreaterThanOrEqual(log!.x + log!.width - 1);
    expect(plan!.y).toBeGreaterThan(files!.y);
    // The message box stays under the conversation, as wide as it.
    expect(composer!.x + composer!.width).toBeLessThanOrEqual(log!.x + log!.width + 1);
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the conversation keeps most of the screen; the top bar, files and composer stay compact", async ({ page }) => {
    await threadWithFilesAndPlan(page);
    const log = await conversation(page).boundingBox();
    expect(log!.height).toBeGreaterThanOrEqual(844 * 0.55);
    // New thread and Settings share one row.
    const newThread = await page.getByRole("button", { name: "New thread" }).boundingBox();
    const settings = await page.getByRole("button", { name: "Settings", exact: true }).boundingBox();
    expect(Math.abs(newThread!.y - settings!.y)).toBeLessThan(4);
    // Send is on the row of the modes, not below it.
    const send = await page.getByRole("button", { name: "Send" }).boundingBox();
    const modes = await page.getByRole("radiogroup", { name: "Mode" }).boundingBox();
    expect(Math.abs(send!.y + send!.height / 2 - (modes!.y + modes!.height / 2))).toBeLessThan(8);
    // Import thread is in the thread list, opened from the menu button.
    await expect(page.getByRole("button", { name: "Import thread" })).toBeHidden();
    await page.getByRole("button", { name: "Show threads" }).click();
    await expect(page.getByRole("button", { name: "Import thread" })).toBeVisible();
    await page.keyboard.press("Escape");
    // Attaching a file still works from the paperclip.
    await page.getByRole("button", { name: /Attach files/ }).click({ trial: true });
  });
});
