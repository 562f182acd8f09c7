// Anthropic and Gemini endpoints natively, against the mock's Messages and Gemini routes: a reply streams, a tool
// runs, thinking shows, and their errors (bad key, lasting rate limit, overload) read as Fawn's sentences.
import { expect, test, type Page } from "@playwright/test";
import { assistantMessages, callTool, conversation, editSettings, MOCK_URL, openSettings, send } from "./fixtures.ts";

/** The mock server without `/v1`: each SDK adds its own API path. */
const MOCK_ORIGIN = new URL(MOCK_URL).origin;

const PROVIDERS = [
  {
    preset: "Anthropic",
    provider: "anthropic",
    badKey: "refused the API key (401)",
    limited: "rate limiting requests (429)",
    overloaded: "The model provider is overloaded (529)",
  },
  {
    preset: "Gemini",
    provider: "gemini",
    badKey: "refused the API key (400): API key not valid",
    limited: "rate limiting requests (429)",
    overloaded: "The model provider is unavailable right now (503)",
  },
] as const;

/** Settings → Models: the provider's preset, the mock as its Base URL, `mock-thinking` marked Thinking. */
async function configure(page: Page, preset: string, provider: string, apiKey = "sk-test-key"): Promise<void> {
  await editSettings(page, "Models", async (dialog) => {
    await dialog.getByRole("group", { name: "Endpoint presets" }).getByRole("button", { name: preset }).click();
    await expect(dialog.getByRole("combobox", { name: "Provider" })).toHaveValue(provider);
    await dialog.getByRole("textbox", { name: "Base URL", exact: true }).fill(MOCK_ORIGIN);
    await dialog.getByRole("textbox", { name: "API key", exact: true }).fill(apiKey);
    await dialog.getByRole("combobox", { name: "Model", exact: true }).fill("mock-thinking");
    await dialog
      .getByRole("group", { name: "mock-thinking" })
      .getByRole("checkbox", { name: "Thinking", exact: true })
      .check();
  });
}

for (const each of PROVIDERS) {
  test.describe(`${each.preset} natively`, () => {
    test("a reply streams with its thinking, and a tool call runs", async ({ page }) => {
      await page.goto("/");
      await configure(page, each.preset, each.provider);
      await page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Thinking" }).check();
      await send(page, `hello from ${each.preset}`);
      const answer = assistantMessages(page).last();
      await expect(answer).toContainText("Hello! I am Fawn's mock model.");
      await answer.getByText("Reasoning").click();
      await expect(answer).toContainText("Let me think about this step by step.");

      await send(page, callTool("bash", { command: `echo ${each.provider}-tool-ran` }));
      await expect(assistantMessages(page).last()).toContainText("The tool returned:");
      await expect(assistantMessages(page).last()).toContainText(`${each.provider}-tool-ran`);
    });

    test("List models reads the provider's own list", async ({ page }) => {
      await page.goto("/");
      await configure(page, each.preset, each.provider);
      const dialog = await openSettings(page, "Models");
      await dialog.getByRole("button", { name: "List models" }).click();
      await expect(dialog.getByText("The endpoint offers 3 models.")).toBeVisible();
      if (each.provider === "gemini") {
        // Gemini's list gives each model's input limit: it becomes the model's context window.
        await expect(
          dialog.getByRole("group", { name: "mock-thinking" }).getByRole("textbox", { name: "Context window" }),
        ).toHaveValue("1048576");
      }
    });

    test("a bad key shows the refused-key sentence", async ({ page }) => {
      await page.goto("/");
      await configure(page, each.preset, each.provider, "sk-bad-key-123456");
      await send(page, "hello");
      await expect(conversation(page).getByRole("alert")).toContainText(each.badKey);
    });

    test("a lasting rate limit shows its sentence after the retries", async ({ page }) => {
      await page.goto("/");
      await configure(page, each.preset, each.provider);
      await send(page, `quota exhausted (${each.provider})`);
      await expect(conversation(page).getByRole("alert")).toContainText(each.limited, { timeout: 30_000 });
    });

    test("an overloaded provider shows its sentence after the retries", async ({ page }) => {
      await page.goto("/");
      await configure(page, each.preset, each.provider);
      await send(page, `overloaded (${each.provider})`);
      await expect(conversation(page).getByRole("alert")).toContainText(each.overloaded, { timeout: 30_000 });
    });
  });
}

test("a provider that refuses browsers switches Use the proxy on, and the form says why", async ({ page }) => {
  await page.goto("/");
  const dialog = await openSettings(page, "Models");
  await dialog.getByRole("group", { name: "Endpoint presets" }).getByRole("button", { name: "Mistral" }).click();
  await expect(dialog.getByRole("checkbox", { name: "Use the proxy" })).toBeChecked();
  await expect(dialog.getByText(/Mistral refuses requests from web pages/)).toBeVisible();
  await expect(dialog.getByRole("combobox", { name: "Provider" })).toHaveValue("openai-compatible");
});
