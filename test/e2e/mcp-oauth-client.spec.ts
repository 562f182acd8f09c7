// Settings → Tools with a server whose authorization server has no dynamic client registration: the user types the
// client registered for Fawn (Client ID, Client secret); Sign in then uses that client, the server's tools list, and
// the secret stays masked in the form and out of the backup Settings → Data exports.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { unzipSync } from "fflate";
import { startOAuthEverything } from "../mcp/oauth-everything-server.ts";
import { configureEndpoint, openSettings } from "./fixtures.ts";

const CLIENT_ID = "fawn-registered-client";
const CLIENT_SECRET = "registered-secret-4141";

test("a server without dynamic registration signs in with the Client ID and Client secret typed in", async ({
  page,
  baseURL,
}) => {
  const server = await startOAuthEverything(0, {
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUris: [new URL("oauth-callback.html", baseURL).href],
  });
  try {
    await page.goto("/");
    await configureEndpoint(page);
    const dialog = await openSettings(page, "Tools");
    await dialog.getByRole("button", { name: "Add server" }).click();
    await dialog.getByRole("group", { name: "New server" }).getByRole("textbox", { name: "Name" }).fill("registered");
    const group = dialog.getByRole("group", { name: "registered" });
    await group.getByRole("textbox", { name: "URL", exact: true }).fill(server.url);
    await group.getByRole("textbox", { name: "Client ID" }).fill(CLIENT_ID);
    const secret = group.getByRole("textbox", { name: "Client secret" });
    await secret.fill(CLIENT_SECRET);
    await expect(secret).toHaveClass(/masked/);

    await group.getByRole("button", { name: "Test connection" }).click();
    await expect(group).toContainText('The MCP server "registered" needs you to sign in');
    const popupOpened = page.waitForEvent("popup");
    await group.getByRole("button", { name: "Sign in" }).click();
    const popup = await popupOpened;
    await expect.poll(() => popup.isClosed()).toBe(true);
    await expect(group.getByRole("status").filter({ hasText: "Signed in" })).toBeVisible();
    await expect(
      group.getByRole("list", { name: "Tools of registered" }).getByRole("switch", { name: "echo" }),
    ).toBeChecked();
    // The authorization server knows no other client: the sign-in was made as the one typed in.
    expect(server.authorizedClients).toEqual([CLIENT_ID]);

    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByText("Saved.")).toBeVisible();
    await page.reload();
    const again = await openSettings(page, "Tools");
    const saved = again.getByRole("group", { name: "registered" });
    await expect(saved.getByRole("textbox", { name: "Client ID" })).toHaveValue(CLIENT_ID);
    await expect(saved.getByRole("textbox", { name: "Client secret" })).toHaveValue(CLIENT_SECRET);
    await expect(saved.getByRole("textbox", { name: "Client secret" })).toHaveClass(/masked/);

    // Settings → Data → Export all data: the secret is a key, and no key is in a backup.
    await again.getByRole("tab", { name: "Data", exact: true }).click();
    const downloading = page.waitForEvent("download");
    await again.getByRole("button", { name: "Export all data" }).click();
    const archive = new Uint8Array(readFileSync(await (await downloading).path()));
    const texts = Object.values(unzipSync(archive)).map((bytes) => new TextDecoder("latin1").decode(bytes));
    expect(texts.some((text) => text.includes(CLIENT_ID))).toBe(true);
    expect(texts.filter((text) => text.includes(CLIENT_SECRET))).toEqual([]);
  } finally {
    await server.stop();
  }
});
