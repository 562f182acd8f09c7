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
  await expect(log.getByRole("list", { name: "Tool calls" }).first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Plan" })).toContainText("3 of 3 done");
  await expect(log.getByRole("article", { name: /^Subtask:/ })).toHaveCount(3);
  await expect(log.getByRole("group", { name: "Clarification" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Preview q3-report.md" })).toBeVisible();
  expect(errors).toEqual([]);
});
