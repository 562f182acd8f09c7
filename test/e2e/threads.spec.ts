// Thread actions: rename, and delete with every stored record of the thread.
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import {
  assistantMessages,
  configureEndpoint,
  conversation,
  deleteThread,
  send,
  expectNoA11yViolations,
} from "./fixtures.ts";

/** How many records in any store of Fawn's database mention `text` in their key or value. */
async function recordsMentioning(page: Page, text: string): Promise<number> {
  return page.evaluate(async (needle) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("fawn");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const found = (value: unknown): boolean => {
      if (typeof value === "string") return value.includes(needle);
      if (value instanceof Uint8Array) return new TextDecoder().decode(value).includes(needle);
      if (Array.isArray(value)) return value.some(found);
      if (value && typeof value === "object") return Object.values(value).some(found);
      return false;
    };
    let count = 0;
    for (const name of Array.from(db.objectStoreNames)) {
      const tx = db.transaction(name, "readonly");
      const [keys, values] = await Promise.all([
        new Promise<IDBValidKey[]>((resolve) => {
          const request = tx.objectStore(name).getAllKeys();
          request.onsuccess = () => resolve(request.result);
        }),
        new Promise<unknown[]>((resolve) => {
          const request = tx.objectStore(name).getAll();
          request.onsuccess = () => resolve(request.result);
        }),
      ]);
      keys.forEach((key, index) => {
        if (found(key) || found(values[index])) count++;
      });
    }
    db.close();
    return count;
  }, text);
}

/** Thread actions → Rename, answered in Fawn's dialog "Rename thread": its textbox "Title", then "Save". */
async function renameThread(page: Page, title: string): Promise<void> {
  await page.getByRole("button", { name: "Thread actions" }).click();
  await page.getByRole("menuitem", { name: "Rename" }).click();
  const dialog = page.getByRole("dialog", { name: "Rename thread" });
  await dialog.getByRole("textbox", { name: "Title" }).fill(title);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
}

