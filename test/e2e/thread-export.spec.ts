// Thread actions → Export: a thread leaves as a `.fawn` file and comes back through "Import thread" with its
// messages, artifacts and files byte for byte; Markdown and DeerFlow JSON download as readable files.
import { createHash } from "node:crypto";
import { expect, test, type Download, type Page } from "@playwright/test";
import { assistantMessages, callTool, configureEndpoint, conversation, send } from "./fixtures.ts";

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

async function downloadArtifact(page: Page, name: string): Promise<Buffer> {
  const saving = page.waitForEvent("download");
  await page
    .getByRole("region", { name: "Artifacts" })
    .getByRole("button", { name: `Download ${name}` })
    .click();
  return bytesOf(await saving);
}

test("a thread exported as .fawn, deleted and imported again shows the same messages and files", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, callTool("bash", { command: "seq 1 2000 > /mnt/user-data/outputs/numbers.txt" }));
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await send(page, 'call tool present_files {"filepaths":["/mnt/user-data/outputs/numbers.txt"]}');
  await expect(page.getByRole("region", { name: "Artifacts" })).toContainText("numbers.txt");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  const messages = await conversation(page).getByRole("article").allInnerTexts();
  const file = await downloadArtifact(page, "numbers.txt");

  const bundle = await exportAs(page, "Fawn bundle (.fawn)");
  expect(bundle.suggestedFilename()).toMatch(/\.fawn$/);
  const bundleBytes = await bytesOf(bundle);

  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Thread actions" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await expect(conversation(page).getByRole("article")).toHaveCount(0);

  await page.getByLabel("Thread files").setInputFiles({
    name: bundle.suggestedFilename(),
    mimeType: "application/octet-stream",
    buffer: bundleBytes,
  });
  await expect(conversation(page).getByRole("article")).toHaveCount(messages.length);
  expect(await conversation(page).getByRole("article").allInnerTexts()).toEqual(messages);
  await expect(page.getByRole("region", { name: "Artifacts" })).toContainText("numbers.txt");
  const back = await downloadArtifact(page, "numbers.txt");
  expect(createHash("sha256").update(back).digest("hex")).toBe(createHash("sha256").update(file).digest("hex"));

  // The thread goes on.
  await send(page, "hello");
  await expect(assistantMessages(page).last()).toContainText("answer from a script.");
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
