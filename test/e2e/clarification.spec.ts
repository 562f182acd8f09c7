// The agent asks before guessing: its question shows with option buttons or a free answer, and the answer, sent as
// the thread's next message (which the conversation does not show as a bubble), continues the run; the card then
// shows the answer.
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
  await expect(card.getByRole("textbox", { name: "Your answer" })).toBeVisible();
  await card.getByRole("button", { name: "PDF" }).click();
  const reply = 'For your clarification "Which format?", my answer is: PDF';
  // The model reads the answer with its question; the conversation shows it once, on the card.
  await expect(assistantMessages(page).last()).toHaveText(`You said: ${reply}`);
  await expect(conversation(page).getByRole("article", { name: "User message" })).toHaveCount(1);
  // Answered: the card stays and shows the answer; its buttons no longer act.
  await expect(card.getByRole("button", { name: "PDF" })).toBeDisabled();
  await expect(card.getByRole("button", { name: "PDF" })).toHaveAttribute("aria-pressed", "true");
  await expect(card).toContainText("Your answer: PDF");
  await expect(card.getByRole("textbox", { name: "Your answer" })).toHaveCount(0);

  await send(page, 'call tool ask_clarification {"question":"Which city?","clarification_type":"missing_info"}');
  const second = conversation(page).getByRole("group", { name: "Clarification" }).last();
  await expect(second.getByRole("button", { name: "Answer" })).toBeDisabled();
  await second.getByRole("textbox", { name: "Your answer" }).fill("Lisbon");
  await second.getByRole("button", { name: "Answer" }).click();
  await expect(assistantMessages(page).last()).toHaveText(
    'You said: For your clarification "Which city?", my answer is: Lisbon',
  );
  await expect(second).toContainText("Your answer: Lisbon");
});
