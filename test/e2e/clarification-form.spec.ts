// The agent asks with a form: typed fields, required ones checked before sending; the answer reaches the model as
// one readable line and the card keeps it, read-only, after a reload.
import { expect, test, type Page } from "@playwright/test";
import { assistantMessages, configureEndpoint, conversation, MOCK_URL, send } from "./fixtures.ts";

const FORM = {
  question: "Expense details?",
  clarification_type: "missing_info",
  fields: [
    { name: "amount", label: "Amount", type: "number", required: true, placeholder: "In euros" },
    { name: "category", label: "Category", type: "select", required: "yes", options: ["travel", "meals"] },
    { name: "receipts", label: "Receipts", type: "multi_select", options: ["A-1", "A-2"] },
    { name: "note", type: "textarea" },
  ],
};

const ANSWER = "Amount: 42; Category: travel; Receipts: A-1, A-2; note: Team dinner";
const REPLY = `For your clarification "Expense details?", my answer is: ${ANSWER}`;

/** How many chat requests the mock model got whose last message, from the user, contains `text`. */
async function requestsEndingWith(page: Page, text: string): Promise<number> {
  const response = await page.request.get(`${new URL(MOCK_URL).origin}/__mock/requests`);
  const requests = (await response.json()) as { body: { messages?: { role: string; content: unknown }[] } }[];
  return requests.filter((request) => {
    const last = request.body.messages?.at(-1);
    const content = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
    return last?.role === "user" && content.includes(text);
  }).length;
}

test("a form refuses to answer until its required fields are filled, then sends one readable answer", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, `call tool ask_clarification ${JSON.stringify(FORM)}`);
  const card = conversation(page).getByRole("group", { name: "Clarification" });
  await expect(card).toContainText("Expense details?");

  const amount = card.getByRole("spinbutton", { name: "Amount" });
  await expect(amount).toHaveAttribute("placeholder", "In euros");
  await expect(card.getByRole("combobox", { name: "Category" })).toBeVisible();
  await expect(card.getByRole("group", { name: "Receipts" }).getByRole("checkbox")).toHaveCount(2);
  await expect(card.getByRole("textbox", { name: "note" })).toBeVisible();

  // Nothing filled in: the card says what is missing and sends nothing.
  await card.getByRole("button", { name: "Answer" }).click();
  await expect(card.getByRole("alert")).toContainText("Amount is required.");
  await expect(card.getByRole("alert")).toContainText("Category is required.");
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await expect(conversation(page).getByRole("article", { name: "User message" })).toHaveCount(1);

  await amount.fill("42");
  await expect(card.getByRole("alert")).not.toContainText("Amount is required.");
  await card.getByRole("button", { name: "Answer" }).click();
  await expect(card.getByRole("alert")).toContainText("Category is required.");
  await expect(conversation(page).getByRole("article", { name: "User message" })).toHaveCount(1);

  await card.getByRole("combobox", { name: "Category" }).selectOption("travel");
  await card.getByRole("checkbox", { name: "A-2" }).check();
  await card.getByRole("checkbox", { name: "A-1" }).check();
  await card.getByRole("textbox", { name: "note" }).fill("Team dinner");
  await expect(card.getByRole("alert")).toHaveCount(0);
  await card.getByRole("button", { name: "Answer" }).click();

  // The model reads the answer; the conversation shows it once, on the card, not as a bubble the user never typed.
  await expect(assistantMessages(page).last()).toHaveText(`You said: ${REPLY}`);
  await expect(conversation(page).getByRole("article", { name: "User message" })).toHaveCount(1);
  expect(await requestsEndingWith(page, REPLY)).toBeGreaterThan(0);
  await expect(card).toContainText(`Your answer: ${ANSWER}`);
  await expect(card.getByRole("button", { name: "Answer" })).toHaveCount(0);

  // After a reload the card still shows the answer, and takes no other.
  await page.reload();
  const reloaded = conversation(page).getByRole("group", { name: "Clarification" });
  await expect(reloaded).toContainText("Expense details?");
  await expect(reloaded).toContainText(`Your answer: ${ANSWER}`);
  await expect(reloaded.getByRole("spinbutton", { name: "Amount" })).toHaveCount(0);
  await expect(reloaded.getByRole("button", { name: "Answer" })).toHaveCount(0);
});

test("a form's question stays open after a reload until it is answered", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, `call tool ask_clarification ${JSON.stringify(FORM)}`);
  await expect(conversation(page).getByRole("group", { name: "Clarification" })).toContainText("Expense details?");
  await page.reload();
  const card = conversation(page).getByRole("group", { name: "Clarification" });
  await card.getByRole("spinbutton", { name: "Amount" }).fill("7");
  await card.getByRole("combobox", { name: "Category" }).selectOption("meals");
  await card.getByRole("button", { name: "Answer" }).click();
  await expect(assistantMessages(page).last()).toHaveText(
    'You said: For your clarification "Expense details?", my answer is: Amount: 7; Category: meals',
  );
});
