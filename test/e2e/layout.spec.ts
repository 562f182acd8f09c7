// The layout around a thread with presented files and a plan: on a wide screen they sit in a column beside the
// conversation; narrower, they fold into one summary row that opens them. On a phone the title bar is one slim row
// (New thread, Import thread and Settings are in the drawer its menu button opens) and the message box is one row,
// so the conversation keeps most of the screen.
import { expect, test, type Page } from "@playwright/test";
import { callTool, configureEndpoint, conversation, send, expectNoA11yViolations } from "./fixtures.ts";

async function threadWithFilesAndPlan(page: Page): Promise<void> {
  await page.goto("/");
  await configureEndpoint(page);
  await page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Pro" }).check();
  await send(page, "Make a plan demo");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
  await send(page, callTool("write_file", { path: "/mnt/user-data/outputs/notes.md", content: "# Notes\n" }));
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
  await send(page, callTool("present_files", { filepaths: ["/mnt/user-data/outputs/notes.md"] }));
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
}

/** The vertical middle of the control named `name`, for "on one row" checks. */
async function middle(page: Page, role: "button" | "textbox" | "radiogroup", name: string): Promise<number> {
  const box = await page.getByRole(role, { name, exact: true }).boundingBox();
  return box!.y + box!.height / 2;
}

test.describe("on a wide screen", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("the files and the plan sit in a column to the right of the conversation", async ({ page }) => {
    await threadWithFilesAndPlan(page);
    const files = page.getByRole("region", { name: "Artifacts" });
    const plan = page.getByRole("region", { name: "Plan" });
    await expect(files).toContainText("notes.md");
    await expect(plan).toContainText("3 of 3 done");
    await expectNoA11yViolations(page, "phone: artifacts and plan opened");
    const log = (await conversation(page).boundingBox())!;
    const filesBox = (await files.boundingBox())!;
    const planBox = (await plan.boundingBox())!;
    const composer = (await page.getByRole("textbox", { name: "Message" }).boundingBox())!;
    expect(filesBox.x).toBeGreaterThanOrEqual(log.x + log.width - 1);
    expect(planBox.x).toBeGreaterThanOrEqual(log.x + log.width - 1);
    expect(planBox.y).toBeGreaterThan(filesBox.y);
    // The conversation keeps a readable width, and the message box stays under it.
    expect(log.width).toBeGreaterThanOrEqual(700);
    expect(composer.y).toBeGreaterThanOrEqual(log.y + log.height - 1);
    expect(composer.x + composer.width).toBeLessThanOrEqual(log.x + log.width + 1);
    // There is no summary row where the column has room.
    await expect(page.getByRole("button", { name: /^Artifacts \(1\)/ })).toBeHidden();

    // Narrower, without room for the column, the files and the plan fold into the summary row.
    await page.setViewportSize({ width: 1000, height: 900 });
    const summary = page.getByRole("button", { name: "Artifacts (1) · Plan 3/3" });
    await expect(summary).toHaveAttribute("aria-expanded", "false");
    await expect(files).toBeHidden();
    await summary.click();
    await expect(files).toBeVisible();
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the conversation keeps most of the screen; one slim bar, a drawer, a summary row, a one-row composer", async ({
    page,
  }) => {
    await threadWithFilesAndPlan(page);
    const log = (await conversation(page).boundingBox())!;
    expect(log.height).toBeGreaterThanOrEqual(844 * 0.55);

    // One bar: the menu button, the title, Terminal and Thread actions share a row.
    const menu = page.getByRole("button", { name: "Show threads" });
    const title = await page.getByRole("heading", { level: 1 }).boundingBox();
    const bar = await middle(page, "button", "Show threads");
    expect(title!.width).toBeGreaterThan(150);
    expect(Math.abs(title!.y + title!.height / 2 - bar)).toBeLessThan(4);
    expect(Math.abs((await middle(page, "button", "Terminal")) - bar)).toBeLessThan(4);
    expect(Math.abs((await middle(page, "button", "Thread actions")) - bar)).toBeLessThan(4);
    expect(log.y).toBeLessThan(60);
    // The token total is in the thread's actions.
    await page.getByRole("button", { name: "Thread actions" }).click();
    await expect(page.getByRole("menu", { name: "Thread actions" })).toContainText(/Tokens: [\d,]+/);
    await expectNoA11yViolations(page, "phone: thread actions menu");
    await page.getByRole("button", { name: "Thread actions" }).click();
    await expect(page.getByRole("menu", { name: "Thread actions" })).toBeHidden();

    // The files and the plan are one summary row until it is opened.
    const files = page.getByRole("region", { name: "Artifacts" });
    const plan = page.getByRole("region", { name: "Plan" });
    const summary = page.getByRole("button", { name: "Artifacts (1) · Plan 3/3" });
    await expect(summary).toHaveAttribute("aria-expanded", "false");
    await expect(files).toBeHidden();
    await expect(plan).toBeHidden();
    await summary.click();
    await expect(summary).toHaveAttribute("aria-expanded", "true");
    await expect(files.getByRole("button", { name: "Download notes.md" })).toBeVisible();
    await expect(plan).toContainText("3 of 3 done");
    await summary.click();
    await expect(files).toBeHidden();

    // The message box, the paperclip and Send are one row; the modes are under it.
    const row = await middle(page, "textbox", "Message");
    expect(Math.abs((await middle(page, "button", "Send")) - row)).toBeLessThan(4);
    expect(Math.abs((await middle(page, "button", "Attach files")) - row)).toBeLessThan(4);
    expect(await middle(page, "radiogroup", "Mode")).toBeGreaterThan(row);
    await page.getByRole("button", { name: "Attach files" }).click({ trial: true });

    // New thread, Import thread and Settings are in the drawer the menu button opens.
    const newThread = page.getByRole("button", { name: "New thread" });
    await expect(newThread).toBeHidden();
    await expect(page.getByRole("button", { name: "Import thread" })).toBeHidden();
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByRole("button", { name: "Import thread" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Settings", exact: true })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Threads" }).getByRole("link")).toHaveCount(1);
    await newThread.click();
    await expect(page.getByRole("navigation", { name: "Threads" })).toBeHidden();
    await expect(conversation(page).getByRole("article")).toHaveCount(0);
    await expect(summary).toBeHidden();

    // The drawer closes with its own button too, and the menu button gets the focus back.
    await menu.click();
    await page.getByRole("button", { name: "Hide threads" }).click();
    await expect(page.getByRole("navigation", { name: "Threads" })).toBeHidden();
    await expect(menu).toBeFocused();
  });
});
