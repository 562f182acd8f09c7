// Thread actions: rename, and delete with every stored record of the thread.
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

  page.once("dialog", (dialog) => void dialog.accept("Greetings"));
  await page.getByRole("button", { name: "Thread actions" }).click();
  await page.getByRole("menuitem", { name: "Rename" }).click();
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
