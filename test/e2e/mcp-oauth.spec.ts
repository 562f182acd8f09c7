// Settings → Tools with a server that needs OAuth (server-everything behind a local authorization server that approves
// at once): Test connection asks for a sign-in and shows "Sign in"; the authorization page opens in a pop-up, sends it
// back to Fawn's oauth-callback.html, which hands the code to the tab; the server is then "Signed in", its tools list,
// the scripted model calls its echo tool, and no token is in the backup Settings → Data exports.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { unzipSync } from "fflate";
import { startOAuthEverything, type OAuthEverything } from "../mcp/oauth-everything-server.ts";
import { assistantMessages, configureEndpoint, conversation, openSettings, send } from "./fixtures.ts";

let server: OAuthEverything;

test.beforeAll(async () => {
  server = await startOAuthEverything();
});

test.afterAll(async () => {
  await server.stop();
});

test("a server that needs OAuth signs in through a pop-up, and its tools work", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);

  const dialog = await openSettings(page, "Tools");
  await dialog.getByRole("button", { name: "Add server" }).click();
  await dialog.getByRole("group", { name: "New server" }).getByRole("textbox", { name: "Name" }).fill("guarded");
  const group = dialog.getByRole("group", { name: "guarded" });
  await group.getByRole("textbox", { name: "URL", exact: true }).fill(server.url);
  await group.getByRole("button", { name: "Test connection" }).click();
  await expect(group).toContainText('The MCP server "guarded" needs you to sign in');

  const popupOpened = page.waitForEvent("popup");
  await group.getByRole("button", { name: "Sign in" }).click();
  const popup = await popupOpened;
  // The authorization server approves at once and sends the pop-up to Fawn's callback page, which closes it. That
  // can happen before this line runs, so the test asks whether it closed rather than waiting for the event.
  await expect.poll(() => popup.isClosed()).toBe(true);
  await expect(group.getByRole("status").filter({ hasText: "Signed in" })).toBeVisible();
  await expect(group.getByRole("button", { name: "Sign out" })).toBeVisible();
  const tools = group.getByRole("list", { name: "Tools of guarded" });
  await expect(tools.getByRole("switch", { name: "echo" })).toBeChecked();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Saved.")).toBeVisible();
  await dialog.getByRole("button", { name: "Close settings" }).click();

  await send(page, 'call tool guarded_echo {"message":"hello after signing in"}');
  await expect(assistantMessages(page).last()).toContainText("The tool returned: Echo: hello after signing in");
  await expect(conversation(page).getByRole("list", { name: "Tool calls" }).last()).toContainText(
    "Used echo on guarded",
  );
  expect(server.authorizations.at(-1)).toMatch(/^Bearer /);

  // Settings → Data → Export all data: no token the authorization server gave is in the backup.
  const data = await openSettings(page, "Data");
  const downloading = page.waitForEvent("download");
  await data.getByRole("button", { name: "Export all data" }).click();
  const archive = new Uint8Array(readFileSync(await (await downloading).path()));
  const texts = Object.values(unzipSync(archive)).map((bytes) => new TextDecoder("latin1").decode(bytes));
  expect(server.issued.length).toBeGreaterThan(0);
  for (const token of server.issued) expect(texts.filter((text) => text.includes(token))).toEqual([]);

  // Sign out forgets the tokens: the server asks for a sign-in again.
  await data.getByRole("tab", { name: "Tools" }).click();
  const again = data.getByRole("group", { name: "guarded" });
  await expect(again.getByRole("status").filter({ hasText: "Signed in" })).toBeVisible();
  await again.getByRole("button", { name: "Sign out" }).click();
  await expect(again.getByRole("button", { name: "Sign in" })).toBeVisible();
  await again.getByRole("button", { name: "Test connection" }).click();
  await expect(again).toContainText('The MCP server "guarded" needs you to sign in');
});
