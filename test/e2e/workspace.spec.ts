// The workspace around the conversation: themes, keyboard shortcuts and their help sheet, the command palette, token
// usage, the notification when a run ends in a hidden tab, and the phone layout.
import { expect, test, type Page } from "@playwright/test";
import { assistantMessages, closeSettings, configureEndpoint, conversation, openSettings, send } from "./fixtures.ts";

/** The page's background colour, as the user sees it. */
function background(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
}

const LIGHT_BACKGROUND = "rgb(251, 248, 244)";
const DARK_BACKGROUND = "rgb(27, 23, 20)";

/** Takes focus out of any text field, so that "/" and "?" are shortcuts rather than text. */
async function blur(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

test("the theme switches between light, dark and system, follows the system live, and stays after a reload", async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  const html = page.locator("html");
  await expect(html).toHaveAttribute("data-theme", "system");
  expect(await background(page)).toBe(LIGHT_BACKGROUND);

  let dialog = await openSettings(page, "Appearance");
  const themes = dialog.getByRole("radiogroup", { name: "Theme" });
  await expect(themes.getByRole("radio", { name: "System" })).toBeChecked();
  await themes.getByRole("radio", { name: "Dark" }).check();
  await expect(html).toHaveAttribute("data-theme", "dark");
  expect(await background(page)).toBe(DARK_BACKGROUND);
  await closeSettings(page);

  await page.reload();
  await expect(html).toHaveAttribute("data-theme", "dark");
  expect(await background(page)).toBe(DARK_BACKGROUND);

  dialog = await openSettings(page, "Appearance");
  await expect(dialog.getByRole("radio", { name: "Dark" })).toBeChecked();
  await dialog.getByRole("radio", { name: "System" }).check();
  await expect(html).toHaveAttribute("data-theme", "system");
  expect(await background(page)).toBe(LIGHT_BACKGROUND);
  // "System" follows the device as it switches, without a reload.
  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(() => background(page)).toBe(DARK_BACKGROUND);
  // A chosen theme wins over the device's.
  await dialog.getByRole("radio", { name: "Light" }).check();
  await expect.poll(() => background(page)).toBe(LIGHT_BACKGROUND);
  await closeSettings(page);
  await page.reload();
  await expect(html).toHaveAttribute("data-theme", "light");
  expect(await background(page)).toBe(LIGHT_BACKGROUND);
});

