// Settings → Servers against a real Fawn server (started by the test, the mock model its model): a wrong token, a
// port where nothing listens and a web server that is not LangGraph's each get their sentence under the field it
// concerns and store nothing; the right token connects (the server a group with its kind, URL, what it offers and
// "Disconnect"), survives a reload without the token ever reaching the page, and Disconnect forgets it. The tab at
// phone size (390×844, touch), 600 px and desktop, light and dark, screenshotted.
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { connectServer, START_TIMEOUT_MS, startFawnServer, type FawnServer } from "./fawn-server-fixture.ts";
import { closeSettings, expectNoA11yViolations, openSettings } from "./fixtures.ts";

const SHOTS = process.env.E2E_SHOTS_DIR;

let fawn: FawnServer;
let garbage: Server;
let garbageUrl = "";
let closedUrl = "";

// One server for the file: its tests run in order in one worker.
test.describe.configure({ mode: "default" });

test.beforeAll(async () => {
  test.setTimeout(START_TIMEOUT_MS);
  fawn = await startFawnServer();
  // A web server that answers every path with a page (CORS open, so the browser reads what it says).
  garbage = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html", "access-control-allow-origin": "*" });
    response.end("<html><body>It works!</body></html>");
  });
  await new Promise<void>((done) => garbage.listen(0, "127.0.0.1", done));
  garbageUrl = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((done) => closed.close(() => done()));
});

test.afterAll(async () => {
  await fawn?.stop();
  await new Promise<void>((done) => (garbage ? garbage.close(() => done()) : done()));
});

const host = (url: string) => url.replace("http://", "");

async function serversPanel(page: Page): Promise<Locator> {
  const dialog = await openSettings(page, "Servers");
  return dialog.getByRole("tabpanel", { name: "Servers" });
}

async function tryConnect(panel: Locator, url: string, token: string): Promise<void> {
  await panel.getByRole("textbox", { name: "Server URL" }).fill(url);
  await panel.getByRole("textbox", { name: "Access token" }).fill(token);
  await panel.getByRole("button", { name: "Connect", exact: true }).click();
}

/** `field` is marked wrong and described by `sentence`, shown once, and has the cursor. */
async function expectRefused(panel: Locator, field: Locator, sentence: string): Promise<void> {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(sentence);
  await expect(panel.getByText(sentence, { exact: true })).toHaveCount(1);
  await expect(field).toBeFocused();
  await expect(panel.getByText("No servers yet.")).toBeVisible();
}

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize()!;
  await page.screenshot({ path: `${SHOTS}/${name}-${size.width}x${size.height}.png` });
}

