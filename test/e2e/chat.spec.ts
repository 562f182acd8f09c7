// Chatting with a model through the agent worker: streaming, Stop, reload, and clear errors.
import { expect, test } from "@playwright/test";
import { assistantMessages, configureEndpoint, conversation, MOCK_URL, send } from "./fixtures.ts";

const HELLO_REPLY = "Hello! I am Fawn's mock model. Ask me anything — I will answer from a script.";

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "New thread" })).toBeVisible();
});

test("a reply streams in over several renders", async ({ page }) => {
  await configureEndpoint(page);
  // Record each distinct text the assistant message shows, from the first render on.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __renders: string[] }).__renders = seen;
    new MutationObserver(() => {
      const article = document.querySelector('[aria-label="Assistant message"]');
      const text = article?.textContent?.trim() ?? "";
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  // A slow reply (a word every 60 ms), so even a busy machine renders it in several steps.
  await send(page, "please write something long");
  await expect(conversation(page).getByRole("article", { name: "User message" })).toHaveText(
    "please write something long",
  );
  await expect(assistantMessages(page)).toContainText("Sentence 4 of a long reply.");
  const renders = await page.evaluate(() => (window as unknown as { __renders: string[] }).__renders);
  // Each render adds to the one before: the reply grows in place.
  const growing = renders.filter((text) => text.startsWith("Sentence 1"));
  expect(growing.length).toBeGreaterThan(2);
  for (const [index, text] of growing.entries()) if (index > 0) expect(text.startsWith(growing[index - 1]!)).toBe(true);
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(
    page.getByRole("navigation", { name: "Threads" }).getByRole("link", { name: "please write something long" }),
  ).toBeVisible();
});

test("Stop ends a long reply, keeps what came, and the next message works", async ({ page }) => {
  await configureEndpoint(page);
  await send(page, "please write something long");
  const stop = page.getByRole("button", { name: "Stop" });
  await expect(stop).toBeVisible();
  await expect(assistantMessages(page)).toContainText("Sentence 2");
  await stop.click();
  await expect(page.getByRole("button", { name: "Stop" })).toBeHidden();
  await expect(conversation(page).getByText("Stopped")).toBeVisible();
  const kept = (await assistantMessages(page).first().textContent()) ?? "";
  expect(kept).toContain("Sentence 1");
  expect(kept).not.toContain("Sentence 60 ");

  await send(page, "hello");
  await expect(assistantMessages(page).last()).toHaveText(HELLO_REPLY);
  await expect(conversation(page).getByRole("article", { name: "User message" })).toHaveCount(2);
});

test("threads and their messages survive a reload", async ({ page }) => {
  await configureEndpoint(page);
  await send(page, "hello");
  await expect(assistantMessages(page)).toHaveText(HELLO_REPLY);
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await page.getByRole("button", { name: "New thread" }).click();
  await expect(conversation(page).getByRole("article")).toHaveCount(0);
  // Shift+Enter adds a line; Enter sends.
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("remember this");
  await box.press("Shift+Enter");
  await box.pressSequentially("second thread");
  await expect(box).toHaveValue("remember this\nsecond thread");
  await box.press("Enter");
  await expect(box).toHaveValue("");
  await expect(assistantMessages(page)).toHaveText("You said: remember this\nsecond thread");
  // The run has ended (and saved) when Send is back.
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

  await page.reload();
  const threads = page.getByRole("navigation", { name: "Threads" });
  await expect(threads.getByRole("link")).toHaveCount(2);
  // The open thread comes back after the reload, then the other one opens from the list.
  await expect(assistantMessages(page)).toHaveText("You said: remember this\nsecond thread");
  await threads.getByRole("link", { name: "hello" }).click();
  await expect(conversation(page).getByRole("article", { name: "User message" })).toHaveText("hello");
  await expect(assistantMessages(page)).toHaveText(HELLO_REPLY);
  // Settings survive too.
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await expect(page.getByRole("textbox", { name: "Base URL", exact: true })).toHaveValue(MOCK_URL);
});

test("a wrong API key shows a clear error in the conversation", async ({ page }) => {
  await configureEndpoint(page, { apiKey: "sk-wrong-key-123456" });
  await send(page, "hello");
  const alert = conversation(page).getByRole("alert");
  await expect(alert).toContainText("refused the API key (401)");
  await expect(alert.getByRole("button", { name: "Open Settings" })).toBeVisible();
  // The thread stays usable: fix the key and send again.
  await configureEndpoint(page, { apiKey: "sk-good-key" });
  await send(page, "hello");
  await expect(assistantMessages(page)).toHaveText(HELLO_REPLY);
});

test("an unreachable endpoint shows a clear error in the conversation", async ({ page }) => {
  await configureEndpoint(page, { baseUrl: "http://127.0.0.1:9/v1" });
  await send(page, "hello");
  // A dropped connection is retried after 1, 2 and 4 s (MODEL_RETRY_DEFAULTS) before the run gives up; meanwhile the
  // conversation says why the reply is late.
  await expect(conversation(page).getByRole("status")).toContainText(
    /Could not reach the model endpoint; trying again in about \d s \(retry [123] of 3\)/,
  );
  await expect(conversation(page).getByRole("alert")).toContainText(
    "Could not reach the model endpoint at http://127.0.0.1:9/v1",
    { timeout: 25_000 },
  );
  await expect(conversation(page).getByRole("status")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
});

test("sending before any model is set up says what to do", async ({ page }) => {
  await send(page, "hello");
  await expect(conversation(page).getByRole("alert")).toContainText("Open Settings → Models");
});

test("model output is sanitized: no script runs from a reply", async ({ page }) => {
  await configureEndpoint(page);
  let dialogs = 0;
  page.on("dialog", (dialog) => {
    dialogs++;
    void dialog.dismiss();
  });
  await send(page, "show me markdown");
  await expect(assistantMessages(page).getByRole("table")).toBeVisible();
  await expect(assistantMessages(page).locator("pre code")).toBeVisible();
  expect(await assistantMessages(page).locator("[onerror]").count()).toBe(0);
  expect(dialogs).toBe(0);
});

test("Settings refuses an invalid Base URL and lists the endpoint's models", async ({ page }) => {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("textbox", { name: "Base URL", exact: true }).fill("not a url");
  await dialog.getByRole("combobox", { name: "Model", exact: true }).fill("m");
  await dialog.getByRole("button", { name: "Save" }).click();
  // The refusal is the field's own: marked, described by the sentence under it, with the cursor in it.
  const baseUrl = dialog.getByRole("textbox", { name: "Base URL", exact: true });
  await expect(baseUrl).toHaveAttribute("aria-invalid", "true");
  await expect(baseUrl).toHaveAccessibleDescription(/Base URL must be an http:\/\/ or https:\/\/ address/);
  await expect(baseUrl).toBeFocused();

  await baseUrl.fill(MOCK_URL);
  await dialog.getByRole("button", { name: "List models" }).click();
  await expect(dialog.getByText("The endpoint offers 3 models.")).toBeVisible();
  await expect(dialog.getByRole("list", { name: "Models the endpoint offers" }).getByRole("listitem")).toHaveCount(3);
});

test("two threads run side by side, each with its own Stop", async ({ page }) => {
  await configureEndpoint(page);
  await send(page, "a long answer please");
  await expect(assistantMessages(page)).toContainText("Sentence 1");
  const threads = page.getByRole("navigation", { name: "Threads" });
  await expect(threads.getByRole("img", { name: "Running" })).toHaveCount(1);

  await page.getByRole("button", { name: "New thread" }).click();
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await send(page, "hello");
  await expect(assistantMessages(page)).toHaveText(HELLO_REPLY);
  // The long reply is still running in the first thread; open it and stop it there.
  await threads.getByRole("link", { name: "a long answer please" }).click();
  await expect(assistantMessages(page)).toContainText("Sentence 3");
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(conversation(page).getByText("Stopped")).toBeVisible();
  await expect(threads.getByRole("img", { name: "Running" })).toHaveCount(0);
});
