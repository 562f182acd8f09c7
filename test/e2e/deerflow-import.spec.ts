// DeerFlow threads imported through "Import thread" — from a folder, a .zip, or thread.json with loose files — open
// with their messages and presented files, render without a console error, and their files preview.
import { strToU8, zipSync } from "fflate";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type ConsoleMessage, type Locator, type Page } from "@playwright/test";
import { deerFlowFixture, deerFlowFixtures, type DeerFlowFixture } from "../support/deerflow-fixtures.ts";
import { conversation, openPreview } from "./fixtures.ts";

/** Console errors (but those `ignore` accepts) and uncaught exceptions of the page, for the whole test. */
function watchErrors(page: Page, ignore: (message: ConsoleMessage) => boolean = () => false): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && !ignore(message)) {
      errors.push(`console: ${message.text()} (${message.location().url})`);
    }
  });
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}

function threadLink(page: Page, fixture: DeerFlowFixture) {
  return page.getByRole("navigation", { name: "Threads" }).getByRole("link", { name: fixture.thread.values.title });
}

/** The thread's user messages (the demo threads have none of DeerFlow's hidden ones). */
function userMessageCount(fixture: DeerFlowFixture): number {
  return fixture.thread.values.messages.filter((message) => message.type === "human").length;
}

/** Checks the open thread shows the fixture: title, user messages, replies and presented files. */
async function expectThreadShown(page: Page, fixture: DeerFlowFixture): Promise<void> {
  await expect(threadLink(page, fixture).first()).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: fixture.thread.values.title })).toBeVisible();
  const log = conversation(page);
  await expect(log.getByRole("article", { name: "User message" })).toHaveCount(userMessageCount(fixture));
  expect(await log.getByRole("article", { name: "Assistant message" }).count()).toBeGreaterThan(0);
  const artifacts = page.getByRole("region", { name: "Artifacts" });
  for (const path of fixture.thread.values.artifacts ?? []) {
    const name = path.split("/").at(-1) ?? path;
    await expect(artifacts.getByRole("button", { name: `Preview ${name}`, exact: true })).toBeVisible();
  }
}

async function closePreview(page: Page, name: string): Promise<void> {
  const dialog = page.getByRole("dialog", { name: `Preview: ${name}` });
  await dialog.getByRole("button", { name: "Close preview" }).click();
  await expect(dialog).toBeHidden();
}

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "New thread" })).toBeVisible();
});

