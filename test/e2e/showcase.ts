// The showcase thread: one conversation that holds every kind of message Fawn renders (an upload, reasoning,
// Markdown with a table, code and a cited source, a command and its output, a written file, presented artifacts, a
// plan, subtask cards and a clarification card). The screenshots script (scripts/screenshots.ts) photographs it and
// showcase.spec.ts checks that it still holds every kind, so the screenshots cannot silently lose one.
import { expect, type Page } from "@playwright/test";
import { assistantMessages, configureEndpoint, conversation, editSettings, send } from "./fixtures.ts";

const SALES_CSV = ["region,quarter,revenue", "North,Q3,120400", "South,Q3,95150", "East,Q3,143900", ""].join("\n");

/** Waits until the thread's run has ended (the composer offers Send again, not Stop). */
async function settled(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0, { timeout: 30_000 });
}

/**
 * Builds the showcase thread in `page` against the mock model at `mockUrl`, in Ultra mode with the mock's
 * reasoning model, and leaves it waiting on a clarification.
 */
export async function buildShowcaseThread(page: Page, mockUrl: string): Promise<void> {
  // Marked Thinking: the mock reasons only when asked to, as real reasoning models do.
  await configureEndpoint(page, { baseUrl: mockUrl, model: "mock-thinking", thinking: true });
  // The mock model's server also plays a search and a reader provider.
  const mockOrigin = new URL(mockUrl).origin;
  await editSettings(page, "Web", async (dialog) => {
    await dialog.getByRole("combobox", { name: "Search provider", exact: true }).selectOption("tavily");
    await dialog.getByRole("textbox", { name: "Search API key", exact: true }).fill("tvly-showcase");
    await dialog.getByRole("textbox", { name: "Search base URL", exact: true }).fill(`${mockOrigin}/tavily`);
    await dialog.getByRole("textbox", { name: "Fetch base URL" }).fill(`${mockOrigin}/jina`);
  });
  await page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Ultra" }).check();

  await page
    .getByLabel("Attach files")
    .setInputFiles({ name: "sales.csv", mimeType: "text/csv", buffer: Buffer.from(SALES_CSV) });
  await send(page, "Here are the Q3 sales figures. Start with the math and code behind the trend.");
  await settled(page);

  await send(page, "Now check the figures, look up how other retailers did, and write up the Q3 report.");
  await expect(page.getByRole("button", { name: "Preview q3-report.md" })).toBeVisible({ timeout: 30_000 });
  await settled(page);

  await send(page, "Make a plan demo for the regional review");
  await expect(page.getByRole("region", { name: "Plan" })).toContainText("3 of 3 done", { timeout: 30_000 });
  await settled(page);

  await send(page, "Please fan out the regional counts to helpers");
  await expect(conversation(page).getByRole("article", { name: /^Subtask:/ })).toHaveCount(3, { timeout: 30_000 });
  await settled(page);

  await send(page, "Good. Next, draft the Q4 forecast.");
  await expect(conversation(page).getByRole("group", { name: "Clarification" })).toContainText("Which format", {
    timeout: 30_000,
  });
  await expect(assistantMessages(page).first()).toBeVisible();
}
