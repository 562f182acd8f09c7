// The lead agent as the user meets it: modes, the live plan, retried rate limits, models with abilities.
import { expect, test } from "@playwright/test";
import {
  assistantMessages,
  configureEndpoint,
  conversation,
  editSettings,
  fromUser,
  mockLog,
  MOCK_URL,
  send,
} from "./fixtures.ts";

test("Pro mode shows the plan as a todo list that updates live, and it stays after a reload", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  const modes = page.getByRole("radiogroup", { name: "Mode" });
  await expect(modes.getByRole("radio")).toHaveCount(4);
  await modes.getByRole("radio", { name: "Pro" }).check();
  await send(page, "plan demo for the weekly report");

  const plan = page.getByRole("region", { name: "Plan" });
  const items = plan.getByRole("listitem");
  await expect(items).toHaveText([
    "◐Gather the facts (in progress)",
    "○Draft the answer (to do)",
    "○Check the result (to do)",
  ]);
  await expect(items.nth(0)).toHaveText("✓Gather the facts (done)");
  await expect(items.nth(1)).toHaveText("◐Draft the answer (in progress)");
  await expect(plan).toContainText("3 of 3 done");
  await expect(assistantMessages(page).last()).toHaveText("All three steps of the plan are done.");

  await page.reload();
  await expect(page.getByRole("region", { name: "Plan" })).toContainText("3 of 3 done");
  // The choice of mode is remembered.
  await expect(page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Pro" })).toBeChecked();
});

test("Flash mode gives the agent no plan tool", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Flash" }).check();
  await send(page, "plan demo without a plan");
  await expect(assistantMessages(page).last()).toHaveText("You said: plan demo without a plan");
  await expect(page.getByRole("region", { name: "Plan" })).toHaveCount(0);
});

test("a 429 from the model is retried and the user only sees the answer", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  // A text of its own: the mock answers 429 the first time it sees a text, even when its server is reused.
  const text = `please rate limit this e2e request ${crypto.randomUUID().slice(0, 8)}`;
  await send(page, text);
  await expect(assistantMessages(page).last()).toHaveText("Recovered after a rate limit.");
  await expect(conversation(page).getByRole("alert")).toHaveCount(0);
  // The 429 was served, and the same request went again and was answered.
  const served = (await mockLog(page)).filter((entry) => entry.scenario === "rate-limit" && fromUser(entry, text));
  expect(served.map((entry) => entry.status)).toEqual([429, 200]);
});

test("a model marked Thinking reasons only in a reasoning mode: not in Flash, and in Thinking, shown apart from the answer", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  await editSettings(page, "Models", async (dialog) => {
    await dialog.getByRole("combobox", { name: "Add a model" }).fill("mock-thinking");
    await dialog.getByRole("button", { name: "Add model" }).click();
    await dialog
      .getByRole("group", { name: "mock-thinking" })
      .getByRole("checkbox", { name: "Thinking", exact: true })
      .check();
  });
  await page.getByRole("combobox", { name: "Model for this message" }).selectOption("mock-thinking");
  const modes = page.getByRole("radiogroup", { name: "Mode" });
  const key = crypto.randomUUID().slice(0, 8);

  // Flash asks for no reasoning, and the model (like a real one) gives none: the answer comes alone.
  await modes.getByRole("radio", { name: "Flash" }).check();
  await send(page, `answer this quickly ${key}`);
  const quick = assistantMessages(page).last();
  await expect(quick).toHaveText(`You said: answer this quickly ${key}`);
  await expect(quick.getByText("Reasoning")).toHaveCount(0);

  // Switching the Mode to Thinking turns reasoning on in the same thread.
  await modes.getByRole("radio", { name: "Thinking" }).check();
  await send(page, `think about this ${key}`);
  const answer = assistantMessages(page).last();
  await expect(answer).toContainText(`You said: think about this ${key}`);
  await answer.getByText("Reasoning").click();
  await expect(answer).toContainText("Let me think about this step by step.");
  const asked = (await mockLog(page)).filter((entry) => entry.scenario === "echo" && fromUser(entry, key));
  expect(asked.map((entry) => entry.body.reasoning_effort)).toEqual([undefined, "low"]);
});

test("web_search and web_fetch use the providers set in Settings → Web", async ({ page }) => {
  const mockOrigin = new URL(MOCK_URL).origin;
  await page.goto("/");
  await configureEndpoint(page);
  await editSettings(page, "Web", async (dialog) => {
    await dialog.getByRole("combobox", { name: "Search provider", exact: true }).selectOption("tavily");
    await dialog.getByRole("textbox", { name: "Search API key", exact: true }).fill("tvly-test");
    await dialog.getByRole("textbox", { name: "Search base URL", exact: true }).fill(`${mockOrigin}/tavily`);
    await dialog.getByRole("textbox", { name: "Fetch base URL" }).fill(`${mockOrigin}/jina`);
  });

  await send(page, 'call tool web_search {"query":"fawn"}');
  await expect(assistantMessages(page).last()).toContainText("Result 1 for fawn");
  await send(page, `call tool web_fetch {"url":"${mockOrigin}/web/spring.html"}`);
  await expect(assistantMessages(page).last()).toContainText("Mock article: spring");
});

test("with model titles on, the thread is named by the model after the first exchange", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await editSettings(page, "Models", async (dialog) => {
    await dialog.getByRole("checkbox", { name: /Name threads with the model/ }).check();
  });

  await send(page, "tell me about herons");
  const threads = page.getByRole("navigation", { name: "Threads" });
  // After the first exchange the model's title replaces the first message as the thread's name.
  await expect(assistantMessages(page).last()).toHaveText("You said: tell me about herons");
  await expect(threads.getByRole("link", { name: "Mock conversation title" })).toBeVisible();
  await page.reload();
  await expect(threads.getByRole("link", { name: "Mock conversation title" })).toBeVisible();
});