test("keyboard shortcuts open Settings, the help sheet and the palette, toggle the sidebar, focus the message box and start a new thread", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  const message = page.getByRole("textbox", { name: "Message" });

  await blur(page);
  await page.keyboard.press("ControlOrMeta+Comma");
  await expect(page.getByRole("dialog", { name: "Settings" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Settings" })).toBeHidden();

  await blur(page);
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  for (const row of ["New thread", "Focus the message box", "Stop the reply", "Open Settings", "Command palette"]) {
    await expect(help.getByRole("rowheader", { name: row })).toBeVisible();
  }
  await expect(help.getByRole("row", { name: /Command palette/ })).toContainText(/(Ctrl\+K|⌘K)/);
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();
  await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
  await expect(help).toBeVisible();
  await help.getByRole("button", { name: "Close keyboard shortcuts" }).click();
  await expect(help).toBeHidden();

  await page.keyboard.press("ControlOrMeta+K");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await expect(palette).toBeVisible();
  await expect(palette.getByRole("combobox", { name: "Search commands and threads" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(palette).toBeHidden();

  // "?" and "/" are text while typing.
  await message.fill("what is 1/2?");
  await message.press("End");
  await page.keyboard.press("?");
  await expect(help).toBeHidden();
  await expect(message).toHaveValue("what is 1/2??");
  await message.fill("");

  await blur(page);
  await page.keyboard.press("/");
  await expect(message).toBeFocused();
  await expect(message).toHaveValue("");
  await blur(page);
  await page.keyboard.press("ControlOrMeta+L");
  await expect(message).toBeFocused();

  const sidebar = page.locator("aside.sidebar");
  await page.keyboard.press("ControlOrMeta+B");
  await expect(sidebar).toBeHidden();
  await expect(page.getByRole("button", { name: "Show threads" })).toBeVisible();
  await page.keyboard.press("ControlOrMeta+B");
  await expect(sidebar).toBeVisible();
  await expect(page.getByRole("button", { name: "Show threads" })).toBeHidden();

  await send(page, "hello");
  await expect(assistantMessages(page)).toContainText("answer from a script.");
  await expect(page).toHaveURL(/#\/t\//);
  await blur(page);
  await page.keyboard.press("ControlOrMeta+Shift+KeyO");
  await expect(page).not.toHaveURL(/#\/t\//);
  await expect(conversation(page).getByRole("article")).toHaveCount(0);
  await expect(message).toBeFocused();
});

test("Escape stops a running reply", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, "tell me something long");
  const stop = page.getByRole("button", { name: "Stop" });
  await expect(stop).toBeVisible();
  // Wait for the reply to be streaming, then stop it from the message box.
  await expect(assistantMessages(page).last()).toContainText(/\w+ \w+ \w+/);
  await page.getByRole("textbox", { name: "Message" }).focus();
  const started = Date.now();
  await page.keyboard.press("Escape");
  await expect(stop).toBeHidden({ timeout: 8_000 });
  expect(Date.now() - started).toBeLessThan(8_000);
  await expect(assistantMessages(page).last()).toContainText("Stopped");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
});

test("the command palette filters commands and threads, moves with the arrows and opens a thread", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, "hello");
  await expect(assistantMessages(page)).toContainText("answer from a script.");
  await page.getByRole("button", { name: "New thread" }).click();
  await send(page, "second topic");
  await expect(assistantMessages(page)).toContainText("You said: second topic");
  await expect(page.getByRole("heading", { name: "second topic" })).toBeVisible();

  await page.keyboard.press("ControlOrMeta+K");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  const search = palette.getByRole("combobox", { name: "Search commands and threads" });
  await expect(palette.getByRole("option", { name: "New thread" })).toBeVisible();
  await expect(palette.getByRole("option", { name: "Toggle terminal" })).toBeVisible();
  await expect(palette.getByRole("option", { name: "hello" })).toBeVisible();

  await search.fill("settings");
  await expect(palette.getByRole("option")).toHaveCount(1);
  await expect(palette.getByRole("option", { name: "Open settings", exact: true })).toBeVisible();
  await search.fill("theme");
  await expect(palette.getByRole("option", { name: /Switch theme to/ })).toHaveCount(2);

  await search.fill("hel");
  await expect(palette.getByRole("option")).toHaveCount(1);
  await expect(palette.getByRole("option", { name: "hello" })).toHaveAttribute("aria-selected", "true");
  await search.press("Enter");
  await expect(palette).toBeHidden();
  await expect(page.getByRole("heading", { name: "hello" })).toBeVisible();
  await expect(assistantMessages(page)).toContainText("answer from a script.");

  // Arrows move the choice; Enter runs a command.
  await page.keyboard.press("ControlOrMeta+K");
  await search.fill("o");
  const options = palette.getByRole("option");
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await search.press("ArrowDown");
  await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
  await search.press("ArrowUp");
  await search.press("ArrowUp");
  await expect(options.last()).toHaveAttribute("aria-selected", "true");
  await search.fill("open settings");
  await search.press("Enter");
  await expect(page.getByRole("dialog", { name: "Settings" })).toBeVisible();
});

test("each reply shows its token usage, and the thread header the total", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, "hello");
  await expect(assistantMessages(page)).toContainText("answer from a script.");
  const usage = conversation(page).locator(".token-usage");
  await expect(usage).toHaveText(/^[\d,]+ tokens?$/);
  await expect(usage).toHaveAttribute("title", /^[\d,]+ in · [\d,]+ out$/);
  const first = Number((await usage.textContent())!.replace(/\D/g, ""));
  expect(first).toBeGreaterThan(0);
  const total = page.locator(".thread-tokens");
  await expect(total).toHaveText(`Tokens: ${first.toLocaleString("en-US")}`);

  await send(page, "and again");
  await expect(assistantMessages(page)).toHaveCount(2);
  await expect(usage).toHaveCount(2);
  const second = Number((await usage.nth(1).textContent())!.replace(/\D/g, ""));
  await expect(total).toHaveText(`Tokens: ${(first + second).toLocaleString("en-US")}`);
  // Saved usage comes back with the thread.
  await page.reload();
  await expect(total).toHaveText(`Tokens: ${(first + second).toLocaleString("en-US")}`);
  await expect(usage).toHaveCount(2);
});

test("a run that ends while the tab is hidden shows a notification, once allowed", async ({ page, context }) => {
  await context.grantPermissions(["notifications"]);
  // Record notifications instead of showing them, and let the test say when the tab is hidden.
  await page.addInitScript(() => {
    const shown: { title: string; body?: string }[] = [];
    const real = window.Notification;
    class RecordingNotification {
      static get permission() {
        return real.permission;
      }
      static requestPermission() {
        return real.requestPermission();
      }
      onclick: (() => void) | null = null;
      constructor(title: string, options?: NotificationOptions) {
        shown.push({ title, ...(options?.body !== undefined && { body: options.body }) });
      }
      close() {}
    }
    Object.assign(window, { __notifications: shown, __hidden: false, Notification: RecordingNotification });
    Object.defineProperty(Document.prototype, "hidden", {
      configurable: true,
      get: () => (window as unknown as { __hidden: boolean }).__hidden,
    });
  });
  await page.goto("/");
  const dialog = await openSettings(page, "Appearance");
  await expect(dialog.getByRole("status").filter({ hasText: "Allowed" })).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Allow notifications" })).toBeDisabled();
  await closeSettings(page);
  await configureEndpoint(page);
  const shown = () => page.evaluate(() => (window as unknown as { __notifications: unknown[] }).__notifications);

  await send(page, "hello");
  await expect(assistantMessages(page)).toContainText("answer from a script.");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  expect(await shown()).toEqual([]);

  await send(page, "tell me something long");
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await page.evaluate(() => Object.assign(window, { __hidden: true }));
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await expect.poll(shown).toEqual([{ title: "Fawn", body: "hello: reply ready" }]);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the threads open over the conversation from a menu button; the conversation and composer fill the width", async ({
    page,
  }) => {
    await page.goto("/");
    const threads = page.getByRole("navigation", { name: "Threads" });
    const show = page.getByRole("button", { name: "Show threads" });
    await expect(show).toBeVisible();
    await expect(show).toHaveAttribute("aria-expanded", "false");
    await expect(threads).toBeHidden();
    await configureEndpoint(page);
    await send(page, "hello");
    await expect(assistantMessages(page)).toContainText("answer from a script.");
    // New thread is in the drawer.
    await show.click();
    await page.getByRole("button", { name: "New thread" }).click();
    await expect(threads).toBeHidden();
    await expect(conversation(page).getByRole("article")).toHaveCount(0);

    const log = await conversation(page).boundingBox();
    expect(log?.width).toBeGreaterThanOrEqual(389);
    // The message box shares its row with the paperclip and Send, which reach the screen's edges.
    const box = await page.getByRole("textbox", { name: "Message" }).boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(240);
    const attach = await page.getByRole("button", { name: "Attach files" }).boundingBox();
    const sendButton = await page.getByRole("button", { name: "Send" }).boundingBox();
    expect(attach!.x).toBeLessThanOrEqual(12);
    expect(sendButton!.x + sendButton!.width).toBeGreaterThanOrEqual(378);

    await show.click();
    await expect(threads).toBeVisible();
    await expect(show).toHaveAttribute("aria-expanded", "true");
    // It lies over the conversation: what is under a point of the log is the thread list.
    const onTop = await page.evaluate(() => document.elementFromPoint(100, 500)?.closest("nav")?.ariaLabel ?? null);
    expect(onTop).toBe("Threads");
    await page.keyboard.press("Escape");
    await expect(threads).toBeHidden();

    await show.click();
    await threads.getByRole("link", { name: "hello" }).click();
    await expect(threads).toBeHidden();
    await expect(page.getByRole("heading", { name: "hello" })).toBeVisible();
    await expect(assistantMessages(page)).toContainText("answer from a script.");
  });
});
