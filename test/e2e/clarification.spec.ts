// The agent asks before guessing: its question shows with option buttons, and choosing one continues the thread.
import { expect, test } from "@playwright/test";
import { assistantMessages, configureEndpoint, conversation, send } from "./fixtures.ts";

test("a clarification with options shows the question and buttons; choosing one continues the run", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(
    page,
    'call tool ask_clarification {"question":"Which format?","clarification_type":"approach_choice","options":["PDF","Plain text"]}',
  );
  const card = conversation(page).getByRole("group", { name: "Clarification" });
  await expect(card).toContainText("Which format?");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await card.getByRole("button", { name: "PDF" }).click();
  await expect(conversation(page).getByRole("article", { name: "User message" }).last()).toHaveText("PDF");
  await expect(assistantMessages(page).last()).toHaveText("You said: PDF");
  // Answered: the card stays, its buttons no longer act.
  await expect(card.getByRole("button", { name: "PDF" })).toBeDisabled();

  await send(page, 'call tool ask_clarification {"question":"Which city?","clarification_type":"missing_info"}');
  const second = conversation(page).getByRole("group", { name: "Clarification" }).last();
  await second.getByRole("textbox", { name: "Your answer" }).fill("Lisbon");
  await second.getByRole("button", { name: "Answer" }).click();
  await expect(assistantMessages(page).last()).toHaveText("You said: Lisbon");
});
