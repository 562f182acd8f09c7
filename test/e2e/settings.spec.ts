// Settings → Data: what Fawn stores in this browser and whether the browser keeps it.
import { expect, test } from "@playwright/test";
import { assistantMessages, configureEndpoint, send } from "./fixtures.ts";

test("the Data tab shows storage used and available", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, "hello");
  await expect(assistantMessages(page)).toContainText("answer from a script.");

  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("tab", { name: "Data" }).click();
  await expect(dialog.getByRole("tab", { name: "Data" })).toHaveAttribute("aria-selected", "true");
  const used = dialog.getByRole("status", { name: "Storage used" });
  await expect(used).toContainText(
    /Fawn uses \d+(\.\d)? (B|KB|MB) of the \d+(\.\d)? (MB|GB|TB) this browser allows it/,
  );
  await expect(dialog.getByText(/Storage is (not )?persistent/)).toBeVisible();

  await dialog.getByRole("tab", { name: "Models" }).click();
  await expect(dialog.getByRole("textbox", { name: "Base URL", exact: true })).toBeVisible();
});