test("imports a DeerFlow thread from its folder; it renders and its files preview", async ({ page }) => {
  const errors = watchErrors(page);
  const fixture = deerFlowFixture("ad76c455-5bf9-4335-8517-fc03834ab828");
  await page.getByRole("button", { name: "Import thread" }).click();
  await expect(page.getByRole("menuitem", { name: "From a folder…" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "From a .zip or files…" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu", { name: "Import thread" })).toBeHidden();
  await page.getByLabel("Thread folder").setInputFiles(fixture.dir);
  await expectThreadShown(page, fixture);
  await expect(conversation(page).getByRole("article", { name: "User message" }).first()).toContainText(
    "What interesting findings can be made from this dataset?",
  );
  // The model's reasoning is kept, in its own block.
  await expect(conversation(page).getByText("Reasoning").first()).toBeVisible();

  const chart = await openPreview(page, "survival_overview.png");
  await expect(chart.getByRole("img", { name: "survival_overview.png" })).toBeVisible();
  await expect
    .poll(() => chart.getByRole("img").evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBeGreaterThan(0);
  await closePreview(page, "survival_overview.png");
  const summary = await openPreview(page, "titanic_summary.txt");
  await expect(summary).toContainText("Survivors: 342 (38.38%)");
  await closePreview(page, "titanic_summary.txt");

  // It stays after a reload.
  await page.reload();
  await threadLink(page, fixture).click();
  await expectThreadShown(page, fixture);
  expect(errors).toEqual([]);
});

test("imports a DeerFlow thread from a .zip of its folder", async ({ page }) => {
  const errors = watchErrors(page);
  const fixture = deerFlowFixture("3823e443-4e2b-4679-b496-a9506eae462b");
  const zip = zipSync({
    [`${fixture.id}/thread.json`]: strToU8(readFileSync(join(fixture.dir, "thread.json"), "utf8")),
    ...Object.fromEntries(fixture.files.map((file) => [`${fixture.id}/${file.path}`, file.bytes])),
  });
  await page.getByLabel("Thread files").setInputFiles({
    name: `${fixture.id}.zip`,
    mimeType: "application/zip",
    buffer: Buffer.from(zip),
  });
  await expectThreadShown(page, fixture);
  await expect(page.getByRole("region", { name: "Plan" })).toBeVisible();

  const timeline = await openPreview(page, "fei-fei-li-podcast-timeline.md");
  await expect(timeline.getByRole("heading").first()).toBeVisible();
  await expect(timeline).toContainText("Fei-Fei Li");
  await closePreview(page, "fei-fei-li-podcast-timeline.md");
  expect(errors).toEqual([]);
});

test("imports thread.json picked with its files; a second import of it gets a thread of its own", async ({ page }) => {
  const errors = watchErrors(page);
  const fixture = deerFlowFixture("90040b36-7eba-4b97-ba89-02c3ad47a8b9");
  const loose = [join(fixture.dir, "thread.json"), ...fixture.files.map((file) => join(fixture.dir, file.path))];
  await page.getByLabel("Thread files").setInputFiles(loose);
  await expectThreadShown(page, fixture);
  const photo = await openPreview(page, "american-woman-shanghai.jpg");
  await expect
    .poll(() => photo.getByRole("img").evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBeGreaterThan(0);
  await closePreview(page, "american-woman-shanghai.jpg");

  await page.getByLabel("Thread files").setInputFiles(loose);
  await expect(threadLink(page, fixture)).toHaveCount(2);
  await expectThreadShown(page, fixture);
  expect(errors).toEqual([]);
});

test("refuses a folder without a thread.json, and one that climbs out of user-data, saying why", async ({ page }) => {
  const errors = watchErrors(page);
  await page
    .getByLabel("Thread files")
    .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hi") });
  await expect(page.getByRole("alert")).toHaveText(
    "There is no thread.json here: choose a DeerFlow thread's folder, a .zip of it, or its thread.json.",
  );
  const zip = zipSync({
    "thread.json": strToU8(JSON.stringify({ values: { messages: [], title: "Sneaky" } })),
    "user-data/outputs/../../escape.txt": strToU8("x"),
  });
  await page
    .getByLabel("Thread files")
    .setInputFiles({ name: "sneaky.zip", mimeType: "application/zip", buffer: Buffer.from(zip) });
  await expect(page.getByRole("alert")).toContainText('cannot be imported: a path may not have "." or ".." segments.');
  await expect(page.getByRole("navigation", { name: "Threads" }).getByRole("link", { name: "Sneaky" })).toHaveCount(0);
  expect(errors).toEqual([]);
});

/**
 * A resource an HTML preview loaded by itself, and could not get: from another site (the tests run without
 * internet), or refused by the preview's policy (no network until "Allow network"). Relative files come inline from
 * the thread, so one of those asked from Fawn's own address would be a failure here.
 */
function isPreviewLoad(message: ConsoleMessage, appOrigin: string): boolean {
  const where = message.location().url || "about:blank";
  if (where === "about:srcdoc" && message.text().includes("violates the following Content Security Policy")) {
    const refused = /'(https?:[^']+)'/.exec(message.text())?.[1];
    return refused !== undefined && new URL(refused).origin !== appOrigin;
  }
  if (!message.text().startsWith("Failed to load resource")) return false;
  return new URL(where).origin !== appOrigin;
}

test("every DeerFlow demo thread imports, renders without a console error, and previews its files", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const fixtures = deerFlowFixtures();
  const appOrigin = new URL(page.url()).origin;
  const errors = watchErrors(page, (message) => isPreviewLoad(message, appOrigin));
  for (const fixture of fixtures) {
    await page.getByLabel("Thread folder").setInputFiles(fixture.dir);
    await expectThreadShown(page, fixture);
    for (const path of fixture.thread.values.artifacts ?? []) {
      const name = path.split("/").at(-1) ?? path;
      const dialog = await openPreview(page, name);
      // Shown for its kind, or said to have no preview; never a failure to read it.
      await expect(
        dialog
          .locator(
            "img, iframe, object, video, audio, .markdown, [aria-label^='Source of'], [aria-label^='Table of'], .hint",
          )
          .first(),
      ).toBeVisible();
      await expect(dialog.getByRole("alert")).toHaveCount(0);
      await closePreview(page, name);
    }
    expect(errors, fixture.thread.values.title).toEqual([]);
  }
});

test("a DeerFlow article's pictures show in its preview, read from the thread's files, and open as files", async ({
  page,
}) => {
  // DeerFlow wrote its demo's addresses (/demo/threads/<id>/user-data/outputs/…) into this thread's article.
  const fixture = deerFlowFixture("7f9dc56c-e49c-4671-a3d2-c492ff4dce0c");
  const asked: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/demo/threads/")) asked.push(request.url());
  });
  await page.getByLabel("Thread folder").setInputFiles(fixture.dir);
  await expectThreadShown(page, fixture);
  const loaded = (image: Locator) =>
    expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);

  const article = await openPreview(page, "leica-master-photography-article.md");
  await loaded(article.getByRole("img", { name: "Paris Decisive Moment" }));
  await loaded(article.getByRole("img", { name: "NYC Candid Scene" }));
  const tokyo = article.getByRole("img", { name: "Tokyo Night Scene" });
  await loaded(tokyo);
  // A picture opens as its own file, with Back to the article.
  await tokyo.click();
  const picture = page.getByRole("dialog", { name: "Preview: leica-tokyo-night.jpg" });
  await loaded(picture.getByRole("img", { name: "leica-tokyo-night.jpg" }));
  await picture.getByRole("button", { name: "Back to leica-master-photography-article.md" }).click();
  await loaded(article.getByRole("img", { name: "Tokyo Night Scene" }));
  expect(asked).toEqual([]);
});

test("an HTML file's relative stylesheets and scripts load from the thread's files", async ({ page }) => {
  // DeerFlow serves an HTML artifact beside its files; Fawn's sandboxed srcdoc preview can fetch none, so the page's
  // relative files are put inline from the thread (src/ui/artifacts/html-artifact.ts).
  const appOrigin = new URL(page.url()).origin;
  const missing: string[] = [];
  page.on("console", (message) => {
    const url = message.location().url;
    if (message.text().startsWith("Failed to load resource") && url.startsWith(appOrigin)) missing.push(url);
  });
  const fixture = deerFlowFixture("5aa47db1-d0cb-4eb9-aea5-3dac1b371c5a");
  await page.getByLabel("Thread folder").setInputFiles(fixture.dir);
  await expectThreadShown(page, fixture);
  const dialog = await openPreview(page, "index.html");
  // The page runs in the sandboxed child of Fawn's preview frame document.
  const frame = dialog.frameLocator("iframe").frameLocator("iframe");
  // css/style.css pins the page's navigation bar to the top; without it the bar is a plain block.
  const navbar = frame.locator(".navbar").first();
  await expect.poll(() => navbar.evaluate((element) => getComputedStyle(element).position)).toBe("fixed");
  expect(missing).toEqual([]);
});
