// Renders docs/screenshots/: the showcase thread (test/e2e/showcase.ts: every kind of message) in the built app,
// on a desktop and a phone, in the light and the dark theme, at the start and the end of the conversation, plus an
// artifact preview. Run with `npm run screenshots` (it builds first); Chromium as for the e2e tests (CHROME_PATH
// or /usr/bin/chromium). Screenshot names are stable, so the README's links stay true.
import { chromium, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startMockLlm } from "../test/mock-llm/server.ts";
import { buildShowcaseThread } from "../test/e2e/showcase.ts";
import { send } from "../test/e2e/fixtures.ts";
import { startPreview } from "./preview-server.ts";

const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const PORT = Number(process.env.SCREENSHOTS_APP_PORT ?? 4183);
const APP = `http://127.0.0.1:${PORT}`;
const OUT = join(import.meta.dirname, "..", "docs", "screenshots");

/** The phone is a touch device, as a real one is: the composer's placeholder and the controls follow its pointer. */
const LAYOUTS = [
  { name: "desktop", width: 1440, height: 900, touch: false },
  { name: "phone", width: 390, height: 844, touch: true },
] as const;
const THEMES = ["light", "dark"] as const;

/** Scrolls the conversation to its start or its end and waits for the page to settle. */
async function scrollConversation(page: Page, to: "start" | "end"): Promise<void> {
  await page.getByRole("log", { name: "Conversation" }).evaluate((log, where) => {
    let box: HTMLElement | null = log as HTMLElement;
    while (box && box.scrollHeight <= box.clientHeight) box = box.parentElement;
    if (box) box.scrollTop = where === "start" ? 0 : box.scrollHeight;
  }, to);
  await sleep(300);
}

/** Waits until no reply is running. */
async function replied(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Stop" }).waitFor({ state: "detached", timeout: 30_000 });
}

/**
 * The conversation's own features, each in a screenshot of its own: the welcome examples, the slash menu, a thread
 * with an edited message (‹ 2/2 ›), a drawn diagram, Copy and Regenerate, the follow-up suggestions and the context
 * gauge, and Settings → Models with its providers.
 */
async function featureShots(page: Page): Promise<void> {
  await page.getByRole("button", { name: "New thread" }).click();
  await page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Flash" }).check();
  await page.getByRole("region", { name: "Try an example" }).waitFor();
  await sleep(300);
  await shoot(page, "desktop-light-welcome");

  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("/");
  await page.getByRole("listbox", { name: "Commands" }).waitFor();
  await sleep(200);
  await shoot(page, "desktop-light-slash-menu");
  await box.fill("");

  await send(page, "Sketch the pipeline behind the Q3 numbers");
  await replied(page);
  await send(page, "Now draw a diagram of it");
  await replied(page);
  const first = page.getByRole("log", { name: "Conversation" }).getByRole("article", { name: "User message" }).first();
  await first.getByRole("button", { name: "Edit" }).click();
  await first.getByRole("textbox", { name: "Edit message" }).fill("Sketch the pipeline behind the Q3 and Q4 numbers");
  await first.getByRole("button", { name: "Send" }).click();
  await replied(page);
  await send(page, "Please draw a diagram of the data flow");
  await replied(page);
  await page.getByRole("group", { name: "Suggested follow-ups" }).waitFor({ timeout: 15_000 });
  await sleep(500);
  await scrollConversation(page, "end");
  await shoot(page, "desktop-light-suggestions");
  await scrollConversation(page, "start");
  await shoot(page, "desktop-light-versions");

  await page.getByRole("button", { name: "Settings" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("tab", { name: "Models" }).click();
  await dialog.getByRole("combobox", { name: "Provider" }).waitFor();
  await sleep(300);
  await shoot(page, "desktop-light-models");
  await dialog.getByRole("button", { name: "Close settings" }).click();
}

/** On the phone: the follow-up suggestions above the message box, and Settings → Models filling the screen. */
async function phoneShots(page: Page): Promise<void> {
  await page.emulateMedia({ colorScheme: "light" });
  await clickSettingsOrMenu(page, "New thread");
  await send(page, "Sketch the pipeline behind the Q3 numbers");
  await replied(page);
  await page.getByRole("group", { name: "Suggested follow-ups" }).waitFor({ timeout: 15_000 });
  await page.getByRole("textbox", { name: "Message" }).fill("And what about Q4?");
  await sleep(500);
  await shoot(page, "phone-light-suggestions");
  await page.getByRole("textbox", { name: "Message" }).fill("");
  await page.emulateMedia({ colorScheme: "dark" });
  await clickSettingsOrMenu(page, "Settings");
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("tab", { name: "Models" }).click();
  await dialog.getByRole("combobox", { name: "Provider" }).waitFor();
  await sleep(300);
  await shoot(page, "phone-dark-models");
  await dialog.getByRole("button", { name: "Close settings" }).click();
}

/** Clicks the sidebar's button `name`, opening the drawer first where the sidebar is one (a phone). */
async function clickSettingsOrMenu(page: Page, name: string): Promise<void> {
  const button = page.getByRole("button", { name, exact: true });
  if (!(await button.isVisible())) await page.getByRole("button", { name: "Show threads" }).click();
  await button.click();
}

async function shoot(page: Page, name: string): Promise<void> {
  const path = join(OUT, `${name}.png`);
  await page.screenshot({ path, animations: "disabled", caret: "hide" });
  console.log(`wrote ${path}`);
}

mkdirSync(OUT, { recursive: true });
const mock = await startMockLlm({ port: 0 });
const preview = await startPreview(PORT);
const browser = await chromium.launch({ executablePath: CHROME, args: ["--no-sandbox", "--disable-gpu"] });
try {
  // Each layout is a browser of its own (a phone's touch cannot be switched on later), with the showcase built in it.
  const pages: Page[] = [];
  for (const layout of LAYOUTS) {
    // Built at the desktop's size (the showcase walks the side panels), then shown at the layout's.
    const context = await browser.newContext({
      viewport: { width: LAYOUTS[0].width, height: LAYOUTS[0].height },
      deviceScaleFactor: 1,
      locale: "en-US",
      ...(layout.touch && { hasTouch: true, isMobile: true }),
    });
    const page = await context.newPage();
    pages.push(page);
    await page.goto(APP);
    await buildShowcaseThread(page, mock.url);
    await page.setViewportSize({ width: layout.width, height: layout.height });
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      await sleep(300);
      await scrollConversation(page, "start");
      await shoot(page, `${layout.name}-${theme}-start`);
      await scrollConversation(page, "end");
      await shoot(page, `${layout.name}-${theme}-end`);
    }
  }
  await phoneShots(pages[1]!);
  const page = pages[0]!;
  await page.emulateMedia({ colorScheme: "light" });
  await page.getByRole("button", { name: "Preview q3-report.md" }).click();
  await page.getByRole("dialog", { name: "Preview: q3-report.md" }).waitFor();
  await sleep(300);
  await shoot(page, "desktop-light-preview");
  await page.keyboard.press("Escape");
  await featureShots(page);
} finally {
  await browser.close();
  await mock.close();
  preview.close();
}
