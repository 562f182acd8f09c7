// Settings → Data: export everything as one backup, delete it all, import the backup (after confirming the endpoint
// address it sets) and find the thread (with its upload and artifact) and the memory fact again; a tampered backup is
// refused with its reason and changes nothing.
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { callTool, configureEndpoint, conversation, MOCK_URL, send } from "./fixtures.ts";

const FACT = "User keeps bees on the roof";
const REPORT = "/mnt/user-data/outputs/report.md";

async function runEnded(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
}

async function openSettings(page: Page, tab: string) {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("tab", { name: tab }).click();
  return dialog;
}

async function closeSettings(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Close settings" }).click();
  await expect(page.getByRole("dialog", { name: "Settings" })).toBeHidden();
}

function threadLinks(page: Page) {
  return page.getByRole("navigation", { name: "Threads" }).getByRole("link");
}

/** Every text in the archive: its members, and the byte fields (base64) inside its JSON. */
function archiveTexts(archive: Uint8Array): string[] {
  return Object.values(unzipSync(archive)).flatMap((data) => {
    const text = new TextDecoder("latin1").decode(data);
    const decoded = [...text.matchAll(/"\$bytes":"([A-Za-z0-9+/=]*)"/g)].map((match) =>
      Buffer.from(match[1] ?? "", "base64").toString("latin1"),
    );
    return [text, ...decoded];
  });
}

test("export all data, delete it, and import the backup back; a tampered backup is refused", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page, { apiKey: "sk-e2e-NEVER-EXPORTED" });

  // A thread with an uploaded file and a presented artifact.
  await page
    .getByLabel("Attach files")
    .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hive inspection notes") });
  await send(page, callTool("write_file", { path: REPORT, content: "# Honey report\n\n12 kg this spring.\n" }));
  await runEnded(page);
  await send(page, callTool("present_files", { filepaths: [REPORT] }));
  await runEnded(page);
  const artifacts = page.getByRole("region", { name: "Artifacts" });
  await expect(artifacts.getByRole("button", { name: "Preview report.md", exact: true })).toBeVisible();
  await expect(threadLinks(page)).toHaveCount(1);
  const title = (await threadLinks(page).first().textContent())?.trim() ?? "";

  // A memory fact, added in Settings → Memory.
  let dialog = await openSettings(page, "Memory");
  await dialog.getByRole("textbox", { name: "New fact" }).fill(FACT);
  await dialog.getByRole("button", { name: "Add fact" }).click();
  await expect(dialog.getByRole("table", { name: "Facts" })).toContainText(FACT);

  // Export: one dated zip, without the API key.
  await dialog.getByRole("tab", { name: "Data" }).click();
  const downloading = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Export all data" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^fawn-backup-\d{4}-\d{2}-\d{2}\.zip$/);
  await expect(dialog.getByRole("status").filter({ hasText: "Saved fawn-backup-" })).toBeVisible();
  const archive = new Uint8Array(readFileSync(await download.path()));
  const texts = archiveTexts(archive);
  expect(texts.some((text) => text.includes("hive inspection notes"))).toBe(true);
  expect(texts.filter((text) => text.includes("sk-e2e-NEVER-EXPORTED"))).toEqual([]);

  // Delete all data, after a confirmation that says what goes.
  await dialog.getByRole("button", { name: "Delete all data" }).click();
  const confirm = dialog.getByRole("group", { name: "Confirm deleting all data" });
  await expect(confirm).toContainText("1 thread with their files, 1 memory fact");
  await expect(confirm).toContainText("API keys");
  await confirm.getByRole("button", { name: "Delete everything" }).click();
  await expect(dialog.getByRole("status").filter({ hasText: "All data was deleted" })).toBeVisible();
  await expect(threadLinks(page)).toHaveCount(0);

  // Tampered backups are refused with their reason; nothing appears, even after a reload.
  const members = unzipSync(archive);
  const escaping = zipSync({ ...members, "../../outside.txt": strToU8("x") });
  const picker = dialog.getByLabel("Backup file to import");
  await picker.setInputFiles({ name: "escaping.zip", mimeType: "application/zip", buffer: Buffer.from(escaping) });
  await expect(dialog.getByRole("alert")).toContainText('unsafe path "../../outside.txt"');
  await expect(dialog.getByRole("alert")).toContainText("nothing was changed");
  const manifest = JSON.parse(strFromU8(members["manifest.json"] as Uint8Array)) as Record<string, unknown>;
  const badManifest = zipSync({
    ...members,
    "manifest.json": strToU8(JSON.stringify({ ...manifest, format: "something-else" })),
  });
  await picker.setInputFiles({
    name: "bad-manifest.zip",
    mimeType: "application/zip",
    buffer: Buffer.from(badManifest),
  });
  await expect(dialog.getByRole("alert")).toContainText('its manifest names the format "something-else"');
  await closeSettings(page);
  await page.reload();
  await expect(page.getByRole("button", { name: "New thread" })).toBeVisible();
  await expect(threadLinks(page)).toHaveCount(0);

  // Import the real backup. It would set the model endpoint's address in this emptied browser, so it asks first and
  // writes nothing until the user confirms; Cancel leaves everything as it is.
  dialog = await openSettings(page, "Data");
  const backupFile = { name: download.suggestedFilename(), mimeType: "application/zip", buffer: Buffer.from(archive) };
  await dialog.getByLabel("Backup file to import").setInputFiles(backupFile);
  const addresses = page.getByRole("dialog", { name: "Confirm what the backup adds" });
  await expect(addresses).toContainText("This backup adds what can act or send data.");
  await expect(addresses.getByRole("list", { name: "What the backup adds" })).toHaveText(
    `Model endpoint Main endpoint: ${MOCK_URL}`,
  );
  await addresses.getByRole("button", { name: "Cancel" }).click();
  await expect(addresses).toBeHidden();
  await expect(dialog.getByRole("status").filter({ hasText: "The backup was not imported" })).toBeVisible();
  await expect(threadLinks(page)).toHaveCount(0);

  // Accepted: the thread, its upload, its artifact and the memory fact are back.
  await dialog.getByLabel("Backup file to import").setInputFiles(backupFile);
  await addresses.getByRole("button", { name: "Import and add these" }).click();
  await expect(addresses).toBeHidden();
  await expect(dialog.getByRole("status").filter({ hasText: "Imported 1 thread." })).toBeVisible();
  await expect(dialog.getByRole("status").filter({ hasText: "1 memory fact added" })).toBeVisible();
  await expect(threadLinks(page)).toHaveCount(1);
  await dialog.getByRole("tab", { name: "Memory" }).click();
  await expect(dialog.getByRole("table", { name: "Facts" })).toContainText(FACT);
  await closeSettings(page);

  await threadLinks(page).first().click();
  await expect(threadLinks(page).first()).toHaveText(title);
  await expect(conversation(page).getByRole("article", { name: "User message" }).first()).toContainText("notes.txt");
  await artifacts.getByRole("button", { name: "Preview report.md", exact: true }).click();
  const preview = page.getByRole("dialog", { name: "Preview: report.md" });
  await expect(preview.getByRole("heading", { name: "Honey report" })).toBeVisible();
});
