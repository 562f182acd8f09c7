// Two tabs on one thread: one run at a time across tabs, both show what the other wrote, and neither deletes a thread
// the other is running.
import { expect, test } from "@playwright/test";
import { assistantMessages, configureEndpoint, conversation, deleteThread, send } from "./fixtures.ts";

test("a second tab cannot run a thread the first is running, and both end with the same messages", async ({
  context,
}) => {
  const first = await context.newPage();
  await first.goto("/");
  await configureEndpoint(first);
  await send(first, "something long please");
  await expect(assistantMessages(first)).toContainText("Sentence 1");
  const threadUrl = first.url();
  expect(threadUrl).toMatch(/#\/t\//);

  const second = await context.newPage();
  await second.goto(threadUrl);
  await expect(conversation(second).getByRole("article", { name: "User message" })).toHaveText("something long please");
  await send(second, "hello");
  // Shown in the conversation while the refused run ends, then kept as a notice.
  await expect(second.getByRole("alert").filter({ hasText: "running a reply in another tab" }).first()).toBeVisible();

  await first.getByRole("button", { name: "Stop" }).click();
  await expect(conversation(first).getByText("Stopped")).toBeVisible();
  // The second tab hears about the change and shows the same history, without a reload.
  await expect(conversation(second).getByText("Stopped")).toBeVisible();
  const firstText = await conversation(first).innerText();
  expect(await conversation(second).innerText()).toBe(firstText);

  // Now the second tab may run the thread, and the first one sees the result.
  await send(second, "hello");
  await expect(assistantMessages(second).last()).toContainText("answer from a script.");
  await expect(assistantMessages(first).last()).toContainText("answer from a script.");
});

test("closing the page mid-run keeps the thread, and a new message works after reopening", async ({ context }) => {
  const page = await context.newPage();
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, "tell me something long");
  await expect(assistantMessages(page)).toContainText("Sentence 2");
  const threadUrl = page.url();
  await page.close();

  const reopened = await context.newPage();
  await reopened.goto(threadUrl);
  // What was saved before the page closed is there: the user's message. The run's lock died with the page.
  await expect(conversation(reopened).getByRole("article", { name: "User message" })).toHaveText(
    "tell me something long",
  );
  await send(reopened, "hello");
  await expect(assistantMessages(reopened).last()).toContainText("answer from a script.");
  await expect(conversation(reopened).getByRole("article", { name: "User message" })).toHaveCount(2);
});

test("a tab cannot delete a thread another tab is running, and says so", async ({ context }) => {
  const first = await context.newPage();
  await first.goto("/");
  await configureEndpoint(first);
  await send(first, "something long please");
  await expect(assistantMessages(first)).toContainText("Sentence 1");
  const threadUrl = first.url();

  const second = await context.newPage();
  await second.goto(threadUrl);
  await expect(conversation(second).getByRole("article", { name: "User message" })).toHaveText("something long please");
  await deleteThread(second);
  await expect(
    second
      .getByRole("alert")
      .filter({ hasText: "This thread is running in another tab; stop it there before deleting it." }),
  ).toBeVisible();
  const threads = (page: typeof first) => page.getByRole("navigation", { name: "Threads" }).getByRole("link");
  await expect(threads(second)).toHaveCount(1);

  // Once it is stopped there, the delete goes through, and the first tab hears of it.
  await first.getByRole("button", { name: "Stop" }).click();
  await expect(conversation(first).getByText("Stopped")).toBeVisible();
  await deleteThread(second);
  await expect(threads(second)).toHaveCount(0);
  await expect(threads(first)).toHaveCount(0);
});
