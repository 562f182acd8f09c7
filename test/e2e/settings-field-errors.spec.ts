// Settings → Tools and Web as a user who types something wrong meets them: a refused Save marks each wrong field
// (aria-invalid), shows its sentence once, just under it, as the field's accessible description, and puts the cursor
// in the first wrong field; nothing is left as one red line at the bottom of the tab.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { configureEndpoint, expectNoA11yViolations, openSettings } from "./fixtures.ts";

test.use({ viewport: { width: 1440, height: 900 } });

/** `field` is marked wrong, described by `sentence`, which the tab shows once and not as a bottom alert. */
async function expectFieldError(panel: Locator, field: Locator, sentence: string | RegExp): Promise<void> {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(sentence);
  await expect(panel.getByText(sentence)).toHaveCount(1);
  await expect(panel.getByRole("alert").filter({ hasText: sentence })).toHaveCount(0);
}

async function shoot(page: Page, name: string): Promise<void> {
  const size = page.viewportSize()!;
  await page.screenshot({ path: `/work/helpers/shots-h7/${name}-${size.width}x${size.height}.png` });
}

test("Tools: a refused Save marks each server's wrong Name, URL and Headers, and puts the cursor in the first", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  const dialog = await openSettings(page, "Tools");
  const panel = dialog.getByRole("tabpanel", { name: "Tools" });
  await panel.getByRole("button", { name: "Add server" }).click();
  // Each server is a group named by its name ("New server" until it has one).
  const servers = panel.locator("fieldset.mcp-server");
  const first = servers.nth(0);
  await first.getByRole("textbox", { name: "Name", exact: true }).fill("github");
  await first.getByRole("textbox", { name: "URL", exact: true }).fill("ftp://example.com/mcp");
  await first.getByRole("textbox", { name: "Headers", exact: true }).fill("no colon here");
  await panel.getByRole("button", { name: "Add server" }).click();
  const second = servers.nth(1);
  await second.getByRole("textbox", { name: "Name", exact: true }).fill("GitHub");
  await second.getByRole("textbox", { name: "URL", exact: true }).fill("https://example.com/mcp");
  await panel.getByRole("button", { name: "Save", exact: true }).click();

  const url = first.getByRole("textbox", { name: "URL", exact: true });
  await expectFieldError(panel, url, /http:\/\/ or https:\/\/ address/);
  await expectFieldError(
    panel,
    first.getByRole("textbox", { name: "Headers", exact: true }),
    /each header as Name: value/,
  );
  await expectFieldError(panel, second.getByRole("textbox", { name: "Name", exact: true }), /Another server is named/);
  await expect(url).toBeFocused();
  await shoot(page, "tools-refused");
  await expectNoA11yViolations(page, "Settings → Tools after a refused Save");

  // A field put right loses its mark at once; the others keep theirs.
  await url.fill("https://example.com/mcp");
  await expect(url).not.toHaveAttribute("aria-invalid", "true");
  await expect(first.getByRole("textbox", { name: "Headers", exact: true })).toHaveAttribute("aria-invalid", "true");

  // A blank name is marked at the Name field.
  await second.getByRole("textbox", { name: "Name", exact: true }).fill("");
  await first.getByRole("textbox", { name: "Headers", exact: true }).fill("X-Api-Key: 1");
  await panel.getByRole("button", { name: "Save", exact: true }).click();
  const blank = second.getByRole("textbox", { name: "Name", exact: true });
  await expectFieldError(panel, blank, /A server needs a name/);
  await expect(blank).toBeFocused();

  // A timeout out of range is marked at its field; the Description beside it keeps its height.
  await blank.fill("docs");
  const timeout = second.getByRole("spinbutton", { name: /Timeout/ });
  await timeout.fill("0");
  await panel.getByRole("button", { name: "Save", exact: true }).click();
  await expectFieldError(panel, timeout, /whole number of seconds from 1 to 3600/);
  await expect(timeout).toBeFocused();
  const description = (await second.getByRole("textbox", { name: "Description", exact: true }).boundingBox())!;
  const timeoutBox = (await timeout.boundingBox())!;
  expect(Math.abs(description.height - timeoutBox.height), "Description and Timeout are as tall").toBeLessThan(2);
});

