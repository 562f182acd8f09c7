// The composer's extras: the welcome screen's examples, follow-up suggestions after a reply (and their switch), the
// slash menu (skills and commands, from the keyboard), /compact, and the context gauge.
import { expect, test, type Page } from "@playwright/test";
import {
  assistantMessages,
  closeSettings,
  configureEndpoint,
  conversation,
  expectNoA11yViolations,
  mockRequests,
  openSettings,
  send,
  SUGGESTIONS_MARKER,
} from "./fixtures.ts";

/** A key unique to one test: two tests share the mock model and its request log. */
const uniqueKey = (name: string) => `${name}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;

/** The agent requests (not memory, not suggestions) whose last message is the user's and starts with `text`. */
async function requestsFor(page: Page, text: string): Promise<{ role: string; text: string }[][]> {
  return (await mockRequests(page)).filter((messages) => {
    const last = messages.at(-1);
    return last?.role === "user" && last.text.startsWith(text);
  });
}

function box(page: Page) {
  return page.getByRole("textbox", { name: "Message" });
}

async function reply(page: Page, text: string, count: number): Promise<void> {
  await send(page, text);
  await expect(assistantMessages(page)).toHaveCount(count);
  await expect(assistantMessages(page).last()).toContainText("You said:");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
}

test("the welcome screen's examples fill the composer, ready to edit; research switches to Ultra", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  const examples = page.getByRole("region", { name: "Try an example" });
  await expect(examples.getByRole("button")).toHaveText([
    /A report with a chart/,
    /Analyse a CSV file/,
    /Build a web page/,
    /Research with subagents/,
  ]);

  await examples.getByRole("button", { name: "Build a web page" }).click();
  await expect(box(page)).toHaveValue(/^Build a one-page website for a neighbourhood bakery/);
  await expect(box(page)).toBeFocused();
  // Nothing was sent: the user edits first.
  await expect(conversation(page).getByRole("article")).toHaveCount(0);

  await examples.getByRole("button", { name: "Research with subagents" }).click();
  await expect(box(page)).toHaveValue(/^Compare three popular open-source vector databases/);
  await expect(page.getByRole("radio", { name: "Ultra" })).toBeChecked();
});

test("after a reply, three follow-up questions show; one click sends it as the next message", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  const key = uniqueKey("sourdough");
  await reply(page, `${key} starter care`, 1);
  const followUps = page.getByRole("group", { name: "Suggested follow-ups" });
  await expect(followUps.getByRole("button")).toHaveText([
    `Tell me more about ${key} starter care`,
    `What could go wrong with ${key} starter care?`,
    `Give an example of ${key} starter care`,
  ]);
  await expectNoA11yViolations(page, "follow-up suggestions and the context gauge");
  // The suggestions came from one request that is not a run: the thread holds only the exchange.
  const asked = (await mockRequests(page, { suggestions: true })).filter((messages) =>
    messages.some((m) => m.role === "system" && m.text.includes(SUGGESTIONS_MARKER) && m.text.includes(key)),
  );
  expect(asked).toHaveLength(1);
  await expect(conversation(page).getByRole("article")).toHaveCount(2);

  await followUps.getByRole("button", { name: `Give an example of ${key} starter care` }).click();
  await expect(conversation(page).getByRole("article", { name: "User message" }).last()).toHaveText(
    `Give an example of ${key} starter care`,
  );
  await expect(assistantMessages(page).last()).toHaveText(`You said: Give an example of ${key} starter care`);
  // The next reply brings its own questions, about the new message.
  // (The mock quotes the first 40 characters of the user's last message.)
  await expect(followUps.getByRole("button").first()).toHaveText(
    new RegExp(`^Tell me more about Give an example of ${key.slice(0, 15)}`),
  );
});

test("the Follow-up suggestions switch turns them off, and no request is made for them", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  const dialog = await openSettings(page, "Appearance");
  const toggle = dialog.getByRole("switch", { name: "Follow-up suggestions" });
  await expect(toggle).toBeChecked();
  await toggle.uncheck();
  await closeSettings(page);

  const key = uniqueKey("quiet");
  await reply(page, `${key} no questions please`, 1);
  // Suggestions would be asked for as the run ended, before the next message could be sent: once that message's
  // reply is in, a request for the first reply's suggestions would have been made.
  await reply(page, `${key} and none after this one`, 2);
  await expect(page.getByRole("group", { name: "Suggested follow-ups" })).toHaveCount(0);
  const asked = (await mockRequests(page, { suggestions: true })).filter((messages) =>
    messages.some((m) => m.role === "system" && m.text.includes(SUGGESTIONS_MARKER) && m.text.includes(key)),
  );
  expect(asked).toHaveLength(0);

  // The choice lasts after a reload.
  await page.reload();
  const again = await openSettings(page, "Appearance");
  await expect(again.getByRole("switch", { name: "Follow-up suggestions" })).not.toBeChecked();
});

test("the slash menu lists commands and skills, filters as you type, and completes a skill from the keyboard", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  const input = box(page);
  await input.click();
  await page.keyboard.type("/");
  const menu = page.getByRole("listbox", { name: "Commands" });
  await expect(menu).toBeVisible();
  const options = menu.getByRole("option");
  await expect(options.first()).toContainText("/new");
  await expect(menu.getByRole("option", { name: /\/compact/ })).toBeVisible();
  await expect(menu.getByRole("option", { name: /\/clear-memory/ })).toBeVisible();
  await expect(menu.getByRole("option", { name: /\/help/ })).toBeVisible();
  await expect(menu.getByRole("option", { name: /\/web-page/ })).toBeVisible();
  await expectNoA11yViolations(page, "the slash menu");

  // The text box names the highlighted option; the arrows move it.
  const first = await options.first().getAttribute("id");
  await expect(input).toHaveAttribute("aria-activedescendant", first!);
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowDown");
  await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(input).toHaveAttribute("aria-activedescendant", (await options.nth(1).getAttribute("id"))!);
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  await expect(options.last()).toHaveAttribute("aria-selected", "true");

  // Arrow down to a skill, then Enter: the box holds its slash name, ready for the request.
  const active = menu.locator('[role="option"][aria-selected="true"]');
  for (let step = 0; step < 30 && !(await active.textContent())?.startsWith("/web-page"); step++) {
    await page.keyboard.press("ArrowDown");
  }
  await expect(active).toContainText("/web-page");
  await page.keyboard.press("Enter");
  await expect(input).toHaveValue("/web-page ");
  await expect(menu).toBeHidden();

  // Escape closes the menu; typing opens it again, filtered.
  await input.fill("");
  await page.keyboard.type("/");
  await expect(menu).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await page.keyboard.type("web");
  await expect(menu).toBeVisible();
  await expect(options.first()).toContainText("/web-page");

  // A command chosen with the mouse runs: /help lists the commands.
  await input.fill("");
  await input.pressSequentially("/he");
  await menu.getByRole("option", { name: /\/help/ }).click();
  const help = page.getByRole("dialog", { name: "Commands" });
  await expect(help).toBeVisible();
  await expect(help).toContainText("/compact");
  await expect(help).toContainText("/web-page");
  await help.getByRole("button", { name: "Close commands" }).click();
  await expect(help).toBeHidden();
  await expect(input).toHaveValue("");
});

test("/compact folds older messages into a summary: the next request sends less, the conversation shows all", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  const key = uniqueKey("compact");
  const filler = "pebble ".repeat(300);
  await reply(page, `${key} first ${filler}`, 1);

  // The gauge shows the thread's share of the window once a reply is in.
  const meter = page.getByRole("meter", { name: "Context used" });
  await expect(meter).toHaveAttribute("aria-valuetext", /% of 128k$/);
  await expect(meter).toHaveAttribute("aria-valuemax", "128000");
  const firstUse = Number(await meter.getAttribute("aria-valuenow"));
  expect(firstUse).toBeGreaterThan(0);

  await reply(page, `${key} second`, 2);
  await reply(page, `${key} third`, 3);
  const [before] = await requestsFor(page, `${key} third`);
  expect(before?.some((message) => message.text.includes(`${key} first`))).toBe(true);
  const beforeUse = Number(await meter.getAttribute("aria-valuenow"));

  await box(page).click();
  await page.keyboard.type("/compact");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Compacted: 2 older messages" })).toBeVisible();
  await expect(box(page)).toHaveValue("");
  await expect.poll(async () => Number(await meter.getAttribute("aria-valuenow"))).toBeLessThan(beforeUse);

  await reply(page, `${key} fourth`, 4);
  const [after] = await requestsFor(page, `${key} fourth`);
  const size = (messages: { text: string }[] | undefined) =>
    (messages ?? []).reduce((total, message) => total + message.text.length, 0);
  expect(after?.some((message) => message.text.includes(`${key} first`))).toBe(false);
  expect(after?.some((message) => message.text.includes("Mock summary:"))).toBe(true);
  expect(size(after)).toBeLessThan(size(before));
  // The user still sees every message.
  await expect(conversation(page).getByRole("article", { name: "User message" })).toHaveCount(4);
  await expect(conversation(page).getByRole("article", { name: "User message" }).first()).toContainText(`${key} first`);
});

test("/clear-memory asks first, then clears memory", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await box(page).click();
  await page.keyboard.type("/clear-memory");
  await page.keyboard.press("Enter");
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("Forget every summary and fact in memory?");
  await confirm.getByRole("button", { name: "Keep memory" }).click();
  await expect(confirm).toBeHidden();
  await page.keyboard.type("/clear-memory");
  await page.keyboard.press("Enter");
  await page.getByRole("alertdialog").getByRole("button", { name: "Clear memory" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Memory cleared." })).toBeVisible();
});

test("/new starts a new thread from the keyboard", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  const key = uniqueKey("fresh");
  await reply(page, `${key} before a new thread`, 1);
  await box(page).click();
  await page.keyboard.type("/new");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("region", { name: "Try an example" })).toBeVisible();
  await expect(conversation(page).getByRole("article")).toHaveCount(0);
  await expect(box(page)).toHaveValue("");
  await expect(box(page)).toBeFocused();
});
