// Every state of the app passes axe's WCAG A/AA checks, in the light and the dark palette: the conversation (empty,
// with a finished reply and a diagram), each Settings tab and the unsaved-changes question, the thread actions menu,
// Delete's dialog, the keyboard shortcuts sheet, the command palette, artifact previews and a tool call waiting for
// approval.
import { expect, test, type Page } from "@playwright/test";
import {
  assistantMessages,
  callTool,
  callTools,
  configureEndpoint,
  editSettings,
  expectNoA11yViolations,
  openPreview,
  send,
} from "./fixtures.ts";

const OUTPUTS = "/mnt/user-data/outputs";

async function runEnded(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
}

for (const scheme of ["light", "dark"] as const) {
  test(`every state passes axe's WCAG A/AA checks (${scheme})`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/");
    await expect(page.getByRole("button", { name: "New thread" })).toBeVisible();
    await expectNoA11yViolations(page, "first visit, no model yet");

    // Settings, every tab in the order the tab list shows them.
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    const settings = page.getByRole("dialog", { name: "Settings" });
    await expect(settings).toBeVisible();
    const tabs = settings.getByRole("tab");
    const names = await tabs.allInnerTexts();
    expect(names).toEqual([
      "Models",
      "Web",
      "Tools",
      "Skills",
      "Memory",
      "Agents",
      "Schedules",
      "Subagents",
      "Sandbox",
      "Appearance",
      "Data",
      "Servers",
    ]);
    for (const name of names) {
      await settings.getByRole("tab", { name, exact: true }).click();
      await expect(settings.getByRole("tabpanel", { name, exact: true })).toBeVisible();
      // Once what the tab loads is there (its busy line gone).
      await expect(
        settings.getByRole("tabpanel", { name, exact: true }).getByRole("status").filter({ hasText: "Loading" }),
      ).toHaveCount(0);
      await expectNoA11yViolations(page, `Settings → ${name}`);
    }
    // Closing with an edit not saved asks first.
    await settings.getByRole("tab", { name: "Models" }).click();
    await settings.getByRole("textbox", { name: "Base URL", exact: true }).fill("http://127.0.0.1:1/v1");
    await settings.getByRole("button", { name: "Close settings" }).click();
    const unsaved = page.getByRole("dialog", { name: "Unsaved changes" });
    await expect(unsaved).toBeVisible();
    await expectNoA11yViolations(page, "Settings → unsaved changes");
    await unsaved.getByRole("button", { name: "Discard changes" }).click();
    await expect(settings).toBeHidden();

    await configureEndpoint(page);
    await expectNoA11yViolations(page, "empty conversation");
    // The Models tab again, now with an endpoint and its model listed.
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    await expect(settings.getByRole("group", { name: "mock-model" })).toBeVisible();
    await expectNoA11yViolations(page, "Settings → Models with an endpoint");
    await settings.getByRole("button", { name: "Close settings" }).click();
    await expect(settings).toBeHidden();

    // A finished reply with a table, code and a raw image, then a diagram (drawn, and one that does not parse).
    await send(page, "markdown");
    await runEnded(page);
    await expect(assistantMessages(page).last().getByRole("button", { name: "Copy", exact: true })).toBeVisible();
    await send(page, "draw a diagram");
    await runEnded(page);
    await expect(assistantMessages(page).last().locator(".mermaid-diagram svg")).toBeVisible();
    await expect(assistantMessages(page).last().getByText("The diagram could not be drawn")).toBeVisible();
    await expectNoA11yViolations(page, "conversation with finished replies");

    await page.getByRole("button", { name: "Thread actions" }).click();
    await expect(page.getByRole("menu", { name: "Thread actions" })).toBeVisible();
    await expectNoA11yViolations(page, "thread actions menu");
    await page.getByRole("menuitem", { name: "Delete" }).click();
    const remove = page.getByRole("dialog", { name: "Delete thread?" });
    await expect(remove).toBeVisible();
    await expectNoA11yViolations(page, "Delete thread dialog");
    await remove.getByRole("button", { name: "Cancel" }).click();
    await expect(remove).toBeHidden();

    await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(help).toBeVisible();
    await expectNoA11yViolations(page, "keyboard shortcuts sheet");
    await help.getByRole("button", { name: "Close keyboard shortcuts" }).click();

    await page.getByRole("textbox", { name: "Message" }).focus();
    await page.keyboard.press("ControlOrMeta+K");
    const palette = page.getByRole("dialog", { name: "Command palette" });
    await expect(palette).toBeVisible();
    await expectNoA11yViolations(page, "command palette");
    await page.keyboard.press("Escape");
    await expect(palette).toBeHidden();

    // Artifact previews: Markdown (with a diagram) and HTML.
    const files = {
      "notes.md": "# Notes\n\n```mermaid\nflowchart LR\n  A --> B\n```\n\n```\nplain code\n```\n",
      "page.html": "<!doctype html><title>Page</title><h1>Hello</h1>",
    };
    await send(
      page,
      callTools(
        Object.entries(files).map(([name, content]) => ["write_file", { path: `${OUTPUTS}/${name}`, content }]),
      ),
    );
    await runEnded(page);
    await send(page, callTool("present_files", { filepaths: Object.keys(files).map((name) => `${OUTPUTS}/${name}`) }));
    await runEnded(page);
    await expectNoA11yViolations(page, "conversation with artifacts");
    for (const name of Object.keys(files)) {
      const preview = await openPreview(page, name);
      if (name.endsWith(".md")) await expect(preview.locator(".mermaid-diagram svg")).toBeVisible();
      await expectNoA11yViolations(page, `preview of ${name}`);
      await preview.getByRole("button", { name: "Close preview" }).click();
      await expect(preview).toBeHidden();
    }

    // A tool call that sends data out, waiting in group "Approval" (Settings → Web asks in every thread).
    await editSettings(page, "Web", async (dialog) => {
      await dialog.getByRole("switch", { name: "Ask before sending data out" }).check();
    });
    await send(page, callTool("web_fetch", { url: "https://example.org/report" }));
    const approval = page.getByRole("group", { name: "Approval" });
    await expect(approval).toBeVisible();
    await expectNoA11yViolations(page, "a tool call waiting for approval");
    await approval.getByRole("button", { name: "Deny" }).click();
    await runEnded(page);
  });
}
