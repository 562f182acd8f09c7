// Branches in Chromium: edit a message and move between its versions (files and reloads included), regenerate a
// reply, and continue a run cut off by a closed page from its last saved step.
import { expect, test, type Page } from "@playwright/test";
import {
  assistantMessages,
  callTool,
  configureEndpoint,
  conversation,
  expectNoA11yViolations,
  mockRequests,
  send,
  toolCallSaved,
} from "./fixtures.ts";

function userMessages(page: Page) {
  return conversation(page).getByRole("article", { name: "User message" });
}

/** Sends `text` and waits for the reply: its `articles`-th new assistant message (a tool call is one, its answer the next). */
async function sendAndWait(page: Page, text: string, reply: string | RegExp, articles = 1): Promise<void> {
  const count = await assistantMessages(page).count();
  await send(page, text);
  await expect(assistantMessages(page).nth(count + articles - 1)).toContainText(reply);
  await expect(page.getByRole("button", { name: "Stop" })).toBeHidden();
}

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
});

test("editing the second of three messages forks the thread; both versions stay reachable, after a reload too", async ({
  page,
}) => {
  const key = crypto.randomUUID().slice(0, 8);
  for (const word of ["alpha", "beta", "gamma"]) {
    await sendAndWait(page, `${word} ${key}`, `You said: ${word} ${key}`);
  }

  const second = userMessages(page).nth(1);
  await second.getByRole("button", { name: "Edit" }).click();
  const box = second.getByRole("textbox", { name: "Edit message" });
  await expect(box).toBeFocused();
  await expectNoA11yViolations(page, "a user message being edited");
  await box.fill(`beta edited ${key}`);
  await second.getByRole("button", { name: "Send" }).click();

  await expect(assistantMessages(page).last()).toContainText(`You said: beta edited ${key}`);
  await expect(userMessages(page)).toHaveCount(2);
  const edited = userMessages(page).nth(1);
  await expect(edited).toContainText("2/2");
  await expectNoA11yViolations(page, "a message with versions");
  // The model was sent the first exchange and the edited message: not the original second or third.
  const sent = (await mockRequests(page)).findLast((messages) =>
    messages.some((message) => message.text === `beta edited ${key}`),
  );
  expect(sent?.filter((message) => message.role === "user").map((message) => message.text)).toEqual([
    `alpha ${key}`,
    `beta edited ${key}`,
  ]);

  await edited.getByRole("button", { name: "Previous version" }).click();
  await expect(userMessages(page)).toHaveCount(3);
  await expect(userMessages(page).nth(1)).toContainText(`beta ${key}`);
  await expect(userMessages(page).nth(1)).toContainText("1/2");
  await expect(assistantMessages(page).last()).toContainText(`You said: gamma ${key}`);

  // The thread opens on the version shown last.
  await page.reload();
  await expect(userMessages(page)).toHaveCount(3);
  await expect(userMessages(page).nth(1)).toContainText("1/2");
  await userMessages(page).nth(1).getByRole("button", { name: "Next version" }).click();
  await expect(userMessages(page)).toHaveCount(2);
  await expect(userMessages(page).nth(1)).toContainText(`beta edited ${key}`);
});

test("regenerating a reply makes a second version of it", async ({ page }) => {
  const key = crypto.randomUUID().slice(0, 8);
  await sendAndWait(page, `regenerate me ${key}`, `You said: regenerate me ${key}`);
  await assistantMessages(page).last().getByRole("button", { name: "Regenerate" }).click();
  await expect(assistantMessages(page).last()).toContainText("2/2");
  await expect(assistantMessages(page).last()).toContainText(`You said: regenerate me ${key}`);
  await expect(userMessages(page)).toHaveCount(1);
  const runs = (await mockRequests(page)).filter(
    (messages) => messages.at(-1)?.role === "user" && messages.at(-1)?.text === `regenerate me ${key}`,
  );
  expect(runs).toHaveLength(2);
  await assistantMessages(page).last().getByRole("button", { name: "Previous version" }).click();
  await expect(assistantMessages(page).last()).toContainText("1/2");
});

test("a file written in one version is absent in the other", async ({ page }) => {
  const key = crypto.randomUUID().slice(0, 8);
  const path = `/mnt/user-data/workspace/branch-${key}.txt`;
  const read = callTool("bash", { command: `cat ${path} 2>/dev/null || echo no-file-${key}` });
  await sendAndWait(page, callTool("bash", { command: `echo written-${key} > ${path}` }), "The tool returned", 2);
  await sendAndWait(page, read, `written-${key}`, 2);

  // Edit the first message into one that writes nothing: the second version starts without the file.
  await userMessages(page).first().getByRole("button", { name: "Edit" }).click();
  await userMessages(page).first().getByRole("textbox", { name: "Edit message" }).fill(`nothing written ${key}`);
  await userMessages(page).first().getByRole("button", { name: "Send" }).click();
  await expect(assistantMessages(page).last()).toContainText(`You said: nothing written ${key}`);
  await sendAndWait(page, read, `no-file-${key}`, 2);

  // Back on the first version, the file is there again.
  await userMessages(page).first().getByRole("button", { name: "Previous version" }).click();
  await expect(userMessages(page).first()).toContainText("1/2");
  await sendAndWait(page, read, `written-${key}`, 2);
});

test("a run cut off by a closed page continues from its last saved step", async ({ page, context }) => {
  const key = crypto.randomUUID().slice(0, 8);
  const text = callTool("bash", { command: `sleep 6; echo resumed-${key}` });
  await send(page, text);
  // The tool is running (the model's call is saved): the page closes, and its workers with it.
  await expect(conversation(page).getByRole("list", { name: "Tool calls" }).last()).toBeVisible();
  await toolCallSaved(page, `resumed-${key}`);
  const url = page.url();
  await page.close();

  const again = await context.newPage();
  await again.goto(url);
  const resume = again.getByRole("button", { name: "Continue" });
  await expect(resume).toBeVisible();
  await expectNoA11yViolations(again, "a cut-off run offering Continue");
  await resume.click();
  await expect(assistantMessages(again).last()).toContainText(`resumed-${key}`);
  await expect(resume).toBeHidden();
  // The turn was not sent again from the start: one request ends with the user's message.
  const fromStart = (await mockRequests(again)).filter(
    (messages) => messages.at(-1)?.role === "user" && messages.at(-1)?.text === text,
  );
  expect(fromStart).toHaveLength(1);
  await expect(userMessages(again)).toHaveCount(1);
});
