// The README's "10,000 threads in the list": seeded straight into IndexedDB as Fawn writes them (threads, messages
// and their search-index entries), the list shows only the rows in view, reaches the oldest thread, which opens, and
// its search finds a word of one reply among them all.
import { expect, test, type Page } from "@playwright/test";
import { assistantMessages } from "./fixtures.ts";

const THREADS = 10_000;

/** Stores `count` threads in one transaction, thread i updated i seconds after thread 0; only thread 0 has "narwhal". */
async function seedThreads(page: Page, count: number): Promise<void> {
  await page.evaluate(async (total) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("fawn");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const tx = db.transaction(["threads", "entries", "thread_search"], "readwrite");
    const start = Date.now() - total * 1000;
    for (let i = 0; i < total; i++) {
      const id = `scale-${i}`;
      const title = `Scale thread ${String(i).padStart(5, "0")}`;
      tx.objectStore("threads").put({
        thread_id: id,
        title,
        created_at: start,
        updated_at: start + i * 1000,
        status: "idle",
      });
      const reply = i === 0 ? "The oldest one talks about a narwhal." : `Reply number ${i}.`;
      const messages = [
        { type: "human", id: `h${i}`, content: `Question ${i}` },
        { type: "ai", id: `a${i}`, content: reply },
      ];
      messages.forEach((message, seq) =>
        tx.objectStore("entries").put({ thread_id: id, seq, entry: { kind: "message", message } }),
      );
      // The search index's entry, as thread-search-index.ts writes it (format 1: lowercased words).
      const text = `Question ${i}\n${reply}`;
      const terms = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
      tx.objectStore("thread_search").put({ thread_id: id, v: 1, terms, text, indexed_at: Date.now() });
    }
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, count);
}

test("10,000 threads: the list holds only the rows in view, reaches the oldest, and search finds one reply", async ({
  page,
}) => {
  await page.goto("/");
  const threads = page.getByRole("navigation", { name: "Threads" });
  await expect(threads.getByText("No threads yet.")).toBeVisible();
  // The agent worker makes the database; opening it first would make an empty one.
  await expect
    .poll(() => page.evaluate(async () => (await indexedDB.databases()).some((db) => db.name === "fawn")))
    .toBe(true);
  await seedThreads(page, THREADS);
  await page.reload();

  const newest = threads.getByRole("link", {
    name: `Scale thread ${String(THREADS - 1).padStart(5, "0")}`,
    exact: true,
  });
  await expect(newest).toBeVisible();
  expect(await threads.getByRole("link").count()).toBeLessThan(100);

  // End jumps to the oldest of the 10,000, which opens with its messages.
  const oldest = threads.getByRole("link", { name: "Scale thread 00000", exact: true });
  await newest.focus();
  await page.keyboard.press("End");
  await expect(oldest).toBeFocused();
  expect(await threads.getByRole("link").count()).toBeLessThan(100);
  await oldest.click();
  await expect(page.getByRole("heading", { name: "Scale thread 00000" })).toBeVisible();
  await expect(assistantMessages(page)).toHaveText("The oldest one talks about a narwhal.");

  const box = threads.getByRole("searchbox", { name: "Search threads" });
  await box.fill("narwhal");
  await expect(threads.getByRole("status")).toHaveText("1 matching thread.");
  await expect(threads.getByRole("link")).toHaveText(["Scale thread 00000"]);
  await box.fill("number");
  // Every other thread's reply has the word (the list may show the first of them only: "Showing n of …").
  await expect(threads.getByRole("status")).toHaveText(/\b9,999 matching threads\.$/);
});
