// Thread actions: rename, and delete with every stored record of the thread.
import { expect, test, type Page } from "@playwright/test";
import { assistantMessages, configureEndpoint, conversation, send } from "./fixtures.ts";

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
  page.once("dialog", (dialog) => {
    expect(dialog.message()).toContain('Delete "Greetings"');
    void dialog.accept();
  });
  await page.getByRole("button", { name: "Thread actions" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await expect(threads.getByRole("link", { name: "Greetings" })).toHaveCount(0);
  await expect(conversation(page).getByRole("article")).toHaveCount(0);
  await expect(threads.getByRole("link", { name: "keep me" })).toBeVisible();
  expect(await recordsMentioning(page, threadId)).toBe(0);
  expect(await recordsMentioning(page, "keep me")).toBeGreaterThan(0);
});
