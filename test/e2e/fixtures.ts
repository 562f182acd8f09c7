// Shared steps for the end-to-end tests, written against the UI contract of DESIGN.md §4.
import { expect, type Page } from "@playwright/test";

export const MOCK_URL = `http://127.0.0.1:${process.env.E2E_MOCK_PORT ?? 11436}/v1`;

export async function configureEndpoint(
  page: Page,
  endpoint: { baseUrl?: string; apiKey?: string; model?: string } = {},
): Promise<void> {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("tab", { name: "Models" }).click();
  await dialog.getByRole("textbox", { name: "Base URL", exact: true }).fill(endpoint.baseUrl ?? MOCK_URL);
  await dialog.getByRole("textbox", { name: "API key", exact: true }).fill(endpoint.apiKey ?? "sk-test-key");
  await dialog.getByRole("combobox", { name: "Model", exact: true }).fill(endpoint.model ?? "mock-model");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Saved.")).toBeVisible();
  await dialog.getByRole("button", { name: "Close settings" }).click();
  await expect(dialog).toBeHidden();
}

export async function send(page: Page, text: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

export function conversation(page: Page) {
  return page.getByRole("log", { name: "Conversation" });
}

export function assistantMessages(page: Page) {
  return conversation(page).getByRole("article", { name: "Assistant message" });
}
