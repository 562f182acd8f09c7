// Share a thread (issue 18): Thread actions → Share link makes a link that opens in another, empty browser and shows
// the thread after asking; a thread too big for a link says so and offers the .fawn; a damaged link writes nothing;
// a .fawn shared to the installed app (share_target) or opened with it (file_handlers) asks in the same dialog.
import { randomBytes } from "node:crypto";
import { expect, test, type Download, type Page } from "@playwright/test";
import { assistantMessages, configureEndpoint, conversation, send } from "./fixtures.ts";

async function bytesOf(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function openShareLink(page: Page) {
  await page.getByRole("button", { name: "Thread actions" }).click();
  await page.getByRole("menuitem", { name: "Share link" }).click();
  const dialog = page.getByRole("dialog", { name: "Share link" });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** The mock model's "hello" thread: one question, one answer. */
async function helloThread(page: Page): Promise<string[]> {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, "hello");
  await expect(assistantMessages(page)).toContainText("answer from a script.");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  return conversation(page).getByRole("article").allInnerTexts();
}

const threads = (page: Page) => page.getByRole("navigation", { name: "Threads" }).getByRole("link");

test("a share link opens in another, empty browser: it shows what it holds, asks, and imports the thread", async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const messages = await helloThread(page);
  const dialog = await openShareLink(page);
  const textbox = dialog.getByRole("textbox", { name: "Share link" });
  await expect(textbox).toHaveValue(/#share=/);
  const link = await textbox.inputValue();
  expect(link.startsWith(`${baseURL}/#share=`)).toBe(true);
  await dialog.getByRole("button", { name: "Copy link" }).click();
  await expect(dialog.getByRole("status")).toHaveText("Copied.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();

  const elsewhere = await browser.newContext();
  try {
    const other = await elsewhere.newPage();
    await other.goto(link);
    const shared = other.getByRole("dialog", { name: "Shared thread" });
    await expect(shared).toBeVisible();
    await expect(shared).toContainText("hello");
    await expect(shared).toContainText("2 messages");
    // Nothing is written before the user says so.
    await expect(threads(other)).toHaveCount(0);
    await shared.getByRole("button", { name: "Import" }).click();
    await expect(shared).toBeHidden();
    await expect(conversation(other).getByRole("article")).toHaveCount(messages.length);
    expect(await conversation(other).getByRole("article").allInnerTexts()).toEqual(messages);
    await expect(threads(other)).toHaveText(["hello"]);
    expect(other.url()).not.toContain("share=");
    // Read as it came: continued only in a copy of one's own.
    await expect(other.getByRole("region", { name: "Imported thread" })).toBeVisible();

    // The link left the address: a reload shows the thread and asks nothing.
    await other.reload();
    await expect(conversation(other).getByRole("article")).toHaveCount(messages.length);
    await expect(other.getByRole("dialog", { name: "Shared thread" })).toBeHidden();

    // A damaged link pasted into this tab says so, writes nothing, and leaves the open thread where it was.
    const threadAddress = other.url();
    expect(threadAddress).toMatch(/#\/t\//);
    await other.goto(`${link.slice(0, -60)}`);
    await expect(shared).toBeVisible();
    await expect(shared.getByRole("alert")).toContainText("damaged or incomplete");
    await shared.getByRole("button", { name: "Close" }).click();
    await expect(shared).toBeHidden();
    expect(other.url()).toBe(threadAddress);
    await expect(conversation(other).getByRole("article")).toHaveCount(messages.length);
    await expect(threads(other)).toHaveText(["hello"]);
  } finally {
    await elsewhere.close();
  }
});

test("a thread too big for a link says how big and offers the .fawn file instead", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await page.getByLabel("Attach files").setInputFiles({
    name: "noise.bin",
    mimeType: "application/octet-stream",
    buffer: randomBytes(48 * 1024),
  });
  await send(page, "hello");
  await expect(assistantMessages(page)).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

  const dialog = await openShareLink(page);
  await expect(dialog.getByRole("alert")).toContainText(
    /too big for a link \(\d+\.\d KB; a link holds at most 24\.0 KB\)/,
  );
  await expect(dialog.getByRole("textbox", { name: "Share link" })).toHaveCount(0);
  const saving = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Export .fawn instead" }).click();
  const bundle = await saving;
  expect(bundle.suggestedFilename()).toMatch(/\.fawn$/);
  expect((await bytesOf(bundle)).byteLength).toBeGreaterThan(48 * 1024);
});

test("a .fawn shared to the installed app, or opened with it, asks in the Shared thread dialog", async ({
  page,
  browser,
  baseURL,
}) => {
  await helloThread(page);
  const saving = page.waitForEvent("download");
  await page.getByRole("button", { name: "Thread actions" }).click();
  await page.getByRole("menuitem", { name: "Export" }).click();
  await page.getByRole("menuitem", { name: "Fawn bundle (.fawn)" }).click();
  const file = { name: (await saving).suggestedFilename(), base64: (await bytesOf(await saving)).toString("base64") };

  // share_target: the system posts the file to the service worker, which opens the app with it.
  const sharing = await browser.newContext();
  try {
    const app = await sharing.newPage();
    await app.goto(`${baseURL}/`);
    await app.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    // Posted from a page without Fawn's policy (which allows no form posts), as the system's share sheet would.
    const poster = await sharing.newPage();
    await poster.goto("about:blank");
    await poster.evaluate(
      ({ action, name, base64 }) => {
        const form = document.createElement("form");
        form.method = "POST";
        form.enctype = "multipart/form-data";
        form.action = action;
        const input = document.createElement("input");
        input.type = "file";
        input.name = "bundle";
        const transfer = new DataTransfer();
        transfer.items.add(new File([Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))], name));
        input.files = transfer.files;
        form.append(input);
        document.body.append(form);
        form.submit();
      },
      { action: `${baseURL}/share-target`, ...file },
    );
    const shared = poster.getByRole("dialog", { name: "Shared thread" });
    await expect(shared).toBeVisible();
    await expect(shared).toContainText("2 messages");
    await shared.getByRole("button", { name: "Import" }).click();
    await expect(threads(poster)).toHaveText(["hello"]);
    await expect(conversation(poster).getByRole("article")).toHaveCount(2);
  } finally {
    await sharing.close();
  }

  // file_handlers: Chromium hands the opened file to window.launchQueue (simulated: no OS to open it from).
  const opening = await browser.newContext();
  try {
    await opening.addInitScript((opened) => {
      const bytes = Uint8Array.from(atob(opened.base64), (char) => char.charCodeAt(0));
      Object.defineProperty(window, "launchQueue", {
        value: {
          setConsumer: (consumer: (params: unknown) => void) =>
            consumer({ files: [{ kind: "file", getFile: async () => new File([bytes], opened.name) }] }),
        },
      });
    }, file);
    const app = await opening.newPage();
    await app.goto(`${baseURL}/`);
    const shared = app.getByRole("dialog", { name: "Shared thread" });
    await expect(shared).toBeVisible();
    await expect(shared).toContainText("hello");
    await shared.getByRole("button", { name: "Cancel" }).click();
    await expect(shared).toBeHidden();
    await expect(threads(app)).toHaveCount(0);
  } finally {
    await opening.close();
  }
});
