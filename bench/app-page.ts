// Steps the Chromium benchmarks take in the built app, as a user would (the e2e tests have their own in test/e2e).
import type { Page } from "@playwright/test";

/** Points Settings → Models at the mock model at `baseUrl` (model `mock-model`, no key) and closes Settings. */
export async function configureMockModel(page: Page, baseUrl: string): Promise<void> {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("tab", { name: "Models" }).click();
  await dialog.getByRole("textbox", { name: "Base URL", exact: true }).fill(baseUrl);
  await dialog.getByRole("combobox", { name: "Model", exact: true }).fill("mock-model");
  await dialog.getByRole("button", { name: "Save" }).click();
  await dialog.getByText("Saved.").waitFor();
  await dialog.getByRole("button", { name: "Close settings" }).click();
}