test("Web: a refused Save marks the missing key and the bad Proxy URL, and puts the cursor in the first", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  const dialog = await openSettings(page, "Web");
  const panel = dialog.getByRole("tabpanel", { name: "Web" });
  await panel.getByRole("combobox", { name: "Search provider", exact: true }).selectOption("tavily");
  const proxy = panel.getByRole("textbox", { name: "Proxy URL", exact: true });
  await proxy.fill("localhost:8787");
  await panel.getByRole("button", { name: "Save", exact: true }).click();

  const key = panel.getByRole("textbox", { name: /search API key/i });
  await expectFieldError(panel, key, "Tavily needs an API key.");
  await expectFieldError(panel, proxy, /The proxy URL must be an http:\/\/ or https:\/\/ address/);
  await expect(key).toBeFocused();
  await shoot(page, "web-refused");

  await key.fill("tvly-123");
  await expect(key).not.toHaveAttribute("aria-invalid", "true");
  await proxy.fill("http://127.0.0.1:8787/forward/");
  await panel.getByRole("button", { name: "Save", exact: true }).click();
  await expect(panel.getByText("Saved.")).toBeVisible();
  await expect(proxy).not.toHaveAttribute("aria-invalid", "true");
});

test("Subagents: a refused Save marks a limit that is not a number and a type's wrong fields", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  const dialog = await openSettings(page, "Subagents");
  const panel = dialog.getByRole("tabpanel", { name: "Subagents" });
  const perRun = panel.getByRole("spinbutton", { name: "Subagents per run" });
  await perRun.fill("");
  await panel.getByRole("button", { name: "Add subagent type" }).click();
  const type = panel.getByRole("group", { name: "New subagent type" });
  // The group takes the type's name as soon as it has one.
  await type.getByRole("textbox", { name: "Instructions", exact: true }).fill("Search, then report.");
  await type.getByRole("textbox", { name: "Name", exact: true }).fill("Web Researcher");
  await panel.getByRole("button", { name: "Save subagents" }).click();

  await expectFieldError(panel, perRun, "Write a whole number.");
  const typed = panel.getByRole("group", { name: "Web Researcher" });
  const name = typed.getByRole("textbox", { name: "Name", exact: true });
  await expectFieldError(panel, name, /must be hyphen-case/);
  await expectFieldError(
    panel,
    typed.getByRole("textbox", { name: "Description", exact: true }),
    "Say in a line when the agent should pick this subagent.",
  );
  await expect(perRun).toBeFocused();
  await shoot(page, "subagents-refused");

  await perRun.fill("6");
  await name.fill("web-researcher");
  await panel
    .getByRole("group", { name: "web-researcher" })
    .getByRole("textbox", { name: "Description", exact: true })
    .fill("Looks things up on the web");
  await panel.getByRole("button", { name: "Save subagents" }).click();
  await expect(panel.getByRole("status")).toHaveText("Saved.");
  await expect(panel.locator("[aria-invalid=true]")).toHaveCount(0);
});

test.describe("on a phone (390×844, touch)", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  test("Tools: the refused Save's errors sit under their fields on a phone", async ({ page }) => {
    await page.goto("/");
    await configureEndpoint(page);
    const dialog = await openSettings(page, "Tools");
    const panel = dialog.getByRole("tabpanel", { name: "Tools" });
    await panel.getByRole("button", { name: "Add server" }).click();
    await panel.getByRole("textbox", { name: "URL", exact: true }).fill("not a url");
    await panel.getByRole("button", { name: "Save", exact: true }).click();
    const name = panel.getByRole("textbox", { name: "Name", exact: true });
    await expectFieldError(panel, name, /A server needs a name/);
    await expect(name).toBeFocused();
    await shoot(page, "tools-refused");
    await panel.getByRole("textbox", { name: "URL", exact: true }).scrollIntoViewIfNeeded();
    await shoot(page, "tools-refused-url");

    // The other tabs' errors fit a phone too.
    await dialog.getByRole("tab", { name: "Web" }).click();
    const web = dialog.getByRole("tabpanel", { name: "Web" });
    await web.getByRole("combobox", { name: "Search provider", exact: true }).selectOption("brave");
    await web.getByRole("button", { name: "Save", exact: true }).click();
    await expectFieldError(
      web,
      web.getByRole("textbox", { name: "Search API key", exact: true }),
      "Brave Search needs an API key.",
    );
    await expectFieldError(web, web.getByRole("textbox", { name: "Proxy URL" }), /refuses requests from web pages/);
    await shoot(page, "web-refused");
    await dialog.getByRole("tab", { name: "Subagents" }).click();
    const subagents = dialog.getByRole("tabpanel", { name: "Subagents" });
    await subagents.getByRole("spinbutton", { name: "Subagents per response" }).fill("");
    await subagents.getByRole("button", { name: "Save subagents" }).click();
    await expect(subagents.getByRole("spinbutton", { name: "Subagents per response" })).toBeFocused();
    await shoot(page, "subagents-refused");
  });
});
