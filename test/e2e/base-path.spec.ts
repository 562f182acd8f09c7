// Fawn served from a folder of a site (built with `--base=/fawn/`): it loads there, installs its service worker for
// that folder, opens offline, chats with the mock model, and its share links point there; nothing asks the site's root.
import { expect, test } from "@playwright/test";
import { BASE_APP_PORT, BASE_PATH } from "../../playwright.config.ts";
import { chatThenReopenOffline } from "./fixtures.ts";

const APP_URL = `http://127.0.0.1:${BASE_APP_PORT}${BASE_PATH}`;

test.use({ baseURL: APP_URL, serviceWorkers: "allow" });

test("built for /fawn/, Fawn loads there, installs for that folder, chats, and opens offline", async ({
  page,
  context,
}) => {
  const outside: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.port === String(BASE_APP_PORT) && !url.pathname.startsWith(BASE_PATH)) outside.push(url.pathname);
  });
  await page.goto(APP_URL);
  await expect(page.getByRole("button", { name: "New thread" })).toBeVisible();

  // The installed app starts, and stays, in its folder.
  const manifest = await page.request.get(`${APP_URL}manifest.webmanifest`);
  const {
    start_url: start,
    scope,
    file_handlers: fileHandlers,
    share_target: shareTarget,
  } = (await manifest.json()) as {
    start_url: string;
    scope: string;
    file_handlers: { action: string }[];
    share_target: { action: string };
  };
  expect(new URL(start, manifest.url()).pathname).toBe(BASE_PATH);
  expect(new URL(scope, manifest.url()).pathname).toBe(BASE_PATH);
  // Opened .fawn files and shared ones arrive in the folder too.
  expect(new URL(fileHandlers[0]!.action, manifest.url()).pathname).toBe(BASE_PATH);
  expect(new URL(shareTarget.action, manifest.url()).pathname).toBe(`${BASE_PATH}share-target`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
  const registered = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.scope);
  expect(registered).toBe(APP_URL);
  // The sidebar's logo is there (it used to be asked of the site's root).
  const logo = page.locator(".sidebar img").first();
  expect(await logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);

  await chatThenReopenOffline(page, context);
  await context.setOffline(false);
  // A share link points at the folder.
  await page.getByRole("button", { name: "Thread actions" }).click();
  await page.getByRole("menuitem", { name: "Share link" }).click();
  await expect(page.getByRole("textbox", { name: "Share link" })).toHaveValue(new RegExp(`^${APP_URL}#share=`));
  expect(outside).toEqual([]);
});
