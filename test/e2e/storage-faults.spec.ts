// The storage reliability suite (docs/reliability.md, suite "storage"): a real quota in Chromium (the DevTools
// protocol's Storage.overrideQuotaForOrigin) fills up during a run; the browser grants or denies persistent storage;
// another tab opens a newer version of the database while this one is live, and an older one is upgraded while a
// tab holds it; a backup import is cut off by a renderer crash. Each case checks what the user would: the sentence
// shown, what was saved still there after a reload, nothing half-written, and that the next action works.
// Quota and permissions need a profile on disk (an incognito context ignores both): those cases launch their own.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, expect, test, type BrowserContext, type Page } from "@playwright/test";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { firstSeed, recordCase, reliabilityCases, seededRandom } from "../support/reliability.ts";
import {
  assistantMessages,
  callTool,
  closeSettings,
  configureEndpoint,
  conversation,
  openSettings,
  send,
} from "./fixtures.ts";

const STORAGE_FULL =
  "This browser's storage for Fawn is full, so the last change was not saved (nothing was half-written).";
const STEPPED_ASIDE = "Fawn was updated in another tab, so this tab has stopped using its storage (nothing was lost).";
const HELLO_REPLY = "answer from a script.";
/** src/storage/fawn-db.ts's DB_VERSION (the page cannot import it here; the upgrade case checks it matches). */
const DB_VERSION = 7;

// Each case launches a browser or runs several turns: more than the default 45 s on a busy machine.
test.describe.configure({ timeout: reliabilityCases(180_000, 1_200_000) });

/** A Chromium profile on disk, removed after the test: quota overrides and permissions apply only there. */
async function profileContext(baseURL: string | undefined, run: (context: BrowserContext) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), "fawn-storage-"));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
    ...(baseURL && { baseURL }),
    // The service worker's precache would count against the quota; the storage under test is IndexedDB's.
    serviceWorkers: "block",
  });
  try {
    await run(context);
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runEnded(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
}

function threadLinks(page: Page) {
  return page.getByRole("navigation", { name: "Threads" }).getByRole("link");
}

async function helloThread(page: Page): Promise<void> {
  await configureEndpoint(page);
  await send(page, "hello");
  await expect(assistantMessages(page).last()).toContainText(HELLO_REPLY, { timeout: 30_000 });
  await runEnded(page);
}

/** How many records `store` of Fawn's database holds, read in the page (a connection of its own, closed after). */
function countRecords(page: Page, store: string): Promise<number> {
  return page.evaluate(
    (name) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open("fawn");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const request = db.transaction(name).objectStore(name).count();
          request.onsuccess = () => {
            db.close();
            resolve(request.result);
          };
          request.onerror = () => reject(request.error);
        };
      }),
    store,
  );
}

test("a run that fills a real quota ends with the storage-full sentence and keeps what was saved", async ({
  baseURL,
}) => {
  const cases = reliabilityCases(1, 5);
  const seed = firstSeed();
  const random = seededRandom(seed);
  for (let index = 0; index < cases; index++) {
    // A file of 290 to 560 kB against 150 kB or so left: the sandbox's save of it cannot fit.
    const lines = 50_000 + Math.floor(random() * 45_000);
    const name = `quota case ${index + 1}, seq 1 ${lines} (seed ${seed})`;
    await profileContext(baseURL, async (context) => {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const origin = new URL(baseURL ?? "http://127.0.0.1").origin;
      // Set before the database first opens: Chromium keeps an origin's quota once its storage is in use.
      await cdp.send("Storage.overrideQuotaForOrigin", { origin, quotaSize: 250_000 });
      await page.goto("/");
      await helloThread(page);

      const started = Date.now();
      await send(page, callTool("bash", { command: `seq 1 ${lines} > /mnt/user-data/outputs/big.txt` }));
      await expect(conversation(page).getByText(STORAGE_FULL)).toBeVisible({ timeout: 30_000 });
      await runEnded(page);
      const recoveryMs = Date.now() - started;
      // The model was not asked to go on after the failed save: the run ended there.
      await expect(conversation(page).getByText("The tool returned")).toHaveCount(0);

      // After a reload the thread holds what was saved: the first exchange, and no file that was never kept.
      await page.reload();
      await expect(assistantMessages(page).first()).toContainText(HELLO_REPLY);
      await expect(page.getByRole("region", { name: "Artifacts" }).getByText("big.txt")).toHaveCount(0);
      const files = await countRecords(page, "thread_files");
      expect(files).toBe(0);

      // Space freed (a larger quota), the user goes on in the same thread.
      await cdp.send("Storage.overrideQuotaForOrigin", { origin, quotaSize: 1024 * 1024 * 1024 });
      await send(page, "hello again");
      await expect(assistantMessages(page).last()).toContainText(HELLO_REPLY);
      recordCase("storage", { case: name, survived: true, lost: 0, recoveryMs });
    });
  }
});

