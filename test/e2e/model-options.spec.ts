// A model's Options in Settings → Models: a wrong temperature is marked under its field, a right one with max tokens
// and OpenAI's Responses API is saved and kept, and the next reply streams through /v1/responses carrying them.
import { expect, test } from "@playwright/test";
import { assistantMessages, configureEndpoint, MOCK_URL, openSettings, send } from "./fixtures.ts";

interface Recorded {
  path: string;
  body: { input?: unknown; temperature?: number; max_output_tokens?: number };
}

test("a model's options are checked, kept, and sent through the Responses API", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  const dialog = await openSettings(page, "Models");
  const row = dialog.getByRole("group", { name: "mock-model" });
  await row.getByText("Options").click();
  const temperature = row.getByRole("textbox", { name: "Temperature" });
  await temperature.fill("5");
  await row.getByRole("textbox", { name: "Max tokens" }).fill("800");
  await row.getByRole("checkbox", { name: "Use OpenAI's Responses API" }).check();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(temperature).toHaveAccessibleDescription("A temperature is a number from 0 to 2.");
  await expect(temperature).toBeFocused();

  await temperature.fill("0.4");
  // Leaving the field takes the change (its mark goes, and the Save button moves up) before Save is clicked.
  await temperature.press("Tab");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Saved.")).toBeVisible();
  await dialog.getByRole("button", { name: "Close settings" }).click();

  await send(page, "hello through responses");
  await expect(assistantMessages(page).last()).toContainText("Hello! I am Fawn's mock model.");
  const recorded = (await (await page.request.get(`${new URL(MOCK_URL).origin}/__mock/requests`)).json()) as Recorded[];
  const asked = recorded.filter((request) => JSON.stringify(request.body.input ?? "").includes("through responses"));
  expect(asked[0]?.path).toBe("/v1/responses");
  expect(asked[0]?.body).toMatchObject({ temperature: 0.4, max_output_tokens: 800 });

  await page.reload();
  const again = await openSettings(page, "Models");
  const kept = again.getByRole("group", { name: "mock-model" });
  await kept.getByText("Options").click();
  await expect(kept.getByRole("textbox", { name: "Temperature" })).toHaveValue("0.4");
  await expect(kept.getByRole("checkbox", { name: "Use OpenAI's Responses API" })).toBeChecked();
});
