// The first screen before any script: a first visit sees the welcome drawn from index.html alone, in the chosen
// theme, where the app then draws the same welcome; a Chinese browser or a returning user with a model set up does
// not see that English welcome first; the app, once mounted, shows one welcome, for screen readers too.
import { expect, test, type Page } from "@playwright/test";
import { configureEndpoint } from "./fixtures.ts";

// Held scripts are held by page.route, which a service worker's answers would bypass.
test.use({ serviceWorkers: "block" });

const WELCOME = "What can I do for you?";
const SET_UP = /Fawn talks to any OpenAI-compatible model/;

/** Held scripts hold the page's load event too: navigations wait for the document only. */
const PARSED = { waitUntil: "domcontentloaded" } as const;

/** Holds the app's scripts back until the returned function is called (index.html's own first script still runs). */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Where the welcome's heading, text and message box are drawn. */
async function layout(page: Page) {
  const box = async (selector: string) => page.locator(selector).first().boundingBox();
  return {
    heading: await box(".welcome h1"),
    text: await box(".welcome > p"),
    composer: await box(".composer textarea:visible"),
    send: await box(".composer button[type=submit]"),
  };
}

test("a first visit sees the welcome before any script has loaded, where the app then draws it", async ({ page }) => {
  const release = await holdScripts(page);
  await page.goto("/", PARSED);
  const shell = page.locator(".first-screen");
  await expect(shell.getByText(WELCOME)).toBeVisible();
  await expect(shell.getByText(SET_UP)).toBeVisible();
  // The message box for a mouse and a keyboard: its placeholder says how Enter and Shift+Enter work.
  await expect(shell.locator(".composer textarea:visible")).toHaveAttribute("placeholder", /^Ask anything.*Enter/);
  // Drawn, but neither reachable nor announced: nothing there is the app's yet.
  await expect(page.getByRole("heading", { name: WELCOME })).toHaveCount(0);
  await expect(shell).toHaveAttribute("inert", "");
  const before = await layout(page);

  release();
  await expect(page.locator("#composer-input")).toBeVisible();
  await expect(page.locator(".first-screen")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: WELCOME })).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Set up a model" })).toHaveCount(1);
  expect(await layout(page)).toEqual(before);
});

test.describe("on a phone (390×844, touch)", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("the prerendered welcome starts at the top, with the touch placeholder, where the app draws it", async ({
    page,
  }) => {
    const release = await holdScripts(page);
    await page.goto("/", PARSED);
    const shell = page.locator(".first-screen");
    await expect(shell.getByText(WELCOME)).toBeVisible();
    // A finger has no Enter or Shift+Enter: the box shown says only what it is for.
    await expect(shell.locator(".composer textarea:visible")).toHaveAttribute("placeholder", "Ask anything…");
    const before = await layout(page);
    const header = (await shell.locator(".thread-header").boundingBox())!;
    expect(before.heading!.y - (header.y + header.height), "the space above the welcome").toBeLessThanOrEqual(64);

    release();
    await expect(page.locator("#composer-input")).toBeVisible();
    await expect(page.locator(".first-screen")).toHaveCount(0);
    await expect(page.locator("#composer-input")).toHaveAttribute("placeholder", "Ask anything…");
    expect(await layout(page)).toEqual(before);
  });
});

test("a user who chose the dark theme gets dark colors before any script has loaded", async ({ page }) => {
  await page.goto("/");
  await page.evaluate(() => localStorage.setItem("fawn.theme", "dark"));
  await holdScripts(page);
  await page.reload(PARSED);
  await expect(page.locator(".first-screen").getByText(WELCOME)).toBeVisible();
  // The stylesheet blocks painting but not DOMContentLoaded or a script's style query: on a loaded machine the
  // query can come before the sheet has arrived. What the user sees is its first paint, which waits for the sheet.
  await expect
    .poll(() => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor))
    // base.css's dark --bg, #1b1714.
    .toBe("rgb(27, 23, 20)");
});

test.describe("in a Chinese browser", () => {
  test.use({ locale: "zh-CN" });

  test("the English welcome never shows", async ({ page }) => {
    const release = await holdScripts(page);
    await page.goto("/", PARSED);
    await expect(page.locator("html")).not.toHaveAttribute("data-first-screen");
    await expect(page.getByText(WELCOME)).toBeHidden();
    release();
    await expect(page.getByRole("heading", { name: "有什么可以帮你？" })).toBeVisible();
    await expect(page.getByText(WELCOME)).toHaveCount(0);
  });
});

test("a returning user with a model set up is not shown the set-up welcome first", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await expect(page.getByText(/^Using /)).toBeVisible();
  const release = await holdScripts(page);
  await page.reload(PARSED);
  await expect(page.locator("html")).not.toHaveAttribute("data-first-screen");
  await expect(page.getByText(SET_UP)).toBeHidden();
  release();
  await expect(page.getByText(/^Using /)).toBeVisible();
});