test("persistent storage: Fawn asks at start; granted, Settings → Data says so; denied, it says what to do", async ({
  baseURL,
}) => {
  for (const setting of ["granted", "denied"] as const) {
    await profileContext(baseURL, async (context) => {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const origin = new URL(baseURL ?? "http://127.0.0.1").origin;
      await cdp.send("Browser.setPermission", { permission: { name: "persistent-storage" }, setting, origin });
      // Counts the page's calls: with the permission granted, `persisted()` is true whether or not Fawn asked.
      await page.addInitScript(() => {
        const storage = navigator.storage;
        const calls = { persist: 0, persisted: 0 };
        (window as unknown as { storageCalls: typeof calls }).storageCalls = calls;
        const persist = storage.persist.bind(storage);
        const persisted = storage.persisted.bind(storage);
        storage.persist = () => (calls.persist++, persist());
        storage.persisted = () => (calls.persisted++, persisted());
      });
      const calls = () =>
        page.evaluate(
          () => (window as unknown as { storageCalls: { persist: number; persisted: number } }).storageCalls,
        );
      const started = Date.now();
      await page.goto("/");
      // Fawn asks as it starts, before anyone opens Settings (asking when the browser already keeps it is a no-op).
      await expect.poll(async () => (await calls()).persist + (await calls()).persisted).toBeGreaterThan(0);
      const dialog = await openSettings(page, "Data");
      if (setting === "granted") {
        await expect(dialog.getByText("Storage is persistent: the browser will not clear your threads")).toBeVisible();
        await expect(dialog.getByRole("button", { name: "Keep my data" })).toHaveCount(0);
        expect(await page.evaluate(() => navigator.storage.persisted())).toBe(true);
      } else {
        await expect(dialog.getByText("Storage is not persistent yet")).toBeVisible();
        await dialog.getByRole("button", { name: "Keep my data" }).click();
        await expect(
          dialog.getByRole("status").filter({ hasText: "did not agree to keep Fawn's storage" }),
        ).toBeVisible();
        await expect(dialog.getByText("Storage is not persistent yet")).toBeVisible();
        expect(await page.evaluate(() => navigator.storage.persisted())).toBe(false);
      }
      recordCase("storage", {
        case: `persistent storage ${setting}`,
        survived: true,
        lost: 0,
        recoveryMs: Date.now() - started,
      });
    });
  }
});

test("another tab opening a newer database: this tab steps aside, says to reload, and nothing is lost", async ({
  context,
  page,
}) => {
  await page.goto("/");
  await helloThread(page);
  const threads = await countRecords(page, "threads");
  const messages = await countRecords(page, "checkpoint_messages");

  // A newer Fawn in another tab: it upgrades the database (a store of its own), which this tab must let it do.
  const newer = await context.newPage();
  await newer.goto("/manifest.webmanifest");
  const upgraded = await newer.evaluate(
    (version) =>
      new Promise<string>((resolve) => {
        const open = indexedDB.open("fawn", version + 1);
        open.onupgradeneeded = () => open.result.createObjectStore("from_a_newer_fawn");
        open.onblocked = () => resolve("blocked");
        open.onsuccess = () => {
          open.result.close();
          resolve("upgraded");
        };
        open.onerror = () => resolve(String(open.error));
      }),
    DB_VERSION,
  );
  expect(upgraded).toBe("upgraded");

  // This tab's next run ends at once with what to do, instead of an IndexedDB error or a run that never ends.
  const started = Date.now();
  await send(page, "second message");
  await expect(page.getByText(STEPPED_ASIDE).first()).toBeVisible();
  await runEnded(page);
  const recoveryMs = Date.now() - started;
  expect(await countRecords(newer, "threads")).toBe(threads);
  expect(await countRecords(newer, "checkpoint_messages")).toBe(messages);
  recordCase("storage", { case: "a newer database opened in another tab", survived: true, lost: 0, recoveryMs });
});

test("an older database held open by another tab is upgraded once that tab steps aside, keeping its threads", async ({
  context,
  page,
}) => {
  // An older Fawn's tab: the database at version 1 with one thread, held open, stepping aside as every Fawn does.
  const older = await context.newPage();
  await older.goto("/manifest.webmanifest");
  await older.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open("fawn", 1);
        open.onupgradeneeded = () => {
          const db = open.result;
          const threads = db.createObjectStore("threads", { keyPath: "thread_id" });
          threads.createIndex("by-updated", "updated_at");
          const entries = db.createObjectStore("entries", { keyPath: ["thread_id", "seq"] });
          entries.createIndex("by-thread", "thread_id");
          db.createObjectStore("settings", { keyPath: "key" });
          const now = Date.now();
          threads.put({
            thread_id: "older-thread",
            title: "Kept from an older Fawn",
            created_at: now,
            updated_at: now,
            status: "idle",
          });
        };
        open.onsuccess = () => {
          const db = open.result;
          db.onversionchange = () => db.close();
          resolve();
        };
        open.onerror = () => reject(open.error);
      }),
  );

  const started = Date.now();
  await page.goto("/");
  await expect(threadLinks(page).filter({ hasText: "Kept from an older Fawn" })).toBeVisible();
  const recoveryMs = Date.now() - started;
  // The upgraded database is this Fawn's version, and a new thread works beside the old one.
  expect(
    await page.evaluate(() => indexedDB.databases().then((all) => all.find((db) => db.name === "fawn")?.version)),
  ).toBe(DB_VERSION);
  await page.getByRole("button", { name: "New thread" }).click();
  await helloThread(page);
  await expect(threadLinks(page)).toHaveCount(2);
  recordCase("storage", { case: "an older database upgraded with two live tabs", survived: true, lost: 0, recoveryMs });
});

