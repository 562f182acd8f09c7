// The showcase thread: one conversation that holds every kind of message Fawn renders (an upload, reasoning,
// Markdown with a table and code, a command and its output, a written file, presented artifacts, a plan, subtask
// cards and a clarification card). The screenshots script (scripts/screenshots.ts) photographs it and
// showcase.spec.ts checks that it still holds every kind, so the screenshots cannot silently lose one.
import { expect, type Page } from "@playwright/test";
import { assistantMessages, callTool, configureEndpoint, conversation, editSettings, send } from "./fixtures.ts";

const SALES_CSV = ["region,quarter,revenue", "North,Q3,120400", "South,Q3,95150", "East,Q3,143900", ""].join("\n");

const REPORT = [
  "# Q3 sales",
  "",
  "East led the quarter with **$143,900**, ahead of North and South.",
  "",
  "| Region | Revenue |",
  "| --- | ---: |",
  "| East | 143,900 |",
  "| North | 120,400 |",
  "| South | 95,150 |",
  "",
].join("\n");

/** Waits until the thread's run has ended (the composer offers Send again, not Stop). */
async function settled(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0, { timeout: 30_000 });
}

/**
 * Builds the showcase thread in `page` against the mock model at `mockUrl`, in Ultra mode with the mock's
 * reasoning model, and leaves it waiting on a clarification.
 */
export async function buildShowcaseThread(page: Page, mockUrl: string): Promise<void> {
  await configureEndpoint(page, { baseUrl: mockUrl, model: "mock-thinking" });
  // The mock model's server also plays a search and a reader provider.
  const mockOrigin = new URL(mockUrl).origin;
  await editSettings(page, "Web", async (dialog) => {
    await dialog.getByRole("combobox", { name: "Search provider" }).selectOption("tavily");
    await dialog.getByRole("textbox", { name: "Search API key" }).fill("tvly-showcase");
    await dialog.getByRole("textbox", { name: "Search base URL" }).fill(`${mockOrigin}/tavily`);
    await dialog.getByRole("textbox", { name: "Fetch base URL" }).fill(`${mockOrigin}/jina`);
  });
  await page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Ultra" }).check();

  await page
    .getByLabel("Attach files")
    .setInputFiles({ name: "sales.csv", mimeType: "text/csv", buffer: Buffer.from(SALES_CSV) });
  await send(page, "Here are the Q3 sales figures. Show me a markdown summary first.");
  await settled(page);

  await send(
    page,
    callTool("bash", {
      description: "Look at the uploaded figures",
      command: "head -4 /mnt/user-data/uploads/sales.csv && wc -l /mnt/user-data/uploads/sales.csv",
    }),
  );
  await settled(page);

  await send(
    page,
    callTool("write_file", {
      description: "Write the report",
      path: "/mnt/user-data/outputs/q3-report.md",
      content: REPORT,
    }),
  );
  await settled(page);
  await send(page, callTool("present_files", { filepaths: ["/mnt/user-data/outputs/q3-report.md"] }));
  await settled(page);

  await send(page, callTool("web_search", { description: "Find regional benchmarks", query: "Q3 retail sales" }));
  await settled(page);

  await send(page, "Make a plan demo for the Q4 forecast");
  await expect(page.getByRole("region", { name: "Plan" })).toContainText("3 of 3 done", { timeout: 30_000 });
  await settled(page);

  await send(page, "Please fan out the regional counts");
  await expect(conversation(page).getByRole("article", { name: /^Subtask:/ })).toHaveCount(3, { timeout: 30_000 });
  await settled(page);

  await send(
    page,
    callTool("ask_clarification", {
      question: "Which format should the Q4 forecast take?",
      clarification_type: "approach_choice",
      options: ["A slide deck", "A one-page report", "A spreadsheet"],
    }),
  );
  await expect(conversation(page).getByRole("group", { name: "Clarification" })).toContainText("Which format", {
    timeout: 30_000,
  });
  await expect(assistantMessages(page).first()).toBeVisible();
}
