// Artifact previews in a real browser: each presented file opens in a dialog and is shown for its kind, with the
// file's own scripts kept away from Fawn.
import { expect, test, type Locator, type Page } from "@playwright/test";
import {
  assistantMessages,
  callTool,
  callTools,
  configureEndpoint,
  MOCK_URL,
  send,
  htmlPage,
  openPreview,
} from "./fixtures.ts";

const OUTPUTS = "/mnt/user-data/outputs";

/** A 1×1 PNG. */
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

async function runEnded(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
}

/** A file written by a bash command line, given the file's path. */
interface Shell {
  bash: (path: string) => string;
}

/** Has the agent write each file (text with write_file, or by a bash command line), then present them all. */
async function present(page: Page, files: Record<string, string | Shell>): Promise<void> {
  const writes = Object.entries(files).map(([name, content]): [string, Record<string, unknown>] =>
    typeof content === "string"
      ? ["write_file", { path: `${OUTPUTS}/${name}`, content }]
      : ["bash", { command: content.bash(`${OUTPUTS}/${name}`) }],
  );
  await send(page, callTools(writes));
  await runEnded(page);
  const paths = Object.keys(files).map((name) => `${OUTPUTS}/${name}`);
  await send(page, callTool("present_files", { filepaths: paths }));
  const artifacts = page.getByRole("region", { name: "Artifacts" });
  for (const name of Object.keys(files)) {
    await expect(artifacts.getByRole("button", { name: `Preview ${name}`, exact: true })).toBeVisible();
  }
  await runEnded(page);
}

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "New thread" })).toBeVisible();
  await configureEndpoint(page);
});

test("a Markdown file is rendered, sanitized, has a source view, downloads, and closes", async ({ page }) => {
  await present(page, {
    "report.md": [
      "# Quarterly findings",
      "",
      "Sales rose by **12%**.",
      "",
      '<img src="x" onerror="window.__xss = true">',
      "",
      '<a href="javascript:window.__xss = true">click</a>',
    ].join("\n"),
  });
  const dialog = await openPreview(page, "report.md");
  await expect(dialog.getByRole("heading", { name: "Quarterly findings" })).toBeVisible();
  await expect(dialog.getByText("12%")).toBeVisible();
  // The broken image had its chance to fire onerror; the handler was stripped.
  await expect(dialog.locator(".artifact-markdown img")).toHaveCount(1);
  await expect(dialog.locator("[onerror]")).toHaveCount(0);
  await expect(dialog.locator('a[href^="javascript:"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __xss?: boolean }).__xss)).toBeUndefined();

  await dialog.getByRole("button", { name: "Source" }).click();
  await expect(dialog.getByRole("button", { name: "Source" })).toHaveAttribute("aria-pressed", "true");
  await expect(dialog.getByLabel("Source of report.md")).toContainText("# Quarterly findings");
  await expect(dialog.getByLabel("Source of report.md")).toContainText('onerror="window.__xss = true"');

  const saving = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Download", exact: true }).click();
  expect((await saving).suggestedFilename()).toBe("report.md");

  await dialog.getByRole("button", { name: "Close preview" }).click();
  await expect(dialog).toBeHidden();
  const opener = page.getByRole("button", { name: "Preview report.md", exact: true });
  await expect(opener).toBeFocused();
  // Escape closes it too; the list's own Download button is still there and named as before.
  await opener.click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(
    page.getByRole("region", { name: "Artifacts" }).getByRole("button", { name: "Download report.md" }),
  ).toBeVisible();
  expect(await page.evaluate(() => (window as { __xss?: boolean }).__xss)).toBeUndefined();
});

test("an HTML file runs in a sandboxed iframe without same-origin access", async ({ page }) => {
  const probe = [
    "<script>",
    "const say = (text) => document.body.insertAdjacentHTML('beforeend', '<p>' + text + '</p>');",
    "say('script ran');",
    "try { localStorage.setItem('fromFrame', 'kept'); say('own storage ' + localStorage.getItem('fromFrame')); } catch { say('storage failed'); }",
    "try { document.cookie; window.top.localStorage; say('fawn storage open'); } catch { say('fawn storage blocked'); }",
    "try { parent.document.title; say('parent open'); } catch { say('parent blocked'); }",
    "try { parent.__fromFrame = true; } catch {}",
    "</script>",
  ].join("\n");
  await present(page, { "page.html": `<!doctype html><html><body><h1>Hello from the page</h1>${probe}</body></html>` });
  const dialog = await openPreview(page, "page.html");
  const frame = dialog.frameLocator('iframe[title="HTML preview"]').locator("iframe");
  await expect(frame).toHaveAttribute("title", "page.html");
  const sandbox = (await frame.getAttribute("sandbox"))?.split(" ") ?? [];
  expect(sandbox).toContain("allow-scripts");
  expect(sandbox).not.toContain("allow-same-origin");
  expect(sandbox).not.toContain("allow-top-navigation");
  const inside = htmlPage(dialog);
  await expect(inside.getByRole("heading", { name: "Hello from the page" })).toBeVisible();
  await expect(inside.getByText("script ran")).toBeVisible();
  // The page gets a storage of its own for while it is open (generated pages use one), never Fawn's.
  await expect(inside.getByText("own storage kept")).toBeVisible();
  await expect(inside.getByText("fawn storage blocked")).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("fromFrame"))).toBeNull();
  await expect(inside.getByText("parent blocked")).toBeVisible();
  expect(await page.evaluate(() => (window as { __fromFrame?: boolean }).__fromFrame)).toBeUndefined();

  // The source view shows the markup, highlighted, instead of running it.
  await dialog.getByRole("button", { name: "Source" }).click();
  await expect(dialog.locator('iframe[title="HTML preview"]')).toHaveCount(0);
  await expect(dialog.getByLabel("Source of page.html")).toContainText("<h1>Hello from the page</h1>");
  await expect(dialog.getByLabel("Source of page.html").locator(".hljs-tag").first()).toBeVisible();
});

