// A `.fawn` whose last step is a `bash` call still running (its page closed mid-command, as a crafted bundle would
// have it): imported elsewhere, the call shows cancelled, neither the thread nor its "Continue this thread" copy offers
// Continue, and the command never runs there.
import { expect, test, type Page } from "@playwright/test";
import { callTool, configureEndpoint, conversation, send, storedRuns, toolCallSaved } from "./fixtures.ts";

/** Whether the thread holds a file at `path`, read from the page's storage. */
async function hasFile(page: Page, threadId: string, path: string): Promise<boolean> {
  return page.evaluate(
    async ([id, wanted]) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open("fawn");
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const key = await new Promise<IDBValidKey | undefined>((resolve, reject) => {
        const request = db.transaction("thread_files").objectStore("thread_files").getKey([id, wanted]);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      db.close();
      return key !== undefined;
    },
    [threadId, path] as const,
  );
}

const openThreadId = (page: Page) => new URL(page.url()).hash.replace("#/t/", "");

test("a bundle's pending bash call is cancelled on import and never runs, not even after Continue this thread", async ({
  page,
  context,
  browser,
}) => {
  const key = crypto.randomUUID().slice(0, 8);
  const path = `/mnt/user-data/workspace/pwned-${key}.txt`;
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, callTool("bash", { command: `sleep 6; echo ran > ${path}` }));
  // The command is running when the page closes: its run stays marked running, and this browser offers Continue.
  await expect(conversation(page).getByRole("list", { name: "Tool calls" }).last()).toBeVisible();
  await toolCallSaved(page, `pwned-${key}`);
  const url = page.url();
  await page.close();
  const again = await context.newPage();
  await again.goto(url);
  await expect(again.getByRole("button", { name: "Continue" })).toBeVisible();
  const saving = again.waitForEvent("download");
  await again.getByRole("button", { name: "Thread actions" }).click();
  await again.getByRole("menuitem", { name: "Export" }).click();
  await again.getByRole("menuitem", { name: "Fawn bundle (.fawn)" }).click();
  const bundle = await saving;
  const chunks: Buffer[] = [];
  for await (const chunk of await bundle.createReadStream()) chunks.push(chunk as Buffer);

  // Someone else imports it.
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await other.goto("/");
  await configureEndpoint(other);
  await other.getByLabel("Thread files").setInputFiles({
    name: bundle.suggestedFilename(),
    mimeType: "application/octet-stream",
    buffer: Buffer.concat(chunks),
  });
  const steps = conversation(other).getByRole("list", { name: "Tool calls" });
  await expect(steps).toBeVisible();
  const resume = other.getByRole("button", { name: "Continue", exact: true });
  const offeredOnImport = await resume.count();

  // Continue this thread: the user's own copy. Whatever it offers is clicked, as a user would.
  await other
    .getByRole("region", { name: "Imported thread" })
    .getByRole("button", { name: "Continue this thread" })
    .click();
  await expect(other.getByRole("textbox", { name: "Message" })).toBeFocused();
  const copyId = openThreadId(other);
  const resumed = (await resume.count()) > 0;
  if (resumed) await resume.click();
  // The call could only run in a run: once every run here has ended (a resumed one, had Continue been offered, only
  // after its command), the file would be written.
  await expect
    .poll(async () => {
      const runs = await storedRuns(other);
      const started = !resumed || runs.some((run) => run.thread_id === copyId && run.kind === "resume");
      return started && runs.every((run) => run.status !== "running");
    })
    .toBe(true);
  await expect(other.getByRole("button", { name: "Stop" })).toBeHidden({ timeout: 30_000 });
  expect(await hasFile(other, copyId, path)).toBe(false);
  await expect(steps).toContainText("Cancelled on import");
  await expect(resume).toHaveCount(0);
  expect(offeredOnImport).toBe(0);
  await elsewhere.close();
});
