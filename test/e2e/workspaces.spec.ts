// Workspaces against a real Fawn server (started by the test, the mock model its model): connected through
// Settings → Servers, the sidebar's "Workspace" switches to it; a new thread's reply streams there and its file shows
// in Artifacts; a second browser sees the next run live while it streams, and its Stop ends it; a reload comes back
// to the server's workspace and thread; Thread actions → "Copy to…" copies the thread, its files with it, to this
// browser and back to the server; the server gone, the workspace says so and what was kept stays readable. The
// switcher at phone size (390×844, touch) and 600 px, light and dark, screenshotted (E2E_SHOTS_DIR).
import { mkdirSync } from "node:fs";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { connectServer, START_TIMEOUT_MS, startFawnServer, type FawnServer } from "./fawn-server-fixture.ts";
import { assistantMessages, conversation, expectNoA11yViolations, send } from "./fixtures.ts";

const SHOTS = process.env.E2E_SHOTS_DIR;

let fawn: FawnServer;

/**
 * A server for the tests of one describe: the desktop test ends by stopping its server (the offline step), so a test
 * that runs after it in the same worker must not share it.
 */
function withFawnServer(): void {
  test.beforeAll(async () => {
    test.setTimeout(START_TIMEOUT_MS);
    fawn = await startFawnServer();
  });
  test.afterAll(async () => {
    await fawn?.stop();
  });
}

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize()!;
  await page.screenshot({ path: `${SHOTS}/workspaces-${name}-${size.width}x${size.height}.png` });
}

const workspace = (page: Page) => page.getByRole("combobox", { name: "Workspace" });

/** Shows the sidebar: on a phone (or at 600 px), the drawer "Show threads" opens. */
async function showSidebar(page: Page): Promise<void> {
  const newThread = page.getByRole("button", { name: "New thread" });
  if (!(await newThread.isVisible())) await page.getByRole("button", { name: "Show threads" }).click();
  await expect(newThread).toBeVisible();
}

/** Chooses workspace `name` in the sidebar; the app is made again over it, its drawer closed. */
async function chooseWorkspace(page: Page, name: string): Promise<void> {
  await showSidebar(page);
  await workspace(page).selectOption({ label: name });
  await showSidebar(page);
  await expect(workspace(page).locator("option:checked")).toHaveText(name);
}

/** Thread actions → Copy to… → `target`; resolves once the notice says it is copied, and opens the copy. */
async function copyTo(page: Page, target: string): Promise<void> {
  await page.getByRole("button", { name: "Thread actions" }).click();
  await page.getByRole("menuitem", { name: "Copy to…" }).click();
  await page.getByRole("menu", { name: "Copy to…" }).getByRole("menuitem", { name: target }).click();
  const notice = page.getByRole("status").filter({ hasText: `Copied to ${target}.` });
  await expect(notice).toBeVisible({ timeout: 20_000 });
  await notice.getByRole("button", { name: "Open the copy" }).click();
  await expect(workspace(page).locator("option:checked")).toHaveText(target);
}

async function openedOnServer(browser: Browser, threadTitle: string, name: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  await page.goto("/");
  await connectServer(page, fawn);
  await chooseWorkspace(page, name);
  await page.getByRole("navigation", { name: "Threads" }).getByRole("link", { name: threadTitle }).click();
  return page;
}

