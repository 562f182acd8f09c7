// Settings → Data: what Fawn stores in this browser and whether the browser keeps it.
import { expect, test } from "@playwright/test";
import { assistantMessages, configureEndpoint, conversation, editSettings, MOCK_URL, send } from "./fixtures.ts";

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

test("a second endpoint with its own key and models: its model is picked in the composer and gets the message", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  const secondUrl = MOCK_URL.replace("127.0.0.1", "localhost");
  await editSettings(page, "Models", async (dialog) => {
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await dialog.getByRole("textbox", { name: "Endpoint name" }).fill("Second");
    await dialog.getByRole("textbox", { name: "Base URL", exact: true }).fill(secondUrl);
    await dialog.getByRole("textbox", { name: "API key", exact: true }).fill("sk-second-e2e-4242");
    await dialog.getByRole("combobox", { name: "Add a model" }).fill("mock-vision");
    await dialog.getByRole("button", { name: "Add model" }).click();
    await dialog.getByRole("combobox", { name: "Add a model" }).fill("mock-thinking");
    await dialog.getByRole("button", { name: "Add model" }).click();
    await dialog.getByRole("group", { name: "mock-thinking" }).getByRole("checkbox", { name: "Thinking" }).check();
    // The main endpoint's fields are its own.
    await dialog.getByRole("combobox", { name: "Endpoint" }).selectOption({ index: 0 });
    await expect(dialog.getByRole("textbox", { name: "Base URL", exact: true })).toHaveValue(MOCK_URL);
  });

  const choice = page.getByRole("combobox", { name: "Model for this message" });
  await expect(choice.locator("optgroup")).toHaveCount(2);
  await expect(choice.locator("optgroup").nth(1)).toHaveAttribute("label", "Second");
  await choice.selectOption({ label: "mock-vision" });
  await send(page, "hello");
  await expect(assistantMessages(page)).toContainText("answer from a script.");
  const requests = (await (await page.request.get(`${new URL(MOCK_URL).origin}/__mock/requests`)).json()) as {
    headers: Record<string, string>;
    body: { model?: string };
  }[];
  const second = requests.filter((request) => request.headers.authorization === "Bearer sk-***4242");
  expect(second.length).toBeGreaterThan(0);
  expect(second.every((request) => request.headers.host?.startsWith("localhost"))).toBe(true);
  expect(second.at(-1)?.body.model).toBe("mock-vision");

  // Both endpoints are still there after a reload, the second with its key and flags.
  await page.reload();
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("tab", { name: "Models" }).click();
  await dialog.getByRole("combobox", { name: "Endpoint" }).selectOption({ label: "Second" });
  await expect(dialog.getByRole("textbox", { name: "Base URL", exact: true })).toHaveValue(secondUrl);
  await expect(dialog.getByRole("textbox", { name: "API key", exact: true })).toHaveValue("sk-second-e2e-4242");
  await expect(
    dialog.getByRole("group", { name: "mock-thinking" }).getByRole("checkbox", { name: "Thinking" }),
  ).toBeChecked();
  // A second endpoint with no model is refused with a sentence, and nothing changes.
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  await dialog.getByRole("textbox", { name: "Base URL", exact: true }).fill(secondUrl);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText(/List at least one model for Endpoint 3\./)).toBeVisible();
});

test("the default model may be another endpoint's: new messages go there, with that endpoint's key", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  const secondUrl = MOCK_URL.replace("127.0.0.1", "localhost");
  await editSettings(page, "Models", async (dialog) => {
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await dialog.getByRole("textbox", { name: "Endpoint name" }).fill("Backup");
    await dialog.getByRole("textbox", { name: "Base URL", exact: true }).fill(secondUrl);
    await dialog.getByRole("textbox", { name: "API key", exact: true }).fill("sk-backup-e2e-7777");
    await dialog.getByRole("combobox", { name: "Add a model" }).fill("mock-vision");
    await dialog.getByRole("button", { name: "Add model" }).click();
    await dialog.getByRole("group", { name: "mock-vision" }).getByRole("radio", { name: "Default" }).check();
    await expect(dialog.getByRole("combobox", { name: "Endpoint" }).locator("option:checked")).toHaveText(
      "Backup (default model)",
    );
  });

  await expect(page.getByText("Using mock-vision.")).toBeVisible();
  const choice = page.getByRole("combobox", { name: "Model for this message" });
  await expect(choice.locator("option:checked")).toHaveText("mock-vision");
  await send(page, "hello");
  await expect(assistantMessages(page)).toContainText("answer from a script.");
  const requests = (await (await page.request.get(`${new URL(MOCK_URL).origin}/__mock/requests`)).json()) as {
    headers: Record<string, string>;
    body: { model?: string };
  }[];
  const backup = requests.filter((request) => request.headers.authorization === "Bearer sk-***7777");
  expect(backup.at(-1)?.body.model).toBe("mock-vision");
  expect(backup.at(-1)?.headers.host?.startsWith("localhost")).toBe(true);

  // After a reload the default is still there; marking the main endpoint's model moves it back.
  await page.reload();
  await editSettings(page, "Models", async (dialog) => {
    const endpoints = dialog.getByRole("combobox", { name: "Endpoint" });
    await expect(endpoints.locator("option")).toHaveText(["Main endpoint", "Backup (default model)"]);
    await endpoints.selectOption({ label: "Backup (default model)" });
    await expect(
      dialog.getByRole("group", { name: "mock-vision" }).getByRole("radio", { name: "Default" }),
    ).toBeChecked();
    await endpoints.selectOption({ index: 0 });
    await dialog.getByRole("group", { name: "mock-model" }).getByRole("radio", { name: "Default" }).check();
    await expect(endpoints.locator("option")).toHaveText(["Main endpoint (default model)", "Backup"]);
  });
  await expect(page.getByRole("combobox", { name: "Model for this message" }).locator("option:checked")).toHaveText(
    "mock-model",
  );
});

test("a request an endpoint's server never answers (as with CORS) says to switch on Use the proxy for it", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  await editSettings(page, "Models", async (dialog) => {
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await dialog.getByRole("textbox", { name: "Endpoint name" }).fill("Blocked");
    await dialog.getByRole("textbox", { name: "Base URL", exact: true }).fill("http://127.0.0.1:9/v1");
    await dialog.getByRole("combobox", { name: "Add a model" }).fill("far-model");
    await dialog.getByRole("button", { name: "Add model" }).click();
  });
  await page.getByRole("combobox", { name: "Model for this message" }).selectOption({ label: "far-model" });
  await send(page, "hello");
  const alert = conversation(page).getByRole("alert");
  // A dropped connection is retried after 1, 2 and 4 s before the run gives up.
  await expect(alert).toContainText("Could not reach the model endpoint at http://127.0.0.1:9/v1", { timeout: 25_000 });
  await expect(alert).toContainText('"Use the proxy" switched on for the endpoint Blocked in Settings → Models');
});
