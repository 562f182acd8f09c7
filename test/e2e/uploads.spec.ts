// Uploads: files attached to a message are stored in the thread, documents also as Markdown the agent can read.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { assistantMessages, callTool, configureEndpoint, conversation, send } from "./fixtures.ts";

const DOCUMENTS = "test/fixtures/documents";

test("a DOCX and a PDF uploaded together become Markdown the agent reads with read_file", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await page.getByLabel("Attach files").setInputFiles([`${DOCUMENTS}/report.docx`, `${DOCUMENTS}/summary.pdf`]);
  const attached = page.getByRole("list", { name: "Attached files" });
  await expect(attached.getByRole("listitem")).toHaveCount(2);
  await expect(attached).toContainText("report.docx");
  await expect(attached).toContainText("summary.pdf");

  await send(page, callTool("read_file", { description: "read the report", path: "/mnt/user-data/uploads/report.md" }));
  await expect(assistantMessages(page).last()).toContainText("Quarterly Report");
  await expect(assistantMessages(page).last()).toContainText("Revenue grew by 12 percent");
  // The message shows its files, not the block the agent was sent.
  const sent = conversation(page).getByRole("article", { name: "User message" }).first();
  await expect(sent).toContainText("report.docx");
  await expect(sent).not.toContainText("uploaded_files");

  await send(
    page,
    callTool("read_file", { description: "read the summary", path: "/mnt/user-data/uploads/summary.md" }),
  );
  await expect(assistantMessages(page).last()).toContainText("The first page talks about apples and pears.");
  // The originals are there too, byte for byte.
  await send(
    page,
    callTool("bash", {
      description: "check",
      command: "ls /mnt/user-data/uploads && wc -c < /mnt/user-data/uploads/summary.pdf",
    }),
  );
  const size = readFileSync(`${DOCUMENTS}/summary.pdf`).byteLength;
  await expect(assistantMessages(page).last()).toContainText(`report.docx`);
  await expect(assistantMessages(page).last()).toContainText(String(size));
});

test("an eleventh file is refused whole with a clear message", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  const files = Array.from({ length: 11 }, (_, i) => ({
    name: `note-${i}.txt`,
    mimeType: "text/plain",
    buffer: Buffer.from(`note ${i}`),
  }));
  await page.getByLabel("Attach files").setInputFiles(files);
  await expect(page.getByRole("alert")).toContainText("You can attach at most 10 files at once; you chose 11.");
  await expect(page.getByRole("list", { name: "Attached files" })).toHaveCount(0);
});

test("Thread actions → Uploads lists the thread's files with a document's Markdown copy, and deletes one", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  await page.getByLabel("Attach files").setInputFiles([
    {
      name: "report.docx",
      mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      buffer: readFileSync(`${DOCUMENTS}/report.docx`),
    },
    { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("bees make honey\n") },
  ]);
  await send(page, "here are my files");
  await expect(assistantMessages(page).last()).toBeVisible();

  await page.getByRole("button", { name: "Thread actions" }).click();
  await page.getByRole("menuitem", { name: "Uploads" }).click();
  const dialog = page.getByRole("dialog", { name: "Uploads" });
  const list = dialog.getByRole("list", { name: "Uploads" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(list.getByRole("listitem").filter({ hasText: "report.docx" })).toContainText(
    "Also as Markdown: report.md",
  );

  await dialog.getByRole("button", { name: "Delete report.docx" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete upload?" });
  await expect(confirm).toContainText("report.docx and its Markdown copy report.md will be deleted");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(dialog.getByRole("status")).toHaveText("Deleted report.docx.");
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list).toContainText("notes.txt");
  await dialog.getByRole("button", { name: "Close" }).click();

  // The agent no longer finds the document or its copy.
  await send(page, callTool("bash", { description: "check", command: "ls /mnt/user-data/uploads" }));
  await expect(assistantMessages(page).last()).toContainText("notes.txt");
  await expect(assistantMessages(page).last()).not.toContainText("report");
});