test.describe("desktop", () => {
  test.use({ viewport: { width: 1280, height: 860 } });

  test("a wrong token, a closed port and a garbage server are refused with their sentence; the right token connects, survives a reload, and Disconnect forgets it", async ({
    page,
  }) => {
    await page.goto("/");
    const panel = await serversPanel(page);
    const url = panel.getByRole("textbox", { name: "Server URL" });
    const token = panel.getByRole("textbox", { name: "Access token" });
    await expect(panel.getByText("No servers yet.")).toBeVisible();

    // Connect with nothing typed: the URL is asked for, and nothing is called.
    await panel.getByRole("button", { name: "Connect", exact: true }).click();
    await expectRefused(panel, url, "Enter the server's URL.");

    await tryConnect(panel, fawn.url, "wrong-token-0123456789");
    await expectRefused(panel, token, `${host(fawn.url)} refused the access token.`);
    // Typing in the field clears its mark.
    await token.fill("x");
    await expect(token).not.toHaveAttribute("aria-invalid", "true");

    await tryConnect(panel, closedUrl, fawn.token);
    await expectRefused(panel, url, `Nothing answers at ${host(closedUrl)}, or it does not take calls from this page.`);

    await tryConnect(panel, garbageUrl, fawn.token);
    await expectRefused(panel, url, `${host(garbageUrl)} answered, but not as a LangGraph server.`);
    await shoot(page, "servers-refused");

    // Nothing was stored: after a reload the tab still lists no server.
    await page.reload();
    const fresh = await serversPanel(page);
    await expect(fresh.getByText("No servers yet.")).toBeVisible();

    await tryConnect(fresh, `${fawn.url}/`, fawn.token);
    const sentence = `Connected to ${host(fawn.url)} (Fawn server 0.1.0): threads, runs, uploads, artifacts, memory and skills.`;
    await expect(fresh.getByRole("status")).toHaveText(sentence);
    const group = fresh.getByRole("group", { name: host(fawn.url) });
    await expect(group).toContainText("Fawn server");
    await expect(group).toContainText(fawn.url);
    await expect(group).toContainText("Offers threads, runs, uploads, artifacts, memory and skills.");
    await expect(fresh.getByRole("textbox", { name: "Server URL" })).toHaveValue("");
    await expect(fresh.getByRole("textbox", { name: "Access token" })).toHaveValue("");
    await shoot(page, "servers-connected");
    await expectNoA11yViolations(page, "Settings → Servers with a server connected");
    await page.emulateMedia({ colorScheme: "dark" });
    await shoot(page, "servers-connected-dark");
    await expectNoA11yViolations(page, "Settings → Servers with a server connected, dark");
    await page.emulateMedia({ colorScheme: "light" });
    await closeSettings(page);

    // Stored: back after a reload; the token is nowhere in the page, nor in the settings record.
    await page.reload();
    const again = await serversPanel(page);
    await expect(again.getByRole("group", { name: host(fawn.url) })).toBeVisible();
    expect(await page.content()).not.toContain(fawn.token);
    const record = await page.evaluate(readServersSetting);
    expect(record).toContain(fawn.url);
    expect(record).not.toContain(fawn.token);

    await again
      .getByRole("group", { name: host(fawn.url) })
      .getByRole("button", { name: "Disconnect" })
      .click();
    await expect(again.getByRole("status")).toHaveText(
      `Disconnected from ${host(fawn.url)}. Its threads stay on the server.`,
    );
    await expect(again.getByRole("group")).toHaveCount(0);
    await expect(again.getByText("No servers yet.")).toBeVisible();
    await page.reload();
    await expect((await serversPanel(page)).getByText("No servers yet.")).toBeVisible();
  });
});

/** The `servers` setting as IndexedDB holds it (the records; the tokens are in `secrets`). */
async function readServersSetting(): Promise<string> {
  const db = await new Promise<IDBDatabase>((done, fail) => {
    const request = indexedDB.open("fawn");
    request.onsuccess = () => done(request.result);
    request.onerror = () => fail(request.error);
  });
  const value = await new Promise<unknown>((done, fail) => {
    const request = db.transaction("settings").objectStore("settings").get("servers");
    request.onsuccess = () => done(request.result);
    request.onerror = () => fail(request.error);
  });
  db.close();
  return JSON.stringify(value);
}

const SIZES = [
  { label: "phone", viewport: { width: 390, height: 844 }, touch: true },
  { label: "600px", viewport: { width: 600, height: 900 }, touch: false },
] as const;

for (const size of SIZES) {
  test.describe(size.label, () => {
    test.use({ viewport: size.viewport, hasTouch: size.touch, isMobile: size.touch });

    test(`the Servers tab fits at ${size.label} with a server and a refused token, light and dark`, async ({
      page,
    }) => {
      await page.goto("/");
      const name = await connectServer(page, fawn);
      const panel = await serversPanel(page);
      await tryConnect(panel, fawn.url, "wrong-token-0123456789");
      const token = panel.getByRole("textbox", { name: "Access token" });
      await expect(token).toHaveAccessibleDescription(`${name} refused the access token.`);
      await expect(panel.getByRole("group", { name })).toBeVisible();
      // Nothing wider than the screen: the dialog does not scroll sideways.
      const dialog = page.getByRole("dialog", { name: "Settings" });
      expect(await dialog.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
      const box = (await dialog.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(size.viewport.width);
      const disconnect = panel.getByRole("button", { name: "Disconnect" });
      expect((await disconnect.boundingBox())!.height).toBeGreaterThanOrEqual(24);
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await shoot(page, `servers-${scheme}`);
        await panel.getByRole("button", { name: "Connect", exact: true }).scrollIntoViewIfNeeded();
        await shoot(page, `servers-${scheme}-form`);
      }
      await expectNoA11yViolations(page, `Settings → Servers, ${size.label}, dark`);
    });
  });
}
