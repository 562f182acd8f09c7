// Thread actions → Export: a thread leaves as a `.fawn` file and comes back through "Import thread" with its
// messages, tool steps, plan, subtask cards, artifacts and files byte for byte; an imported thread is read-only,
// replays step by step and continues on the importer's own model; Markdown and DeerFlow JSON download as readable
// files.
import { expect, test, type Download, type Page } from "@playwright/test";
import {
  assistantMessages,
  callTool,
  callTools,
  configureEndpoint,
  conversation,
  deleteThread,
  MOCK_URL,
  openPreview,
  send,
} from "./fixtures.ts";
import { buildShowcaseThread } from "./showcase.ts";

async function bytesOf(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function exportAs(page: Page, item: string): Promise<Download> {
  const saving = page.waitForEvent("download");
  await page.getByRole("button", { name: "Thread actions" }).click();
  await page.getByRole("menuitem", { name: "Export" }).click();
  await page.getByRole("menuitem", { name: item }).click();
  return saving;
}

/** sha256 of every file the thread holds (uploads, workspace, outputs), by path, read from the page's storage. */
async function fileHashes(page: Page, threadId: string): Promise<Record<string, string>> {
  return page.evaluate(async (id) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("fawn");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const records = await new Promise<{ path: string; bytes: Uint8Array }[]>((resolve, reject) => {
      const request = db
        .transaction("thread_files")
        .objectStore("thread_files")
        .getAll(IDBKeyRange.bound([id], [id, []]));
      request.onsuccess = () => resolve(request.result as { path: string; bytes: Uint8Array }[]);
      request.onerror = () => reject(request.error);
    });
    db.close();
    const hashes: Record<string, string> = {};
    for (const { path, bytes } of records) {
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
      hashes[path] = Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
    }
    return hashes;
  }, threadId);
}

const openThreadId = (page: Page) => new URL(page.url()).hash.replace("#/t/", "");

test("the showcase thread exported as .fawn, deleted and imported shows the same messages, steps, plan, cards and files", async ({
  page,
}) => {
  test.setTimeout(150_000);
  await page.goto("/");
  // An upload, reasoning, tool steps, a written and presented report, a plan, three subtask cards, a question.
  await buildShowcaseThread(page, MOCK_URL);
  const articles = conversation(page).getByRole("article");
  const messages = await articles.allInnerTexts();
  const steps = await conversation(page).getByRole("list", { name: "Tool calls" }).allInnerTexts();
  const plan = await page.getByRole("region", { name: "Plan" }).innerText();
  const artifacts = await page.getByRole("region", { name: "Artifacts" }).innerText();
  const hashes = await fileHashes(page, openThreadId(page));
  expect(Object.keys(hashes)).toEqual(
    expect.arrayContaining(["/mnt/user-data/uploads/sales.csv", "/mnt/user-data/outputs/q3-report.md"]),
  );

  const bundle = await exportAs(page, "Fawn bundle (.fawn)");
  expect(bundle.suggestedFilename()).toMatch(/\.fawn$/);
  const bundleBytes = await bytesOf(bundle);
  await deleteThread(page);
  await expect(articles).toHaveCount(0);

  await page.getByLabel("Thread files").setInputFiles({
    name: bundle.suggestedFilename(),
    mimeType: "application/octet-stream",
    buffer: bundleBytes,
  });
  await expect(articles).toHaveCount(messages.length);
  // The same, except that the question waiting for an answer takes none: the imported thread is read-only.
  const question = conversation(page).getByRole("group", { name: "Clarification" });
  await expect(question).toContainText("Which format should the Q4 forecast take?");
  await expect(question.getByRole("textbox", { name: "Your answer" })).toHaveCount(0);
  expect((await articles.allInnerTexts()).slice(0, -1)).toEqual(messages.slice(0, -1));
  expect(await conversation(page).getByRole("list", { name: "Tool calls" }).allInnerTexts()).toEqual(steps);
  await expect(conversation(page).getByRole("article", { name: /^Subtask:/ })).toHaveCount(3);
  expect(await page.getByRole("region", { name: "Plan" }).innerText()).toBe(plan);
  expect(await page.getByRole("region", { name: "Artifacts" }).innerText()).toBe(artifacts);
  expect(await fileHashes(page, openThreadId(page))).toEqual(hashes);
  // The presented report previews as before.
  const preview = await openPreview(page, "q3-report.md");
  await expect(preview.getByRole("table")).toContainText("143,900");
});

