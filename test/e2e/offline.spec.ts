// The installable PWA: a manifest, a service worker that precaches the app, and the app working offline. Diagrams, PDF
// reading and Python are not in the install download: each works offline once used, or once the page's idle-time
// caching has finished (src/protocol/lazy-parts.ts); an update replaces what changed.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, resolve } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { LAZY_CACHE, LAZY_PARTS_CACHED_MARK } from "../../src/protocol/lazy-parts.ts";
import {
  assistantMessages,
  callTool,
  chatThenReopenOffline,
  configureEndpoint,
  conversation,
  openPreview,
  openTerminal,
  rowsReading,
  runInTerminal,
  send,
} from "./fixtures.ts";

// Every test here is about what the service worker keeps and serves (the config blocks it elsewhere).
test.use({ serviceWorkers: "allow" });

/** Waits until the page's idle-time request has every lazy file cached (the service worker said so). */
async function lazyPartsCached(page: Page): Promise<void> {
  await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, LAZY_PARTS_CACHED_MARK, {
    timeout: 120_000,
  });
}

/** The paths each Cache Storage cache holds: the service worker's precache and the lazy groups' cache. */
async function cachedPaths(page: Page): Promise<{ precache: string[]; lazy: string[] }> {
  return page.evaluate(async (lazyCache) => {
    const paths = async (name: string) =>
      (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname);
    const precache = (await caches.keys()).filter((name) => name.includes("precache"));
    return { precache: (await Promise.all(precache.map(paths))).flat(), lazy: await paths(lazyCache) };
  }, LAZY_CACHE);
}

/** Whether the page has fetched a file whose name starts with `prefix` (Resource Timing, this page load). */
function fetched(page: Page, prefix: string): Promise<boolean> {
  return page.evaluate(
    (start) =>
      performance
        .getEntriesByType("resource")
        .some((entry) => (new URL(entry.name).pathname.split("/").pop() ?? "").startsWith(start)),
    prefix,
  );
}

async function runEnded(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
}

test("after the first visit Fawn opens offline with its threads", async ({ page, context }) => {
  await page.goto("/");
  const manifest = await page.request.get("/manifest.webmanifest");
  expect(manifest.ok()).toBe(true);
  expect(await manifest.json()).toMatchObject({ name: "Fawn", display: "standalone" });

  // The service worker installs, precaches, and takes control of this page.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
  await expect(page.getByRole("status")).toContainText("works offline");

  await chatThenReopenOffline(page, context);
  await expect(assistantMessages(page)).toContainText("Hello! I am Fawn's mock model.");
  // The agent worker itself came from the precache: the page can still talk to it.
  await page.getByRole("button", { name: "New thread" }).click();
  await expect(page.getByRole("heading", { name: "What can I do for you?" })).toBeVisible();
  await context.setOffline(false);
});

test("python3's standard library works offline once idle caching has finished: Pyodide is cached from our origin", async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await page.goto("/");
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
  // Not in the install download: the idle-time request caches it, before any python3 ran.
  await lazyPartsCached(page);
  const cached = await cachedPaths(page);
  expect(cached.precache).not.toContain("/pyodide/pyodide.asm.wasm");
  expect(cached.lazy).toEqual(expect.arrayContaining(["/pyodide/pyodide.asm.wasm", "/pyodide/python_stdlib.zip"]));

  await configureEndpoint(page);
  await send(page, "hello");
  // The reply, not only the Send button: right after the click Send may still show, before the run has begun.
  await expect(assistantMessages(page)).toContainText("answer from a script.");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await context.setOffline(true);
  await page.reload();
  await page.getByRole("navigation", { name: "Threads" }).getByRole("link", { name: "hello" }).click();
  await openTerminal(page);
  await runInTerminal(page, `python3 -c "import json, statistics; print(json.dumps(statistics.mean([1, 2, 6])))"`);
  await expect(rowsReading(page, "3")).toHaveCount(1, { timeout: 60_000 });
  await context.setOffline(false);
});