test("rename, pin and delete a thread; nothing of it stays stored", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, "hello");
  await expect(assistantMessages(page)).toContainText("answer from a script.");
  const threadId = /#\/t\/(.+)$/.exec(page.url())?.[1] ?? "";
  expect(threadId).not.toBe("");
  await page.getByRole("button", { name: "New thread" }).click();
  await send(page, "keep me");
  await expect(assistantMessages(page)).toContainText("You said: keep me");
  const threads = page.getByRole("navigation", { name: "Threads" });
  await threads.getByRole("link", { name: "hello" }).click();

  await renameThread(page, "Greetings");
  await expect(threads.getByRole("link", { name: "Greetings" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Greetings" })).toBeVisible();

  // Pinning puts the thread first, though the other one is more recent.
  await expect(threads.getByRole("link")).toHaveText(["keep me", "Greetings"]);
  await page.getByRole("button", { name: "Thread actions" }).click();
  await page.getByRole("menuitem", { name: "Pin" }).click();
  await expect(threads.getByRole("link")).toHaveText(["Greetings", "keep me"]);
  await expect(threads.getByRole("img", { name: "Pinned" })).toHaveCount(1);
  await page.reload();
  await expect(threads.getByRole("link")).toHaveText(["Greetings", "keep me"]);

  expect(await recordsMentioning(page, threadId)).toBeGreaterThan(0);
  // Cancel keeps it; Delete confirms.
  await deleteThread(page, { title: "Greetings", confirm: false });
  await expect(threads.getByRole("link", { name: "Greetings" })).toBeVisible();
  await expect(conversation(page).getByRole("article")).not.toHaveCount(0);
  await deleteThread(page, { title: "Greetings" });
  await expect(threads.getByRole("link", { name: "Greetings" })).toHaveCount(0);
  await expect(conversation(page).getByRole("article")).toHaveCount(0);
  await expect(threads.getByRole("link", { name: "keep me" })).toBeVisible();
  expect(await recordsMentioning(page, threadId)).toBe(0);
  expect(await recordsMentioning(page, "keep me")).toBeGreaterThan(0);
});

test("search finds a thread by a word only its messages hold, and opens it", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, "hello");
  await expect(assistantMessages(page)).toContainText("answer from a script.");
  await page.getByRole("button", { name: "New thread" }).click();
  await send(page, "keep me");
  await expect(assistantMessages(page)).toContainText("You said: keep me");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  const threads = page.getByRole("navigation", { name: "Threads" });
  await expect(threads.getByRole("link")).toHaveText(["keep me", "hello"]);

  const box = threads.getByRole("searchbox", { name: "Search threads" });
  // "script" is only in the assistant's reply of the thread "hello".
  await box.fill("SCRIPT");
  await expect(threads.getByRole("status")).toHaveText("1 matching thread.");
  await expect(threads.getByRole("link")).toHaveCount(1);
  const hit = threads.getByRole("link", { name: "hello" });
  // The link is named by the title; the snippet under it describes it.
  await expect(hit).toHaveAccessibleDescription(/I will answer from a script\./);
  const result = threads.getByRole("listitem").filter({ has: page.getByRole("link", { name: "hello" }) });
  await expect(result.locator("mark")).toHaveText("script");
  await expectNoA11yViolations(page, "thread search with a match");
  await hit.click();
  await expect(page.getByRole("heading", { name: "hello" })).toBeVisible();
  await expect(hit).toHaveAttribute("aria-current", "page");

  await box.fill("zebra");
  await expect(threads.getByRole("status")).toHaveText("No threads match “zebra”.");
  await expect(threads.getByRole("link")).toHaveCount(0);
  await box.press("Escape");
  await expect(box).toHaveValue("");
  await expect(threads.getByRole("link")).toHaveText(["keep me", "hello"]);

  // Enter opens the first match; "Clear search" brings the list back.
  await box.fill("keep");
  await box.press("Enter");
  await expect(page.getByRole("heading", { name: "keep me" })).toBeVisible();
  await threads.getByRole("button", { name: "Clear search" }).click();
  await expect(box).toHaveValue("");

  // A new message moves its thread to the top of the list.
  await threads.getByRole("link", { name: "hello" }).click();
  await send(page, "hello again");
  await expect(threads.getByRole("link")).toHaveText(["hello", "keep me"]);
});

/** Waits until the agent worker has created Fawn's database (opening it first would create an empty one). */
async function waitForDatabase(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(async () => (await indexedDB.databases()).some((db) => db.name === "fawn")))
    .toBe(true);
}

/** Stores `count` threads as older versions of Fawn did (messages as entries), newest last. */
async function seedThreads(page: Page, count: number): Promise<void> {
  await page.evaluate(async (total) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("fawn");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const tx = db.transaction(["threads", "entries"], "readwrite");
    const threads = tx.objectStore("threads");
    const entries = tx.objectStore("entries");
    const start = Date.now() - total * 1000;
    for (let i = 0; i < total; i++) {
      const id = `seed-${i}`;
      const title = `Seeded thread ${String(i).padStart(4, "0")}`;
      threads.put({ thread_id: id, title, created_at: start, updated_at: start + i * 1000, status: "idle" });
      const reply = i === 0 ? "The oldest one talks about a narwhal." : `Reply number ${i}.`;
      entries.put({
        thread_id: id,
        seq: 0,
        entry: { kind: "message", message: { type: "human", id: `h${i}`, content: `Question ${i}` } },
      });
      entries.put({
        thread_id: id,
        seq: 1,
        entry: { kind: "message", message: { type: "ai", id: `a${i}`, content: reply } },
      });
    }
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, count);
}

