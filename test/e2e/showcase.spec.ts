// The showcase thread that docs/screenshots/ photographs holds every kind of message, and renders them without a
// console error: if a change drops one, this fails before the screenshots go stale.
import { expect, test } from "@playwright/test";
import { conversation, MOCK_URL } from "./fixtures.ts";
import { buildShowcaseThread } from "./showcase.ts";

test("the showcase thread holds every kind of message, with no console error", async ({ page }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto("/");
  await buildShowcaseThread(page, MOCK_URL);

  const log = conversation(page);
  await expect(
    log.getByRole("article", { name: "User message" }).first().getByRole("list", { name: "Files" }),
  ).toContainText("sales.csv");
  await expect(log.getByText("Reasoning").first()).toBeVisible();
  await expect(log.getByRole("table").first()).toBeVisible();
  await expect(log.locator("pre code").first()).toBeVisible();
  await expect(log.locator("pre code .hljs-keyword").first()).toBeVisible();
  await expect(log.locator("math").first()).toBeAttached();
  await expect(log.getByRole("link", { name: "Q3 retail sales by region (example.com)" })).toHaveText("example.com");
  // Tool steps, each shown for what it is once opened: the command and its output, search results as links, the
  // written file rendered.
  const steps = log.getByRole("list", { name: "Tool calls" });
  const command = steps.getByRole("listitem").filter({ hasText: /^\s*Ran head -5/ });
  await command.getByText(/^Ran head -5/).click();
  await expect(command.locator(".step-output")).toContainText("region,quarter,revenue");
  await expect(command).toContainText("Look at the uploaded figures");
  const search = steps.getByRole("listitem").filter({ hasText: "Searched the web for" });
  await search.getByText(/^Searched the web for/).click();
  await expect(search.getByRole("list", { name: "Search results" }).getByRole("link")).toHaveCount(3);
  const written = steps.getByRole("listitem").filter({ hasText: "Wrote /mnt/user-data/outputs/q3-report.md" });
  await written.getByText(/^Wrote /).click();
  await expect(written.getByRole("table")).toContainText("143,900");
  // A result shows on its step, not again on its own.
  await expect(log.getByText(/^Tool result:/)).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Plan" })).toContainText("3 of 3 done");
  await expect(log.getByRole("article", { name: /^Subtask:/ })).toHaveCount(3);
  await expect(log.getByRole("group", { name: "Clarification" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Preview q3-report.md" })).toBeVisible();
  expect(errors).toEqual([]);
});