test("an HTML page's web links open in a new tab; its links to thread files open in the preview, with Back", async ({
  page,
}) => {
  // A file of the thread the agent did not present.
  await send(page, callTool("write_file", { path: `${OUTPUTS}/details.html`, content: "<h1>The details</h1>" }));
  await runEnded(page);
  const web = `${MOCK_URL}/models`;
  await present(page, {
    "index.html": `<h1>Summary</h1><p><a href="${web}">source</a> <a href="details.html#part">details</a></p>`,
  });
  const dialog = await openPreview(page, "index.html");
  const inside = htmlPage(dialog);
  const [tab] = await Promise.all([
    page.context().waitForEvent("page"),
    inside.getByRole("link", { name: "source" }).click(),
  ]);
  await tab.waitForLoadState();
  expect(tab.url()).toBe(web);
  // An ordinary page, outside the preview's sandbox, that cannot reach back into Fawn.
  expect(await tab.evaluate(() => [window.opener === null, typeof localStorage.length])).toEqual([true, "number"]);
  await tab.close();
  // The preview still shows the page.
  await expect(inside.getByRole("heading", { name: "Summary" })).toBeVisible();

  await inside.getByRole("link", { name: "details" }).click();
  const details = page.getByRole("dialog", { name: "Preview: details.html" });
  await expect(htmlPage(details).getByRole("heading", { name: "The details" })).toBeVisible();
  await details.getByRole("button", { name: "Back to index.html" }).click();
  await expect(dialog.getByRole("button", { name: /^Back to/ })).toHaveCount(0);
  await expect(inside.getByRole("heading", { name: "Summary" })).toBeVisible();
});

test("pictures and links naming thread files show from the thread, in a reply and in a Markdown file, and open previews", async ({
  page,
}) => {
  const fetched: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("chart.png")) fetched.push(request.url());
  });
  await present(page, {
    "chart.png": { bash: (path) => `echo '${PNG_BASE64}' | base64 -d > ${path}` },
    "data.csv": "region,sales\nNorth,12\n",
    "report.md": "# Sales\n\n![Sales chart](chart.png)\n\nSee [the data](data.csv).\n",
  });
  const loaded = (image: Locator) =>
    expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);

  // A reply showing a picture by its thread path (the mock repeats what the tool printed).
  await send(page, callTool("bash", { command: "echo '![Sales chart](/mnt/user-data/outputs/chart.png)'" }));
  const inReply = assistantMessages(page).last().getByRole("img", { name: "Sales chart" });
  await loaded(inReply);
  await inReply.click();
  const picture = page.getByRole("dialog", { name: "Preview: chart.png" });
  await loaded(picture.getByRole("img", { name: "chart.png" }));
  await picture.getByRole("button", { name: "Close preview" }).click();
  await expect(picture).toBeHidden();
  await runEnded(page);

  // The Markdown file's relative picture, and its link to another file, which opens here with Back.
  const report = await openPreview(page, "report.md");
  await loaded(report.getByRole("img", { name: "Sales chart" }));
  await report.getByRole("link", { name: "the data" }).click();
  const data = page.getByRole("dialog", { name: "Preview: data.csv" });
  await expect(data.getByRole("table")).toContainText("North");
  await data.getByRole("button", { name: "Back to report.md" }).click();
  await loaded(report.getByRole("img", { name: "Sales chart" }));
  // Never asked of Fawn's server: the pictures come from the thread's files.
  expect(fetched).toEqual([]);
});