test("2,000 threads: the list scrolls to the last one, which opens; search finds it by its reply", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto("/");
  const threads = page.getByRole("navigation", { name: "Threads" });
  await expect(threads.getByText("No threads yet.")).toBeVisible();
  await waitForDatabase(page);
  await seedThreads(page, 2000);
  await page.reload();
  const first = threads.getByRole("link", { name: "Seeded thread 1999", exact: true });
  await expect(first).toBeVisible();
  // Only the rows in view are in the page.
  expect(await threads.getByRole("link").count()).toBeLessThan(100);

  // Scroll to the bottom with the mouse wheel, then open the oldest thread.
  const last = threads.getByRole("link", { name: "Seeded thread 0000", exact: true });
  await first.hover();
  for (let i = 0; i < 200 && !(await last.isVisible()); i++) await page.mouse.wheel(0, 4000);
  await last.click();
  await expect(page.getByRole("heading", { name: "Seeded thread 0000" })).toBeVisible();
  await expect(assistantMessages(page)).toHaveText("The oldest one talks about a narwhal.");
  await expect(last).toHaveAttribute("aria-current", "page");

  // The keyboard reaches every thread: Home and End jump to the ends of the list.
  await last.focus();
  await page.keyboard.press("Home");
  await expect(first).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(threads.getByRole("link", { name: "Seeded thread 1998", exact: true })).toBeFocused();
  await page.keyboard.press("End");
  await expect(last).toBeFocused();

  // These threads predate the search index: the first search indexes them, then finds the word of the reply.
  const box = threads.getByRole("searchbox", { name: "Search threads" });
  await box.fill("narwhal");
  await expect(threads.getByRole("status")).toHaveText("1 matching thread.", { timeout: 30_000 });
  await expect(threads.getByRole("link")).toHaveCount(1);
  // The word is in the snippet beside the link, which it describes.
  await expect(threads.getByRole("listitem").locator("mark")).toHaveText("narwhal");
});

test("Rename asks in Fawn's dialog: Escape and Cancel keep the title, an empty title is refused, Enter saves", async ({
  page,
}) => {
  const browserDialogs: string[] = [];
  page.on("dialog", (dialog) => {
    browserDialogs.push(dialog.type());
    void dialog.dismiss();
  });
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, "hello");
  await expect(assistantMessages(page)).toContainText("answer from a script.");
  const threads = page.getByRole("navigation", { name: "Threads" });
  const dialog = page.getByRole("dialog", { name: "Rename thread" });
  const title = dialog.getByRole("textbox", { name: "Title" });
  const openRename = async () => {
    await page.getByRole("button", { name: "Thread actions" }).click();
    await page.getByRole("menuitem", { name: "Rename" }).click();
    await expect(dialog).toBeVisible();
    await expect(title).toHaveValue("hello");
    await expect(title).toBeFocused();
  };

  await openRename();
  await expectNoA11yViolations(page, "the Rename thread dialog");
  await title.fill("Not kept");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await openRename();
  await title.fill("Not kept either");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { name: "hello" })).toBeVisible();
  await expect(threads.getByRole("link")).toHaveText(["hello"]);

  // An empty title is refused in the dialog, at the field, which keeps the focus.
  await openRename();
  await title.fill("   ");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeVisible();
  await expect(title).toHaveAttribute("aria-invalid", "true");
  await expect(title).toHaveAccessibleDescription("Give the thread a title.");
  await expect(title).toBeFocused();
  await expect(threads.getByRole("link")).toHaveText(["hello"]);

  await title.fill("Greetings");
  await expect(title).not.toHaveAttribute("aria-invalid", "true");
  await title.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { name: "Greetings" })).toBeVisible();
  await expect(threads.getByRole("link")).toHaveText(["Greetings"]);
  await page.reload();
  await expect(threads.getByRole("link")).toHaveText(["Greetings"]);
  expect(browserDialogs).toEqual([]);
});

const SIZES = [
  { name: "1440×900", viewport: { width: 1440, height: 900 }, touch: false },
  { name: "600 px", viewport: { width: 600, height: 900 }, touch: false },
  { name: "390×844 touch", viewport: { width: 390, height: 844 }, touch: true },
];