test.describe("desktop", () => {
  test.use({ viewport: { width: 1280, height: 860 } });
  withFawnServer();

  test("a server's workspace: a reply streams with its file, another browser sees the next run live, Stop, a reload comes back, and Copy to… moves the thread with its files both ways", async ({
    page,
    browser,
  }) => {
    test.setTimeout(process.env.CI ? 180_000 : 120_000);
    await page.goto("/");
    // No server yet: no switcher.
    await expect(page.getByRole("button", { name: "New thread" })).toBeVisible();
    await expect(workspace(page)).toHaveCount(0);
    const name = await connectServer(page, fawn);
    await expect(workspace(page).getByRole("option")).toHaveText(["This browser", name]);
    await chooseWorkspace(page, name);
    await expect(conversation(page)).toContainText(`on ${name}. This workspace's threads are kept on that server.`);

    // A new thread on the server: the reply streams, its file shows in Artifacts while written, then presented.
    await send(page, "Please write slowly some notes");
    const artifacts = page.getByRole("region", { name: "Artifacts" });
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
    await expect(artifacts.getByRole("button", { name: "Preview live-notes.md", exact: true })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
    // Its sandbox is the server's: no Terminal of this browser's for it.
    await expect(page.getByRole("button", { name: "Terminal" })).toBeHidden();
    const title = (await page.locator(".thread-title").textContent()) ?? "";
    expect(title).not.toBe("");
    await expect(page.getByRole("navigation", { name: "Threads" }).getByRole("link", { name: title })).toBeVisible();

    // Another browser with the same server open on the thread sees the next run as it streams.
    const other = await openedOnServer(browser, title, name);
    await expect(assistantMessages(other).first()).toBeVisible();
    await send(page, "please write something long");
    await expect(assistantMessages(page).last()).toContainText("Sentence 2");
    await expect(assistantMessages(other).last()).toContainText("Sentence 2", { timeout: 20_000 });
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
    // Stop in the browser that joined the run stops it on the server, for both.
    await other.getByRole("button", { name: "Stop" }).click();
    await expect(page.getByRole("button", { name: "Stop" })).toBeHidden({ timeout: 20_000 });
    await expect(conversation(page).getByText("Stopped")).toBeVisible();
    const kept = (await assistantMessages(page).last().textContent()) ?? "";
    expect(kept).not.toContain("Sentence 50 ");
    // The other browser's view settles on what the server kept.
    await expect(other.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 20_000 });
    await expect(conversation(other).getByText("Stopped")).toBeVisible();
    await expect(conversation(other).getByRole("article", { name: "User message" })).toHaveCount(2);
    await other.context().close();

    // A reload comes back to the server's workspace and the thread.
    await page.reload();
    await expect(workspace(page).locator("option:checked")).toHaveText(name);
    await expect(page.locator(".thread-title")).toHaveText(title);
    await expect(conversation(page).getByRole("article", { name: "User message" })).toHaveCount(2);
    await shoot(page, "reloaded-light");
    await expectNoA11yViolations(page, "a server workspace's thread after a reload");

    // Copy to… this browser: the copy opens there, its file with it; and back to the server.
    await copyTo(page, "This browser");
    await expect(page.locator(".thread-title")).toHaveText(title);
    await expect(artifacts.getByRole("button", { name: "Preview live-notes.md", exact: true })).toBeVisible();
    // The user's own thread stays theirs: writable, not an imported one to be continued.
    await expect(page.getByRole("region", { name: "Imported thread" })).toHaveCount(0);
    await expect(page.getByRole("textbox", { name: "Message" })).toBeEditable();
    await shoot(page, "copied-light");
    await copyTo(page, name);
    await expect(page.locator(".thread-title")).toHaveText(title);
    await expect(artifacts.getByRole("button", { name: "Preview live-notes.md", exact: true })).toBeVisible();
    const threads = page.getByRole("navigation", { name: "Threads" }).getByRole("link", { name: title });
    await expect(threads).toHaveCount(2);

    // The server goes away: the workspace says so, and what this browser kept stays readable.
    await fawn.stop();
    await expect(page.locator(".workspace-connection")).toHaveText(
      `${name} is unreachable: showing what this browser kept.`,
      { timeout: 20_000 },
    );
    await expect(threads).toHaveCount(2);
    await expect(artifacts.getByRole("button", { name: "Preview live-notes.md", exact: true })).toBeVisible();
    await page.emulateMedia({ colorScheme: "dark" });
    await shoot(page, "offline-dark");
  });
});

for (const size of [
  { label: "a phone", viewport: { width: 390, height: 844 }, touch: true },
  { label: "600 px", viewport: { width: 600, height: 860 }, touch: false },
]) {
  test.describe(`on ${size.label}`, () => {
    test.use({ viewport: size.viewport, hasTouch: size.touch, isMobile: size.touch });
    withFawnServer();

    test("the Workspace switcher and Copy to… fit, in light and dark", async ({ page }) => {
      await page.goto("/");
      const name = await connectServer(page, fawn);
      await chooseWorkspace(page, name);
      const box = (await workspace(page).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(size.viewport.width);
      expect(box.height).toBeGreaterThanOrEqual(size.touch ? 44 : 24);
      await shoot(page, `switcher-${size.touch ? "touch-" : ""}light`);
      await page.emulateMedia({ colorScheme: "dark" });
      await shoot(page, `switcher-${size.touch ? "touch-" : ""}dark`);
      await expectNoA11yViolations(page, `the Workspace switcher, ${size.label}, dark`);

      // A thread on the server: Thread actions → Copy to… lists this browser, within the screen.
      await page.getByRole("button", { name: "New thread" }).click();
      await send(page, "hello");
      await expect(assistantMessages(page)).toContainText("Hello!");
      await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
      await page.getByRole("button", { name: "Thread actions" }).click();
      await page.getByRole("menuitem", { name: "Copy to…" }).click();
      const target = page.getByRole("menu", { name: "Copy to…" }).getByRole("menuitem", { name: "This browser" });
      await expect(target).toBeInViewport({ ratio: 1 });
      await shoot(page, `copy-to-${size.touch ? "touch-" : ""}dark`);
      await page.emulateMedia({ colorScheme: "light" });
      await shoot(page, `copy-to-${size.touch ? "touch-" : ""}light`);
    });
  });
}