test("CSV and TSV become tables, code is highlighted, and other files say there is no preview", async ({ page }) => {
  await present(page, {
    "people.csv": 'name,quote,age\n"Smith, Jane","She said ""hi""",41\nBob,"two\nlines",7\n',
    "scores.tsv": "team\tpoints\nRed\t3\nBlue\t5\n",
    "analysis.py": 'def greet(name):\n    """Say hello."""\n    return f"hi {name}"  # friendly\n',
    "blob.bin": "not really binary",
    // 600 rows after the header; over 1 MiB of text.
    "counts.csv": { bash: (path) => `(echo n; seq 1 600) > ${path}` },
    "numbers.txt": { bash: (path) => `(seq 1 100000; seq 100001 190000) > ${path}` },
  });

  let dialog = await openPreview(page, "people.csv");
  const table = dialog.getByRole("table");
  await expect(table.getByRole("columnheader")).toHaveText(["name", "quote", "age"]);
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table.getByRole("row").nth(1).getByRole("cell")).toHaveText(["Smith, Jane", 'She said "hi"', "41"]);
  await expect(table.getByRole("row").nth(2).getByRole("cell")).toHaveText(["Bob", "two\nlines", "7"]);
  await dialog.getByRole("button", { name: "Close preview" }).click();

  dialog = await openPreview(page, "scores.tsv");
  await expect(dialog.getByRole("columnheader")).toHaveText(["team", "points"]);
  await expect(dialog.getByRole("row").nth(2).getByRole("cell")).toHaveText(["Blue", "5"]);
  await dialog.getByRole("button", { name: "Close preview" }).click();

  dialog = await openPreview(page, "analysis.py");
  const code = dialog.getByLabel("Source of analysis.py");
  await expect(code).toContainText('return f"hi {name}"');
  await expect(code.locator(".hljs-keyword").first()).toHaveText("def");
  await expect(code.locator(".hljs-comment")).toHaveText("# friendly");
  await dialog.getByRole("button", { name: "Close preview" }).click();

  dialog = await openPreview(page, "counts.csv");
  await expect(dialog.getByText("Showing the first 500 of 600 rows.")).toBeVisible();
  await expect(dialog.getByRole("row")).toHaveCount(501);
  await expect(dialog.getByRole("row").last()).toHaveText("500");
  await dialog.getByRole("button", { name: "Close preview" }).click();

  dialog = await openPreview(page, "numbers.txt");
  await expect(dialog.getByText("Showing the first 1.0 MB of 1.2 MB.")).toBeVisible();
  // 1 MiB ends inside "165669".
  await expect(dialog.getByLabel("Source of numbers.txt")).toContainText("\n165668\n");
  await expect(dialog.getByLabel("Source of numbers.txt")).not.toContainText("165669");
  await dialog.getByRole("button", { name: "Close preview" }).click();

  dialog = await openPreview(page, "blob.bin");
  await expect(dialog.getByText("No preview for this kind of file.")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Download", exact: true })).toBeVisible();
});