test("a diagram and a PDF's Markdown copy work offline once idle caching has finished, never used before", async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await page.goto("/");
  await configureEndpoint(page);
  const OUTPUTS = "/mnt/user-data/outputs";
  // Written by bash, whose step shows the command as text: a write_file step of a .md shows its content as Markdown,
  // which would draw the diagram (and fetch mermaid) on this page.
  await send(
    page,
    callTool("bash", {
      command: "printf '# Flow\\n\\n```mermaid\\nflowchart LR\\n  A --> B\\n```\\n' > " + `${OUTPUTS}/flow.md`,
    }),
  );
  await runEnded(page);
  await send(page, callTool("present_files", { filepaths: [`${OUTPUTS}/flow.md`] }));
  await runEnded(page);
  await lazyPartsCached(page);
  // Neither mermaid nor pdfjs was used by this page: offline, only the idle-time caching can serve them.
  expect(await fetched(page, "mermaid.core")).toBe(false);
  expect(await fetched(page, "pdf-to-markdown")).toBe(false);
  const cached = await cachedPaths(page);
  expect(cached.precache.some((path) => path.includes("mermaid.core"))).toBe(false);
  expect(cached.lazy.some((path) => path.includes("mermaid.core"))).toBe(true);
  expect(cached.lazy.some((path) => path.includes("pdf-parser.worker"))).toBe(true);

  await context.setOffline(true);
  try {
    await page.reload();
    await page.getByRole("navigation", { name: "Threads" }).getByRole("link").first().click();
    const preview = await openPreview(page, "flow.md");
    await expect(preview.locator(".mermaid-diagram svg")).toBeVisible({ timeout: 30_000 });
    await preview.getByRole("button", { name: "Close preview" }).click();

    // A PDF sent offline is converted in the agent worker (pdfjs and its worker) before the model is tried.
    await page.getByLabel("Attach files").setInputFiles("test/fixtures/documents/summary.pdf");
    await send(page, "here is the summary");
    // The upload is stored (and converted) before the model is tried: offline, the run ends on the model's sentence.
    // The Uploads dialog lists what is stored when it opens.
    await expect(conversation(page).getByRole("alert")).toContainText("Could not reach the model endpoint");
    await page.getByRole("button", { name: "Thread actions" }).click();
    await page.getByRole("menuitem", { name: "Uploads" }).click();
    const uploads = page.getByRole("dialog", { name: "Uploads" }).getByRole("list", { name: "Uploads" });
    await expect(uploads.getByRole("listitem").filter({ hasText: "summary.pdf" })).toContainText(
      "Also as Markdown: summary.md",
      { timeout: 30_000 },
    );
  } finally {
    await context.setOffline(false);
  }
});

test.describe("with Save-Data on", () => {
  // The page asks for no download the user did not ask for: the lazy groups are cached on first use only.
  test.beforeEach(async ({ context }) => {
    await context.addInitScript(() =>
      Object.defineProperty(navigator, "connection", { value: { saveData: true, effectiveType: "4g" } }),
    );
  });

  test("nothing is cached ahead, and a diagram drawn once is drawn again offline", async ({ page, context }) => {
    test.setTimeout(120_000);
    await page.goto("/");
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    await configureEndpoint(page);
    await send(page, "draw a diagram");
    await runEnded(page);
    await expect(assistantMessages(page).last().locator(".mermaid-diagram svg")).toBeVisible();
    // Past the page's wait for an idle moment (3 s after load): still nothing but what was used.
    await page.waitForTimeout(5000);
    expect(await page.evaluate((mark) => performance.getEntriesByName(mark).length, LAZY_PARTS_CACHED_MARK)).toBe(0);
    const cached = await cachedPaths(page);
    expect(cached.lazy.some((path) => path.includes("mermaid.core"))).toBe(true);
    expect(cached.lazy.some((path) => path.startsWith("/pyodide/"))).toBe(false);

    await context.setOffline(true);
    try {
      await page.reload();
      await page.getByRole("navigation", { name: "Threads" }).getByRole("link").first().click();
      await expect(assistantMessages(page).last().locator(".mermaid-diagram svg")).toBeVisible({ timeout: 30_000 });
    } finally {
      await context.setOffline(false);
    }
  });
});

