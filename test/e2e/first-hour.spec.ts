// A first-time user's hour, on a phone (390×844, touch) and in a narrow window (600 px): set up a model, send a
// message, get a reply with follow-up suggestions, type a follow-up (answered in Markdown, then math and code), open
// a file the agent wrote and its preview, open the Terminal and every Settings tab, export the thread as .fawn, import
// it and replay it. At each stage, in light and dark, nothing overflows the viewport horizontally, no control is cut
// off, and every control is a target of at least 24×24 px (WCAG 2.2, 2.5.8; see layout-checks.ts). Each stage's
// problems are soft failures, so one run lists every stage that fails. E2E_SHOTS=<folder> saves each stage's
// screenshots, light and dark.
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { assistantMessages, clickSettings, conversation, MOCK_URL } from "./fixtures.ts";
import { formatProblems, layoutProblems } from "./layout-checks.ts";

/** Where each stage's screenshots go, when set (`E2E_SHOTS=/some/folder`). */
const SHOTS = process.env.E2E_SHOTS;

const SIZES = [
  { label: "phone", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { label: "600px", viewport: { width: 600, height: 900 }, isMobile: false, hasTouch: false },
] as const;

for (const size of SIZES) {
  test.describe(`at ${size.label} (${size.viewport.width}×${size.viewport.height})`, () => {
    test.use({ viewport: size.viewport, isMobile: size.isMobile, hasTouch: size.hasTouch });

    test("the core flow fits the screen and every control is a 24 px target, light and dark", async ({ page }) => {
      test.setTimeout(240_000);
      const stage = stageChecker(page, size.label);
      await page.emulateMedia({ colorScheme: "light" });
      await page.goto("/");
      await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
      await stage("first screen");

      // Settings → Models, with the scripted model.
      await clickSettings(page);
      const settings = page.getByRole("dialog", { name: "Settings" });
      await expect(settings).toBeVisible();
      await settings.getByRole("tab", { name: "Models" }).click();
      await stage("settings models, empty");
      await settings.getByRole("textbox", { name: "Base URL", exact: true }).fill(MOCK_URL);
      await settings.getByRole("textbox", { name: "API key", exact: true }).fill("sk-test-key");
      await settings.getByRole("combobox", { name: "Model", exact: true }).fill("mock-model");
      await settings.getByRole("button", { name: "Save" }).click();
      await expect(settings.getByText("Saved.")).toBeVisible();
      await stage("settings models, saved");
      await settings.getByRole("button", { name: "Close settings" }).click();
      await expect(settings).toBeHidden();

      // A message, a reply, and its follow-up suggestions.
      const box = page.getByRole("textbox", { name: "Message" });
      await box.fill("hello");
      await stage("message typed");
      await page.getByRole("button", { name: "Send" }).click();
      await expect(assistantMessages(page).last()).toContainText("answer from a script.");
      const followUps = page.getByRole("group", { name: "Suggested follow-ups" });
      await expect(followUps.getByRole("button")).toHaveCount(3);
      await stage("reply with suggestions");

      // A follow-up typed by hand: the message box keeps its width beside the suggestions. The answer is Markdown
      // (a list, a table, a code block with its Copy code button).
      const followUp = "Could you put that in markdown, with a table and some code?";
      await box.fill(followUp);
      await stage("follow-up typed");
      const boxWidth = (await box.boundingBox())!.width;
      expect
        .soft(boxWidth, `${size.label}: the message box is ${boxWidth} px wide after suggestions`)
        .toBeGreaterThanOrEqual(size.viewport.width * 0.5);
      await page.getByRole("button", { name: "Send" }).click();
      await expect(assistantMessages(page).last().getByRole("heading", { name: "Mock markdown reply" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
      await expect(assistantMessages(page).last().getByRole("button", { name: "Copy code" })).toBeVisible();
      await expect(followUps.getByRole("button")).toHaveCount(3);
      await stage("markdown reply");

      // Math and code: display math and a table as wide as they come.
      await box.fill("And now some math and code, please");
      await page.getByRole("button", { name: "Send" }).click();
      await expect(assistantMessages(page).last().getByRole("heading", { name: "Results" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
      await expect(followUps.getByRole("button")).toHaveCount(3);
      await stage("math and code reply");

      // The agent writes a file and presents it; its preview opens.
      await box.fill("Please write slowly some notes");
      await page.getByRole("button", { name: "Send" }).click();
      await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
      await expect(assistantMessages(page).last()).not.toBeEmpty();
      const artifacts = page.getByRole("region", { name: "Artifacts" });
      const summary = page.getByRole("button", { name: /^Artifacts \(1\)/ });
      if (!(await artifacts.isVisible())) {
        await summary.click();
        await expect(summary).toHaveAttribute("aria-expanded", "true");
      }
      await expect(artifacts.getByRole("button", { name: "Preview live-notes.md", exact: true })).toBeVisible();
      await stage("artifacts open");
      await artifacts.getByRole("button", { name: "Preview live-notes.md", exact: true }).click();
      const preview = page.getByRole("dialog", { name: "Preview: live-notes.md" });
      await expect(preview.getByRole("heading", { name: "Live notes" })).toBeVisible();
      await stage("artifact preview");
      await preview.getByRole("button", { name: "Source" }).click();
      await expect(preview.getByLabel("Source of live-notes.md")).toContainText("# Live notes");
      await stage("artifact preview, source");
      await preview.getByRole("button", { name: "Close preview" }).click();
      await expect(preview).toBeHidden();
      if (await summary.isVisible()) {
        await summary.click();
        await expect(artifacts).toBeHidden();
      }

      // The Terminal beside the conversation.
      const terminalButton = page.getByRole("button", { name: "Terminal", exact: true });
      await terminalButton.click();
      await expect(terminalButton).toHaveAttribute("aria-expanded", "true");
      await expect(
        page
          .getByRole("region", { name: "Terminal" })
          .getByRole("listitem")
          .filter({ hasText: /\$\s*$/ })
          .last(),
      ).toBeVisible({ timeout: 20_000 });
      await stage("terminal open");
      await terminalButton.click();
      await expect(page.getByRole("region", { name: "Terminal" })).toBeHidden();

      // Every Settings tab.
      await clickSettings(page);
      await expect(settings).toBeVisible();
      const tabs = settings.getByRole("tab");
      const names = await tabs.allInnerTexts();
      expect(names.length).toBeGreaterThanOrEqual(9);
      for (const name of names) {
        await settings.getByRole("tab", { name: name.trim(), exact: true }).click();
        await expect(settings.getByRole("tab", { name: name.trim(), exact: true })).toHaveAttribute(
          "aria-selected",
          "true",
        );
        await stage(`settings ${name.trim()}`);
      }
      await settings.getByRole("button", { name: "Close settings" }).click();
      await expect(settings).toBeHidden();

      // Export the thread as a .fawn bundle, then import it.
      const messages = await conversation(page).getByRole("article").count();
      await page.getByRole("button", { name: "Thread actions" }).click();
      await expect(page.getByRole("menu", { name: "Thread actions" })).toBeVisible();
      await stage("thread actions menu");
      await page.getByRole("menuitem", { name: "Export" }).click();
      await expect(page.getByRole("menuitem", { name: "Fawn bundle (.fawn)" })).toBeVisible();
      await stage("export menu");
      const saving = page.waitForEvent("download");
      await page.getByRole("menuitem", { name: "Fawn bundle (.fawn)" }).click();
      const download = await saving;
      expect(download.suggestedFilename()).toMatch(/\.fawn$/);
      const bundle = {
        name: download.suggestedFilename(),
        mimeType: "application/octet-stream",
        buffer: await readFile(await download.path()),
      };
      await stage("exported");

      const importButton = page.getByRole("button", { name: "Import thread" });
      if (!(await importButton.isVisible())) {
        await page.getByRole("button", { name: "Show threads" }).click();
        await expect(importButton).toBeVisible();
        await stage("threads drawer");
      }
      await importButton.click();
      const fromFiles = page.getByRole("menuitem", { name: /files/ });
      await expect(fromFiles).toBeVisible();
      await stage("import menu");
      const choosing = page.waitForEvent("filechooser");
      await fromFiles.click();
      await (await choosing).setFiles(bundle);
      const imported = page.getByRole("region", { name: "Imported thread" });
      await expect(imported).toBeVisible();
      await expect(conversation(page).getByRole("article")).toHaveCount(messages);
      await stage("imported thread");

      // Its replay, step by step.
      await imported.getByRole("button", { name: "Replay" }).click();
      const replay = page.getByRole("region", { name: "Replay" });
      await expect(replay.getByText(/Step \d+ of \d+/)).toBeVisible();
      await replay.getByRole("button", { name: "Next step" }).click();
      await stage("replay");
      await replay.getByRole("button", { name: "Exit replay" }).click();
      await expect(imported).toBeVisible();
    });
  });
}

/**
 * A function that checks the page as it is now, in light and in dark: each problem the layout checks find is a soft
 * failure naming the stage; each stage's screenshots go to E2E_SHOTS when it is set.
 */
function stageChecker(page: Page, size: string): (name: string) => Promise<void> {
  let index = 0;
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  return async (name) => {
    index += 1;
    const file = `${size}-${String(index).padStart(2, "0")}-${name.replace(/[^a-z0-9]+/gi, "-")}`;
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await settle(page);
      const problems = formatProblems(await layoutProblems(page));
      expect.soft(problems, `${size}, ${name}, ${scheme}: layout problems`).toEqual([]);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/${file}-${scheme}.png` });
    }
    await page.emulateMedia({ colorScheme: "light" });
  };
}

/** Waits for transitions to end (two frames after the last running animation). */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const ending = document
      .getAnimations()
      .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
      .map((a) => a.finished.catch(() => undefined));
    await Promise.race([Promise.all(ending), new Promise((r) => setTimeout(r, 2_000))]);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
}