test("PNG and SVG show as images (an SVG's scripts never run) and a PDF gets the browser's viewer or a note", async ({
  page,
}) => {
  const svg = [
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" onload="parent.__svg = true">',
    "<script>parent.__svg = true</script>",
    '<rect width="40" height="20" fill="#b5651d"/>',
    "</svg>",
  ].join("");
  const pdf = [
    "%PDF-1.4",
    "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj",
    "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj",
    "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj",
    "trailer << /Root 1 0 R >>",
    "%%EOF",
  ].join("\n");
  await present(page, {
    "dot.png": { bash: (path) => `echo '${PNG_BASE64}' | base64 -d > ${path}` },
    "logo.svg": svg,
    "paper.pdf": pdf,
  });

  let dialog = await openPreview(page, "dot.png");
  let image = dialog.getByRole("img", { name: "dot.png" });
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute("src", /^blob:/);
  await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(1);
  // Closing revokes the object URL.
  const url = (await image.getAttribute("src")) ?? "";
  await dialog.getByRole("button", { name: "Close preview" }).click();
  await expect(dialog).toBeHidden();
  const revoked = await page.evaluate(
    (src) =>
      fetch(src).then(
        () => false,
        () => true,
      ),
    url,
  );
  expect(revoked).toBe(true);

  // An SVG shows sanitized, from a data: URL (test/e2e/previews.spec.ts opens it every other way).
  dialog = await openPreview(page, "logo.svg");
  image = dialog.getByRole("img", { name: "logo.svg" });
  await expect(image).toHaveAttribute("src", /^data:image\/svg\+xml;base64,/);
  await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(40);
  expect(await page.evaluate(() => (window as { __svg?: boolean }).__svg)).toBeUndefined();
  await dialog.getByRole("button", { name: "Close preview" }).click();

  // The browser's viewer in a frame where there is one; otherwise a sentence pointing to Download.
  dialog = await openPreview(page, "paper.pdf");
  if (await page.evaluate(() => navigator.pdfViewerEnabled)) {
    await expect(dialog.locator('iframe[title="PDF preview"]')).toHaveAttribute("src", /^blob:/);
  } else {
    await expect(dialog.getByText("This browser cannot show PDFs here.")).toBeVisible();
  }
  await expect(dialog.getByRole("button", { name: "Download", exact: true })).toBeVisible();
});

/** A tenth of a second of a 440 Hz tone as 8-bit mono WAV, base64. */
function wavBase64(): string {
  const rate = 8000;
  const samples = rate / 10;
  const bytes = Buffer.alloc(44 + samples);
  bytes.write("RIFF", 0);
  bytes.writeUInt32LE(36 + samples, 4);
  bytes.write("WAVEfmt ", 8);
  bytes.writeUInt32LE(16, 16);
  bytes.writeUInt16LE(1, 20);
  bytes.writeUInt16LE(1, 22);
  bytes.writeUInt32LE(rate, 24);
  bytes.writeUInt32LE(rate, 28);
  bytes.writeUInt16LE(1, 32);
  bytes.writeUInt16LE(8, 34);
  bytes.write("data", 36);
  bytes.writeUInt32LE(samples, 40);
  for (let i = 0; i < samples; i++) bytes[44 + i] = 128 + Math.round(100 * Math.sin((2 * Math.PI * 440 * i) / rate));
  return bytes.toString("base64");
}

test("audio plays in the browser's player; a video it cannot play says so and offers Download", async ({ page }) => {
  await present(page, {
    "tone.wav": { bash: (path) => `echo '${wavBase64()}' | base64 -d > ${path}` },
    "clip.mp4": "not really a video",
  });
  let dialog = await openPreview(page, "tone.wav");
  const audio = dialog.getByLabel("Audio tone.wav");
  await expect(audio).toHaveAttribute("src", /^blob:/);
  await expect.poll(() => audio.evaluate((element) => (element as HTMLAudioElement).duration)).toBeCloseTo(0.1, 2);
  await dialog.getByRole("button", { name: "Close preview" }).click();

  dialog = await openPreview(page, "clip.mp4");
  await expect(dialog.getByText("This browser cannot play this file. Use Download to save it.")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Download" })).toBeVisible();
});

test("a file shows in Artifacts while the agent writes it, growing, then becomes a presented file", async ({
  page,
}) => {
  await send(page, "Please write slowly some notes");
  const artifacts = page.getByRole("region", { name: "Artifacts" });
  const writing = artifacts.getByRole("list", { name: "Files being written" });
  await expect(writing).toContainText("Writing live-notes.md…", { timeout: 15_000 });
  const live = writing.getByLabel("live-notes.md as it is written");
  await expect(live).toContainText("Note 3:");
  // Still being written: the reply has not ended, and more of the file keeps coming.
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await expect(live).toContainText("Note 20:");
  await expect(artifacts.getByRole("button", { name: "Preview live-notes.md", exact: true })).toBeVisible({
    timeout: 15_000,
  });
  await expect(writing).toHaveCount(0);
  await runEnded(page);
  const dialog = await openPreview(page, "live-notes.md");
  await expect(dialog.getByRole("heading", { name: "Live notes" })).toBeVisible();
  await expect(dialog).toContainText("Note 24: written while you watch.");
});