test("an imported thread is read-only, replays step by step, and continues on the importer's own model", async ({
  page,
  browser,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  const todos = [
    { content: "Read the notes", status: "completed" },
    { content: "Write the report", status: "in_progress" },
  ];
  await page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Pro" }).check();
  await send(page, callTool("write_todos", { todos }));
  await expect(page.getByRole("region", { name: "Plan" })).toContainText("Write the report");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await send(page, "hello");
  await expect(assistantMessages(page).last()).toContainText("answer from a script.");
  // As stored (a step the live reply opened shows closed).
  await page.reload();
  await expect(assistantMessages(page)).toHaveCount(3);
  const messages = await conversation(page).getByRole("article").allInnerTexts();
  const bundle = await exportAs(page, "Fawn bundle (.fawn)");
  const bundleBytes = await bytesOf(bundle);

  // Someone else, in an empty browser, with a model of their own.
  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto("/");
  await configureEndpoint(other, { model: "mock-vision", apiKey: "sk-other-4321" });
  await other.getByLabel("Thread files").setInputFiles({
    name: bundle.suggestedFilename(),
    mimeType: "application/octet-stream",
    buffer: bundleBytes,
  });
  const log = conversation(other);
  await expect(log.getByRole("article")).toHaveCount(messages.length);
  // Read-only: no message box, but Replay and Continue this thread.
  const imported = other.getByRole("region", { name: "Imported thread" });
  await expect(imported).toBeVisible();
  await expect(other.getByRole("textbox", { name: "Message" })).toHaveCount(0);
  const list = other.getByRole("navigation", { name: "Threads" });
  await expect(list.getByRole("img", { name: "Imported, read-only" })).toHaveCount(1);

  // Replay: the steps in order, the plan appearing with the step that wrote it.
  await imported.getByRole("button", { name: "Replay" }).click();
  const replay = other.getByRole("region", { name: "Replay" });
  await replay.getByRole("button", { name: "Pause" }).click();
  const position = replay.getByText(/^Step \d+ of 6$/);
  // It may have moved on before the click: back to the first step.
  while ((await position.textContent()) !== "Step 1 of 6") {
    await replay.getByRole("button", { name: "Previous step" }).click();
  }
  const shown: string[] = [];
  for (let step = 1; step <= 6; step++) {
    await expect(position).toHaveText(`Step ${step} of 6`);
    shown.push(
      `${await log.getByRole("article", { name: "User message" }).count()} user, ` +
        `${await log.getByRole("list", { name: "Tool calls" }).count()} steps, ` +
        `plan ${await other.getByRole("region", { name: "Plan" }).count()}`,
    );
    if (step < 6) await replay.getByRole("button", { name: "Next step" }).click();
  }
  expect(shown).toEqual([
    "1 user, 0 steps, plan 0",
    "1 user, 1 steps, plan 0",
    "1 user, 1 steps, plan 1",
    "1 user, 1 steps, plan 1",
    "2 user, 1 steps, plan 1",
    "2 user, 1 steps, plan 1",
  ]);
  expect(await log.getByRole("article").allInnerTexts()).toEqual(messages);
  // Play at the last step starts over; at 4× it runs through every step by itself and stops at the last.
  await position.evaluate((element) => {
    const seen: string[] = [];
    new MutationObserver(() => seen.push(element.textContent ?? "")).observe(element, {
      characterData: true,
      childList: true,
      subtree: true,
    });
    (window as unknown as { seenSteps: string[] }).seenSteps = seen;
  });
  await replay.getByRole("combobox", { name: "Replay speed" }).selectOption("4");
  await replay.getByRole("button", { name: "Play", exact: true }).click();
  await expect(replay.getByRole("button", { name: "Pause" })).toBeVisible();
  await expect(replay.getByRole("button", { name: "Play", exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(position).toHaveText("Step 6 of 6");
  expect(await other.evaluate(() => (window as unknown as { seenSteps: string[] }).seenSteps)).toEqual(
    [1, 2, 3, 4, 5, 6].map((step) => `Step ${step} of 6`),
  );
  await replay.getByRole("button", { name: "Exit replay" }).click();
  await expect(log.getByRole("article")).toHaveCount(messages.length);

  // Continue: a thread of their own, whose next message goes to their model with their key.
  await other
    .getByRole("region", { name: "Imported thread" })
    .getByRole("button", { name: "Continue this thread" })
    .click();
  await expect(other.getByRole("textbox", { name: "Message" })).toBeFocused();
  await expect(list.getByRole("link")).toHaveCount(2);
  await expect(list.getByRole("img", { name: "Imported, read-only" })).toHaveCount(1);
  await expect(log.getByRole("article")).toHaveCount(messages.length);
  await send(other, "hello again");
  await expect(assistantMessages(other).last()).toContainText("answer from a script.");
  const requests = (await (await other.request.get(`${new URL(MOCK_URL).origin}/__mock/requests`)).json()) as {
    headers: Record<string, string>;
    body: { model?: string };
  }[];
  // Other tests share the mock: this browser's requests are the ones with its key.
  const mine = requests.filter((request) => request.headers.authorization === "Bearer sk-***4321");
  expect(mine.length).toBeGreaterThan(0);
  expect(mine.every((request) => request.body.model === "mock-vision")).toBe(true);
  await context.close();
});

test("Markdown and DeerFlow JSON exports download as readable files", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, "hello");
  await expect(assistantMessages(page)).toContainText("answer from a script.");
  const markdown = await exportAs(page, "Markdown");
  expect(markdown.suggestedFilename()).toBe("hello.md");
  expect((await bytesOf(markdown)).toString("utf8")).toContain("Hello! I am Fawn's mock model.");
  const json = await exportAs(page, "DeerFlow JSON");
  expect(json.suggestedFilename()).toBe("hello.thread.json");
  expect(JSON.stringify(JSON.parse((await bytesOf(json)).toString("utf8")))).toContain(
    "Hello! I am Fawn's mock model.",
  );
});

test("a DeerFlow JSON export imports back as it was saved, under a name made from the cleaned title", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, callTools([["write_file", { path: "/mnt/user-data/outputs/page.md", content: "# Page" }]]));
  await expect(conversation(page).getByRole("list", { name: "Tool calls" })).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await send(page, "hello");
  await expect(assistantMessages(page).last()).toContainText("answer from a script.");
  const users = await conversation(page).getByRole("article", { name: "User message" }).allInnerTexts();
  const replies = await assistantMessages(page).allInnerTexts();

  const json = await exportAs(page, "DeerFlow JSON");
  const markdown = await exportAs(page, "Markdown");
  await deleteThread(page);
  await expect(conversation(page).getByRole("article")).toHaveCount(0);

  // The downloaded file, unchanged: its name and its bytes.
  await page.getByLabel("Thread files").setInputFiles({
    name: json.suggestedFilename(),
    mimeType: "application/json",
    buffer: await bytesOf(json),
  });
  await expect(page.getByRole("navigation", { name: "Threads" }).getByRole("link")).toHaveCount(1);
  await expect(conversation(page).getByRole("article", { name: "User message" })).toHaveCount(users.length);
  expect(await conversation(page).getByRole("article", { name: "User message" }).allInnerTexts()).toEqual(users);
  expect(await assistantMessages(page).allInnerTexts()).toEqual(replies);
  await expect(conversation(page).getByRole("list", { name: "Tool calls" })).toHaveCount(1);

  // Markdown is for reading: picking it says so, and imports nothing.
  await page.getByLabel("Thread files").setInputFiles({
    name: markdown.suggestedFilename(),
    mimeType: "text/markdown",
    buffer: await bytesOf(markdown),
  });
  await expect(page.getByText("This is a Markdown transcript, made to be read: Fawn cannot import it.")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Threads" }).getByRole("link")).toHaveCount(1);

  // The title is the first message, cut with "…": no braces, quotes or spaces in the names.
  expect(json.suggestedFilename()).toBe("call-tools-write-file-description-e2e-path.thread.json");
  expect(markdown.suggestedFilename()).toBe("call-tools-write-file-description-e2e-path.md");
});
