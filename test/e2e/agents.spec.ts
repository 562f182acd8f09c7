// Custom agents as a user meets them: Settings → Agents makes one, the composer's "Agent" picks it for a thread and
// its instructions reach the model; the thread keeps it across a reload and a new thread starts with it; an edit
// reaches the next reply, a delete hands the thread back to Fawn; an agents zip with a bad path is refused whole,
// a sound one imported, and an example added.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { zipSync, strToU8 } from "fflate";
import {
  assistantMessages,
  clickSettings,
  closeSettings,
  configureEndpoint,
  expectNoA11yViolations,
  send,
  systemPromptFor,
} from "./fixtures.ts";

/** Settings → Agents' panel (the tab's name is exact: "Subagents" holds it). */
async function agentsPanel(page: Page): Promise<Locator> {
  await clickSettings(page);
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("tab", { name: "Agents", exact: true }).click();
  return dialog.getByRole("tabpanel", { name: "Agents", exact: true });
}

const agentPicker = (page: Page) => page.getByRole("combobox", { name: "Agent" });

test("an agent made in Settings → Agents answers with its instructions; the thread keeps it; edit and delete", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  // No agents yet: the composer offers no choice.
  await expect(agentPicker(page)).toHaveCount(0);

  let panel = await agentsPanel(page);
  await panel.getByRole("button", { name: "New agent" }).click();
  // A refused Save says what is missing under the field, and puts the cursor there.
  await panel.getByRole("button", { name: "Save" }).click();
  const name = panel.getByRole("textbox", { name: "Agent name" });
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveAccessibleDescription(/Give the agent a name\./);
  await expect(name).toBeFocused();
  await name.fill("Pirate");
  await panel.getByRole("textbox", { name: "Description" }).fill("Talks like a pirate");
  await panel.getByRole("textbox", { name: "Instructions" }).fill("Answer as a pirate would. Marker: ARR-ONE.");
  await panel.getByRole("checkbox", { name: "Shell commands (bash)" }).uncheck();
  await panel.getByRole("radio", { name: /Its own memory/ }).check();
  await panel.getByRole("button", { name: "Save" }).click();
  await expect(panel.getByText("Saved.")).toBeVisible();
  // Kept in lowercase, as DeerFlow keeps names.
  const pirate = panel.getByRole("group", { name: "pirate" });
  await expect(pirate).toContainText("Talks like a pirate");
  await expect(pirate).toContainText("its own memory");
  await expectNoA11yViolations(page, "Settings → Agents with one agent");
  await closeSettings(page);

  await expect(agentPicker(page)).toHaveValue("");
  await agentPicker(page).selectOption({ label: "pirate" });
  await send(page, "Where is the treasure?");
  await expect(assistantMessages(page).last()).toHaveText("You said: Where is the treasure?");
  expect(await systemPromptFor(page, "Where is the treasure?")).toContain("Marker: ARR-ONE.");

  // The thread remembers its agent; a new thread starts with the last choice.
  await page.reload();
  await expect(assistantMessages(page).last()).toHaveText("You said: Where is the treasure?");
  await expect(agentPicker(page)).toHaveValue("pirate");
  await page.getByRole("button", { name: "New thread" }).click();
  await expect(agentPicker(page)).toHaveValue("pirate");
  await page.getByRole("navigation", { name: "Threads" }).getByRole("link", { name: "Where is the treasure?" }).click();
  await expect(assistantMessages(page).last()).toHaveText("You said: Where is the treasure?");

  // An edit reaches the next reply.
  panel = await agentsPanel(page);
  await panel.getByRole("group", { name: "pirate" }).getByRole("button", { name: "Edit" }).click();
  await expect(panel.getByRole("textbox", { name: "Agent name" })).toHaveValue("pirate");
  await panel.getByRole("textbox", { name: "Instructions" }).fill("Answer as a careful pirate. Marker: ARR-TWO.");
  await panel.getByRole("button", { name: "Save" }).click();
  await expect(panel.getByText("Saved.")).toBeVisible();
  await closeSettings(page);
  await send(page, "And the map?");
  await expect(assistantMessages(page).last()).toHaveText("You said: And the map?");
  const edited = await systemPromptFor(page, "And the map?");
  expect(edited).toContain("Marker: ARR-TWO.");
  expect(edited).not.toContain("ARR-ONE");

  // Deleted (asked first): the thread talks to Fawn again, and the composer offers no choice.
  panel = await agentsPanel(page);
  await panel.getByRole("group", { name: "pirate" }).getByRole("button", { name: "Delete" }).click();
  await panel.getByRole("group", { name: "pirate" }).getByRole("button", { name: "Confirm delete" }).click();
  await expect(panel.getByRole("group", { name: "pirate" })).toHaveCount(0);
  await expect(panel.getByText("No agents yet")).toBeVisible();
  await closeSettings(page);
  await expect(agentPicker(page)).toHaveCount(0);
  await send(page, "Anyone there?");
  await expect(assistantMessages(page).last()).toHaveText("You said: Anyone there?");
  expect(await systemPromptFor(page, "Anyone there?")).not.toContain("pirate");
});

test("an agents zip holding a path outside agents/<name>/ is refused with its sentence, and nothing is added", async ({
  page,
}) => {
  await page.goto("/");
  const panel = await agentsPanel(page);
  await expect(panel.getByText("No agents yet")).toBeVisible();
  const agent = (name: string) => ({
    [`agents/${name}/config.yaml`]: strToU8(`name: ${name}\ndescription: Reads papers\n`),
    [`agents/${name}/SOUL.md`]: strToU8("You read papers closely."),
  });
  const archive = panel.getByLabel("Agents archive (.zip)");
  await archive.setInputFiles({
    name: "agents.zip",
    mimeType: "application/zip",
    buffer: Buffer.from(zipSync({ ...agent("reader"), "../escape/SOUL.md": strToU8("outside") })),
  });
  await expect(panel.getByRole("alert")).toContainText("agents.zip");
  await expect(panel.getByRole("alert")).toContainText("../escape/SOUL.md");
  await expect(panel.getByRole("group", { name: "reader" })).toHaveCount(0);
  await expect(panel.getByText("No agents yet")).toBeVisible();

  // The same agent in a sound archive is added.
  await archive.setInputFiles({
    name: "agents.zip",
    mimeType: "application/zip",
    buffer: Buffer.from(zipSync(agent("reader"))),
  });
  await expect(panel.getByRole("status")).toHaveText("Imported reader.");
  await expect(panel.getByRole("group", { name: "reader" })).toContainText("Reads papers");

  // An example Fawn ships is added with its Add button, as one of the user's agents.
  const add = panel.getByRole("button", { name: /^Add / }).first();
  const example = ((await add.getAttribute("aria-label")) ?? "").replace(/^Add /, "");
  await add.click();
  await expect(panel.getByRole("status")).toHaveText(`Added ${example}.`);
  await expect(panel.getByRole("group", { name: example, exact: true })).toBeVisible();
});
