// MCP tools never take a built-in tool's name, nor each other's, and Settings → Tools says so on the tool's row. A real
// MCP server (test/mcp/colliding.ts) added as "ask" offers `clarification`: the row says it is renamed to
// ask_clarification_2, `ask_clarification` still asks the user (group "Clarification"), and ask_clarification_2 runs
// the server's tool. Added again as "ask_docs", its `echo` would be `ask_docs_echo`, which "ask"'s `docs_echo` has.
import { expect, test, type Locator } from "@playwright/test";
import { startCollidingServer, type CollidingServer } from "../mcp/colliding.ts";
import { assistantMessages, configureEndpoint, editSettings, expectNoA11yViolations, send } from "./fixtures.ts";

let colliding: CollidingServer;

test.beforeAll(async () => {
  colliding = await startCollidingServer();
});

test.afterAll(async () => {
  await colliding.stop();
});

/** Adds a server by name and URL and tests it: its tools are listed, each with a switch. */
async function addAndTest(dialog: Locator, name: string): Promise<Locator> {
  await dialog.getByRole("button", { name: "Add server" }).click();
  await dialog.getByRole("group", { name: "New server" }).getByRole("textbox", { name: "Name" }).fill(name);
  const group = dialog.getByRole("group", { name, exact: true });
  await group.getByRole("textbox", { name: "URL", exact: true }).fill(colliding.url);
  await group.getByRole("button", { name: "Test connection" }).click();
  const tools = group.getByRole("list", { name: `Tools of ${name}` });
  await expect(tools.getByRole("switch", { name: "echo", exact: true })).toBeChecked();
  return tools;
}

test("a tool named like a built-in is renamed, Settings → Tools says so, and the built-in keeps its name", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  await editSettings(page, "Tools", async (dialog) => {
    const ask = await addAndTest(dialog, "ask");
    const clarification = ask
      .getByRole("listitem")
      .filter({ has: page.getByRole("switch", { name: "clarification" }) });
    await expect(clarification).toContainText("Renamed to ask_clarification_2: its name is a built-in tool's.");
    await expect(ask.getByRole("switch", { name: "clarification" })).toHaveAccessibleDescription(
      "Renamed to ask_clarification_2: its name is a built-in tool's.",
    );
    // The other tools keep <server>_<tool>: no note on their rows.
    await expect(ask.locator(".mcp-tool-note")).toHaveCount(1);

    // A second server whose echo comes out as ask_docs_echo, which ask's docs_echo already is.
    const askDocs = await addAndTest(dialog, "ask_docs");
    await expect(askDocs.getByRole("switch", { name: "echo", exact: true })).toHaveAccessibleDescription(
      "Renamed to ask_docs_echo_2: ask's tool docs_echo has its name.",
    );
    await expect(ask.getByRole("switch", { name: "docs_echo" })).not.toHaveAccessibleDescription(/Renamed/);
    // Switched off, ask's docs_echo leaves the name free: the note goes.
    await ask.getByRole("switch", { name: "docs_echo" }).uncheck();
    await expect(askDocs.getByRole("switch", { name: "echo", exact: true })).not.toHaveAccessibleDescription(/Renamed/);
    await ask.getByRole("switch", { name: "docs_echo" }).check();
    await expect(askDocs.getByRole("switch", { name: "echo", exact: true })).toHaveAccessibleDescription(/Renamed/);
    await expectNoA11yViolations(page, "Settings → Tools with renamed tools");
  });

  // ask_clarification is still Fawn's own: it asks the user, and the server hears nothing.
  await send(page, 'call tool ask_clarification {"question":"Which colour?"}');
  await expect(page.getByRole("group", { name: "Clarification" })).toContainText("Which colour?");
  expect(colliding.calls).toEqual([]);

  // The renamed tools run the server's.
  await send(page, 'call tool ask_clarification_2 {"question":"Which size?"}');
  await expect(assistantMessages(page).last()).toContainText(
    'The tool returned: The MCP tool clarification ran with {"question":"Which size?"}',
  );
  await send(page, 'call tool ask_docs_echo_2 {"message":"hi"}');
  await expect(assistantMessages(page).last()).toContainText('The MCP tool echo ran with {"message":"hi"}');
  expect(colliding.calls).toEqual(['clarification {"question":"Which size?"}', 'echo {"message":"hi"}']);
});