for (const size of SIZES) {
  test.describe(`at ${size.name}`, () => {
    test.use({ viewport: size.viewport, hasTouch: size.touch, isMobile: size.touch });

    test("a pinned thread and a running one each show a mark of their own, named and large enough to see", async ({
      page,
    }) => {
      await page.goto("/");
      await configureEndpoint(page);
      await send(page, "a long answer please");
      await expect(assistantMessages(page)).toContainText("Sentence 1");
      await page.getByRole("button", { name: "Thread actions" }).click();
      await page.getByRole("menuitem", { name: "Pin" }).click();
      const threads = page.getByRole("navigation", { name: "Threads" });
      const showThreads = page.getByRole("button", { name: "Show threads" });
      if (await showThreads.isVisible()) await showThreads.click();
      const pinned = threads.getByRole("img", { name: "Pinned" });
      const running = threads.getByRole("img", { name: "Running" });
      await expect(pinned).toBeVisible();
      await expect(running).toBeVisible();
      for (const mark of [pinned, running]) {
        const box = await mark.boundingBox();
        expect(box?.width, "a mark is at least 12 px wide").toBeGreaterThanOrEqual(12);
        expect(box?.height, "a mark is at least 12 px high").toBeGreaterThanOrEqual(12);
      }
      // Two different shapes, not two dots: the pin is a drawn pin, the running mark a turning ring (still with
      // reduced motion, where it does not turn).
      await expect(pinned).toHaveAttribute("data-mark", "pin");
      await expect(running).toHaveAttribute("data-mark", "spinner");
      await page.emulateMedia({ reducedMotion: "reduce" });
      await expect(running).toBeVisible();
      const [pinShot, runShot] = [await pinned.screenshot(), await running.screenshot()];
      expect(pinShot.equals(runShot)).toBe(false);
      await expectNoA11yViolations(page, `the thread list with a pinned, running thread at ${size.name}`);
    });
  });
}

test("an imported thread and the copy Continue this thread makes are told apart in words, not only by an arrow", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, "hello");
  await expect(assistantMessages(page)).toContainText("answer from a script.");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  const saving = page.waitForEvent("download");
  await page.getByRole("button", { name: "Thread actions" }).click();
  await page.getByRole("menuitem", { name: "Export" }).click();
  await page.getByRole("menuitem", { name: "Fawn bundle (.fawn)" }).click();
  const bundle = await saving;
  await page.getByLabel("Thread files").setInputFiles({
    name: bundle.suggestedFilename(),
    mimeType: "application/octet-stream",
    buffer: readFileSync(await bundle.path()),
  });
  const imported = page.getByRole("region", { name: "Imported thread" });
  await expect(imported).toBeVisible();
  await imported.getByRole("button", { name: "Continue this thread" }).click();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();

  const threads = page.getByRole("navigation", { name: "Threads" });
  await expect(threads.getByRole("link", { name: "hello" })).toHaveCount(3);
  const rows = threads.getByRole("listitem");
  const importedRow = rows.filter({ has: page.getByRole("img", { name: "Imported, read-only" }) });
  const copyRow = rows.filter({ has: page.getByRole("img", { name: "Your copy of another person's thread" }) });
  await expect(importedRow).toHaveCount(1);
  await expect(copyRow).toHaveCount(1);
  // The words show, not just an icon.
  await expect(importedRow.getByText("Imported", { exact: true })).toBeVisible();
  await expect(copyRow.getByText("Copy", { exact: true })).toBeVisible();
  await expect(copyRow.getByRole("link")).toHaveAttribute("aria-current", "page");
  await expectNoA11yViolations(page, "a thread list with an import and its copy");
});

test("the note that no model is set up gives way once one is", async ({ page }) => {
  await page.goto("/");
  await send(page, "hello");
  const log = conversation(page);
  await expect(log.getByRole("alert")).toContainText("No model is set up yet");
  await configureEndpoint(page);
  await expect(log.getByText("No model is set up yet")).toHaveCount(0);
  await expect(log.getByRole("alert")).toHaveCount(0);
  await expect(log.getByText("A model is set up now: send your message again.")).toBeVisible();
  await page.reload();
  await expect(log.getByText("A model is set up now: send your message again.")).toBeVisible();
  await send(page, "hello");
  await expect(assistantMessages(page)).toContainText("answer from a script.");
});