/**
 * A static host for the built app on a port of its own, whose files the test can replace to publish "a new build": the
 * same headers as `vite preview` (cross-origin isolation), and a long `max-age` on Pyodide's files, as a host may send.
 */
async function host(dist: string) {
  const replaced = new Map<string, Buffer>();
  const types: Record<string, string> = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
  };
  const read = (path: string) => replaced.get(path) ?? readFileSync(join(dist, path));
  const server = createServer((request, response) => {
    let path = decodeURIComponent(new URL(request.url ?? "/", "http://host").pathname);
    if (path.endsWith("/")) path += "index.html";
    let body: Buffer;
    try {
      body = read(path);
    } catch {
      response.statusCode = 404;
      response.end();
      return;
    }
    response.setHeader("Content-Type", types[extname(path)] ?? "application/octet-stream");
    response.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    response.setHeader("Cross-Origin-Embedder-Policy", "credentialless");
    response.setHeader("Cache-Control", path.startsWith("/pyodide/") ? "max-age=3600" : "no-cache");
    response.end(body);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    read: (path: string) => read(path).toString("utf8"),
    replace: (path: string, text: string) => replaced.set(path, Buffer.from(text)),
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

// The update comes to a page that was not yet controlled when it loaded (the first visit, left open).
test("an update replaces a changed lazy file and keeps serving the right files, offline too", async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const site = await host(resolve(process.env.E2E_DIST ?? "dist"));
  try {
    await page.goto(`${site.origin}/`);
    await lazyPartsCached(page);
    const LOCK = "/pyodide/pyodide-lock.json";
    const lock = () => page.evaluate(async (url) => (await (await fetch(url)).json()) as { fawn_build?: number }, LOCK);
    expect((await lock()).fawn_build).toBeUndefined();

    // The next build: Pyodide's lock file changed (same name, new revision) and so did index.html.
    const worker = site.read("/service-worker.js");
    const entry = /\{"lazy":"python","revision":"([0-9a-f]+)","url":"pyodide\/pyodide-lock\.json"\}/.exec(worker);
    expect(entry, "the lock file's entry in the built manifest").not.toBeNull();
    const oldRevision = entry![1]!;
    site.replace(LOCK, site.read(LOCK).replace("{", '{"fawn_build":2,'));
    site.replace("/index.html", site.read("/index.html").replace("<head>", "<head><!-- build 2 -->"));
    const indexEntry = /\{"revision":"([0-9a-f]+)","url":"index\.html"\}/.exec(worker);
    expect(indexEntry, "index.html's entry in the built manifest").not.toBeNull();
    site.replace(
      "/service-worker.js",
      worker
        .replace(entry![0], entry![0].replace(oldRevision, "2".repeat(32)))
        .replace(indexEntry![0], indexEntry![0].replace(indexEntry![1]!, "3".repeat(32))),
    );

    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    await expect(page.getByRole("alert")).toContainText("A new version of Fawn is ready.", { timeout: 60_000 });
    await page.getByRole("button", { name: "Reload" }).click();
    // The new worker takes over and the page reloads itself (workbox-window), from the new precache.
    await expect
      .poll(() => page.evaluate(() => document.head.innerHTML).catch(() => ""), { timeout: 60_000 })
      .toContain("<!-- build 2 -->");
    expect((await lock()).fawn_build).toBe(2);
    await lazyPartsCached(page);
    const keys = await page.evaluate(
      async (name) => (await (await caches.open(name)).keys()).map((request) => request.url),
      LAZY_CACHE,
    );
    expect(keys.filter((key) => key.includes("pyodide-lock.json"))).toEqual([
      `${site.origin}${LOCK}?__WB_REVISION__=${"2".repeat(32)}`,
    ]);

    await context.setOffline(true);
    expect((await lock()).fawn_build).toBe(2);
  } finally {
    await context.setOffline(false);
    await site.close();
  }
});