/** `archive` with `copies` more copies of its one thread, each under a new id: a backup whose import takes a while. */
function withCopies(archive: Uint8Array, copies: number): Uint8Array {
  const members = unzipSync(archive);
  const threadMember = Object.keys(members).find((name) => /^threads\/[^/]+\/thread\.json$/.test(name));
  if (!threadMember) throw new Error("the backup holds no thread");
  const id = threadMember.split("/")[1] as string;
  const text = strFromU8(members[threadMember] as Uint8Array);
  const manifest = JSON.parse(strFromU8(members["manifest.json"] as Uint8Array)) as {
    counts: { threads: number };
  };
  for (let copy = 0; copy < copies; copy++) {
    const copyId = `${id.slice(0, 40)}-copy${copy}`;
    members[`threads/${copyId}/thread.json`] = strToU8(text.split(id).join(copyId));
  }
  manifest.counts.threads += copies;
  members["manifest.json"] = strToU8(JSON.stringify(manifest));
  return zipSync(members);
}

test("a backup import cut off by a renderer crash leaves all of the backup or none of it", async ({
  context,
  page,
}) => {
  const COPIES = 150;
  await page.goto("/");
  await helloThread(page);
  let dialog = await openSettings(page, "Data");
  const downloading = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Export all data" }).click();
  const backup = withCopies(new Uint8Array(readFileSync(await (await downloading).path())), COPIES);
  await closeSettings(page);
  const file = { name: "fawn-backup-big.zip", mimeType: "application/zip", buffer: Buffer.from(backup) };
  const checkpoints = await countRecords(page, "checkpoints");

  const cases = reliabilityCases(1, 10);
  const seed = firstSeed() + 1;
  const random = seededRandom(seed);
  let current = page;
  for (let index = 0; index < cases; index++) {
    // Cut somewhere between the file being picked and a while after the import's likely end.
    const cutAfterMs = Math.floor(random() * 4_000);
    const name = `backup import cut ${cutAfterMs} ms in (seed ${seed}, case ${index + 1})`;
    dialog = await openSettings(current, "Data");
    await dialog.getByLabel("Backup file to import").setInputFiles(file);
    // A seeded cut point, not a wait for something to happen.
    await current.waitForTimeout(cutAfterMs);
    const cdp = await context.newCDPSession(current);
    const crashed = current.waitForEvent("crash");
    void cdp.send("Page.crash").catch(() => undefined);
    await crashed;
    const started = Date.now();
    await current.close().catch(() => undefined);

    current = await context.newPage();
    await current.goto("/");
    await expect(threadLinks(current).first()).toBeVisible();
    const threads = await countRecords(current, "threads");
    const stored = await countRecords(current, "checkpoints");
    // All or nothing: the thread here alone (and its checkpoints), or it and every thread of the backup with all
    // theirs: its copies, and its original too once a case has deleted everything and made a new first thread.
    const whole = (threads === 1 + COPIES || threads === 2 + COPIES) && stored === checkpoints * threads;
    const none = threads === 1 && stored === checkpoints;
    expect({ threads, stored, whole: whole || none }).toEqual({ threads, stored, whole: true });
    const recoveryMs = Date.now() - started;
    if (whole) {
      // It went through before the cut; take it back out so the next case starts from one thread again.
      dialog = await openSettings(current, "Data");
      await dialog.getByRole("button", { name: "Delete all data" }).click();
      await dialog
        .getByRole("group", { name: "Confirm deleting all data" })
        .getByRole("button", { name: "Delete everything" })
        .click();
      await expect(dialog.getByRole("status").filter({ hasText: "All data was deleted" })).toBeVisible();
      await closeSettings(current);
      await helloThread(current);
    }
    recordCase("storage", {
      case: `${name}: ${whole ? "all" : "none"} of it`,
      survived: true,
      lost: 0,
      recoveryMs,
    });
  }
  // After the cuts the same import goes through whole: the user can go on.
  dialog = await openSettings(current, "Data");
  await dialog.getByLabel("Backup file to import").setInputFiles(file);
  await expect(
    dialog.getByRole("status").filter({ hasText: new RegExp(`Imported (${COPIES}|${COPIES + 1}) threads`) }),
  ).toBeVisible({
    timeout: 30_000,
  });
  expect(await countRecords(current, "threads")).toBeGreaterThanOrEqual(1 + COPIES);
});
