// Subagents as the user meets them: Ultra mode delegates with `task`, and each subtask is a live card.
import { expect, test } from "@playwright/test";
import { assistantMessages, configureEndpoint, conversation, openSettings, send, systemPromptFor } from "./fixtures.ts";

const DESCRIPTIONS = ["Count the apples", "Count the pears", "Count the plums"];
const NAMES = ["alpha", "beta", "gamma"];

test("Ultra mode fans one request out to three subagents whose cards show progress, then results", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Ultra" }).check();
  await send(page, "Please fan out the fruit count");

  const subtasks = conversation(page).getByRole("region", { name: "Subtasks" }).last();
  const cards = subtasks.getByRole("article");
  await expect(cards).toHaveCount(3);
  for (const description of DESCRIPTIONS) {
    await expect(subtasks.getByRole("article", { name: `Subtask: ${description}` })).toBeVisible();
  }
  // The three run side by side: each subagent takes over a second, so all three are seen running at once.
  await expect(cards.filter({ hasText: "Running" })).toHaveCount(3);
  await expect(cards.filter({ hasText: "Completed" })).toHaveCount(3, { timeout: 20_000 });
  for (const [index, name] of NAMES.entries()) {
    await expect(subtasks.getByRole("article", { name: `Subtask: ${DESCRIPTIONS[index]}` })).toContainText(
      `Subtask ${name} is complete: 3 found.`,
    );
  }
  // The lead agent got DeerFlow's result text back.
  await expect(assistantMessages(page).last()).toContainText("Task Succeeded. Result:");

  // After a reload the cards are rebuilt from the saved messages.
  await page.reload();
  const saved = conversation(page).getByRole("region", { name: "Subtasks" }).last();
  await expect(saved.getByRole("article").filter({ hasText: "Completed" })).toHaveCount(3);
  await expect(saved.getByRole("article", { name: "Subtask: Count the pears" })).toContainText(
    "Subtask beta is complete: 3 found.",
  );
});

test("Flash mode gives the agent no task tool", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Flash" }).check();
  await send(page, "Please fan out without subagents");
  await expect(assistantMessages(page).last()).toHaveText("You said: Please fan out without subagents");
  await expect(conversation(page).getByRole("region", { name: "Subtasks" })).toHaveCount(0);
});

test("Stop ends the run and its subagents; the cards say so and the thread goes on", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Ultra" }).check();
  await send(page, "Please fan out and then stop");
  const cards = conversation(page).getByRole("region", { name: "Subtasks" }).last().getByRole("article");
  await expect(cards.filter({ hasText: "Running" })).toHaveCount(3);
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(cards.filter({ hasText: /Stopped|Cancelled/ })).toHaveCount(3);
  await expect(cards.filter({ hasText: "Completed" })).toHaveCount(0);

  await page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Flash" }).check();
  await send(page, "hello after the stop");
  await expect(assistantMessages(page).last()).toHaveText(
    "Hello! I am Fawn's mock model. Ask me anything — I will answer from a script.",
  );
});

test("a subagent type defined in Settings → Subagents is offered to the agent in Ultra mode", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  const dialog = await openSettings(page, "Subagents");
  await dialog.getByRole("button", { name: "Add subagent type" }).click();
  await dialog
    .getByRole("group", { name: "New subagent type" })
    .getByRole("textbox", { name: "Name", exact: true })
    .fill("fruit-counter");
  // The group is named after the type as soon as it has a name.
  const type = dialog.getByRole("group", { name: "fruit-counter" });
  await type.getByRole("textbox", { name: "Description", exact: true }).fill("Counts fruit in baskets, precisely.");
  await type
    .getByRole("textbox", { name: "Instructions", exact: true })
    .fill("Count every fruit. Report numbers only.");
  await dialog.getByRole("button", { name: "Save subagents" }).click();
  await expect(dialog.getByRole("status")).toHaveText("Saved.");
  // A bad name is refused with a reason, and the saved settings stay.
  await dialog
    .getByRole("group", { name: "fruit-counter" })
    .getByRole("textbox", { name: "Name", exact: true })
    .fill("Bad Name");
  await dialog.getByRole("button", { name: "Save subagents" }).click();
  await expect(
    dialog.getByRole("group", { name: "Bad Name" }).getByRole("textbox", { name: "Name", exact: true }),
  ).toHaveAccessibleDescription(/hyphen-case/);
  // The refused edit is not saved, so closing asks; discarding it keeps what was saved.
  await dialog.getByRole("button", { name: "Close settings" }).click();
  await page.getByRole("dialog", { name: "Unsaved changes" }).getByRole("button", { name: "Discard changes" }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Ultra" }).check();
  await send(page, "hello from ultra");
  await expect(assistantMessages(page).last()).toContainText("Hello!");
  const prompt = await systemPromptFor(page, "hello from ultra");
  expect(prompt).toContain("fruit-counter");
  expect(prompt).toContain("Counts fruit in baskets, precisely.");
});
