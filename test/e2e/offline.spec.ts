// The installable PWA: a manifest, a service worker that precaches the app, and the app working offline.
import { expect, test } from "@playwright/test";
import {
  assistantMessages,
  chatThenReopenOffline,
  configureEndpoint,
  openTerminal,
  rowsReading,
  runInTerminal,
  send,
} from "./fixtures.ts";

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

test("python3's standard library works offline: Pyodide is precached from our own origin", async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  await page.goto("/");
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });
  expect(cached).toEqual(expect.arrayContaining(["/pyodide/pyodide.asm.wasm", "/pyodide/python_stdlib.zip"]));

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
