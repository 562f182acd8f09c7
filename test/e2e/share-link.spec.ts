// Share a thread (issue 18): Thread actions → Share link makes a link that opens in another, empty browser and shows
// the thread after asking; a thread too big for a link says so and offers the .fawn; a damaged link writes nothing;
// a .fawn shared to the installed app (share_target) or opened with it (file_handlers) asks in the same dialog.
import { randomBytes } from "node:crypto";
import { expect, test, type Download, type Page } from "@playwright/test";
import { assistantMessages, callTool, configureEndpoint, conversation, openPreview, send } from "./fixtures.ts";

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

/** A thread with steps: a file written and presented, then a greeting. */
async function stepsThread(page: Page): Promise<string[]> {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, callTool("write_file", { path: "/mnt/user-data/outputs/notes.md", content: "# Notes\n\nBees." }));
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await send(page, callTool("present_files", { filepaths: ["/mnt/user-data/outputs/notes.md"] }));
  await expect(page.getByRole("region", { name: "Artifacts" })).toContainText("notes.md");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await send(page, "hello");
  await expect(assistantMessages(page).last()).toContainText("answer from a script.");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  // As stored.
  await page.reload();
  await expect(conversation(page).getByRole("article", { name: "User message" })).toHaveCount(3);
  await expect(assistantMessages(page).last()).toContainText("answer from a script.");
  return conversation(page).getByRole("article").allInnerTexts();
}

/** How many threads, checkpoints and thread files the page's IndexedDB holds. */
async function storedRecords(page: Page): Promise<{ threads: number; checkpoints: number; files: number }> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("fawn");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const count = (store: string) =>
      new Promise<number>((resolve, reject) => {
        if (!db.objectStoreNames.contains(store)) return resolve(0);
        const request = db.transaction(store).objectStore(store).count();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const [threads, checkpoints, files] = [
      await count("threads"),
      await count("checkpoints"),
      await count("thread_files"),
    ];
    db.close();
    return { threads, checkpoints, files };
  });
}

const NOTHING_STORED = { threads: 0, checkpoints: 0, files: 0 };

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
    // The thread can be read before it is imported, as it will show.
    await expect(conversation(other).getByRole("article")).toHaveCount(messages.length);
    expect(await conversation(other).getByRole("article").allInnerTexts()).toEqual(messages);
    // Nothing is written before the user says so.
    await expect(threads(other)).toHaveCount(0);
    expect(await storedRecords(other)).toEqual(NOTHING_STORED);
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
  const sharing = await browser.newContext({ serviceWorkers: "allow" });
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

test("a shared thread reads whole before it is imported: messages, steps, files and their previews, nothing stored", async ({
  page,
  browser,
}) => {
  const messages = await stepsThread(page);
  const steps = await conversation(page).getByRole("list", { name: "Tool calls" }).allInnerTexts();
  expect(steps.length).toBe(2);
  const dialog = await openShareLink(page);
  const link = await dialog.getByRole("textbox", { name: "Share link" }).inputValue();

  const elsewhere = await browser.newContext();
  try {
    const other = await elsewhere.newPage();
    await other.goto(link);
    const shared = other.getByRole("dialog", { name: "Shared thread" });
    await expect(shared).toBeVisible();
    await expect(shared).toContainText(`${messages.length} messages`);
    // The conversation shows it as the sender sees it: messages, tool steps, presented files.
    const log = conversation(other);
    await expect(log.getByRole("article")).toHaveCount(messages.length);
    expect(await log.getByRole("article").allInnerTexts()).toEqual(messages);
    expect(await log.getByRole("list", { name: "Tool calls" }).allInnerTexts()).toEqual(steps);
    await expect(other.getByRole("heading", { level: 1 })).toHaveText(/^call tool write_file/);
    // Read-only: nothing to type into, no thread actions, no terminal.
    await expect(other.getByRole("textbox", { name: "Message" })).toHaveCount(0);
    await expect(other.getByRole("button", { name: "Thread actions" })).toHaveCount(0);
    await expect(other.getByRole("button", { name: "Terminal" })).toHaveCount(0);
    // Its files are listed and preview, read from the link.
    await expect(shared.getByRole("list", { name: "Files" })).toContainText("outputs/notes.md");
    const preview = await openPreview(other, "notes.md");
    await expect(preview.getByRole("heading", { name: "Notes", exact: true })).toBeVisible();
    await preview.getByRole("button", { name: "Close preview" }).click();
    await expect(preview).toBeHidden();
    await shared.getByRole("button", { name: "Preview outputs/notes.md" }).click();
    await expect(other.getByRole("dialog", { name: "Preview: notes.md" }).getByText("Bees.")).toBeVisible();
    await other
      .getByRole("dialog", { name: "Preview: notes.md" })
      .getByRole("button", { name: "Close preview" })
      .click();
    // Reading wrote nothing: no thread, no checkpoint, no file.
    await expect(threads(other)).toHaveCount(0);
    expect(await storedRecords(other)).toEqual(NOTHING_STORED);

    // Cancel leaves nothing behind; the link opened again shows it again.
    await shared.getByRole("button", { name: "Cancel" }).click();
    await expect(shared).toBeHidden();
    await expect(log.getByRole("article")).toHaveCount(0);
    expect(other.url()).not.toContain("share=");
    expect(await storedRecords(other)).toEqual(NOTHING_STORED);
    await other.goto(link);
    await expect(shared).toBeVisible();
    await expect(log.getByRole("article")).toHaveCount(messages.length);

    // Import writes it, and it opens as the imported thread it now is.
    await shared.getByRole("button", { name: "Import" }).click();
    await expect(shared).toBeHidden();
    await expect(threads(other)).toHaveCount(1);
    await expect(other.getByRole("region", { name: "Imported thread" })).toBeVisible();
    expect(await log.getByRole("article").allInnerTexts()).toEqual(messages);
    expect(await log.getByRole("list", { name: "Tool calls" }).allInnerTexts()).toEqual(steps);
    const stored = await storedRecords(other);
    expect(stored.threads).toBe(1);
    expect(stored.files).toBe(1);
  } finally {
    await elsewhere.close();
  }
});
