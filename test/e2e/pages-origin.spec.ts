// A GitHub Pages project site shares its origin with the owner's other Pages sites: served at
// https://alice.github.io/fawn/, the real app (the /fawn/ build) warns once, with a link to the README section, and
// the dismissal is remembered; at a user site's root (https://alice.github.io/, the / build) and on a custom domain
// it says nothing. No github.io host can be served here, so the browser's requests for those addresses are answered
// by the local preview servers (Playwright routes them); the page's origin and path are the real ones.
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { BASE_APP_PORT, BASE_PATH } from "../../playwright.config.ts";
import { expectNoA11yViolations } from "./fixtures.ts";

const APP_PORT = Number(process.env.E2E_APP_PORT ?? 4173);
const NOTICE = /shares its address, https:\/\/alice\.github\.io, with every other Pages site of alice/;

// The service worker would answer from its own cache, out of the routes' reach; the notice does not depend on it.
test.use({ serviceWorkers: "block" });
// Requests still in flight when a test ends (the agent worker's chunks) are let go, not reported.
test.afterEach(async ({ context }) => {
  await context.unrouteAll({ behavior: "ignoreErrors" });
});

/** Answers every request for `origin` from the preview server on `port` (same path and query). */
async function serve(context: BrowserContext, origin: string, port: number): Promise<void> {
  await context.route(`${origin}/**`, async (route) => {
    const url = new URL(route.request().url());
    const response = await route.fetch({ url: `http://127.0.0.1:${String(port)}${url.pathname}${url.search}` });
    await route.fulfill({ response });
  });
}

async function appShown(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "New thread" })).toBeVisible();
}

test("a project site at alice.github.io/fawn/ warns once that its origin is shared, with the README's way out", async ({
  page,
  context,
}) => {
  await serve(context, "https://alice.github.io", BASE_APP_PORT);
  await page.goto(`https://alice.github.io${BASE_PATH}`);
  await appShown(page);
  const notice = page.getByRole("alert").filter({ hasText: NOTICE });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText("Any of those sites can read what Fawn keeps in this browser, your API keys");
  await expect(notice.getByRole("link", { name: "How to give Fawn an address of its own" })).toHaveAttribute(
    "href",
    "https://github.com/alice/fawn#github-pages-give-fawn-an-origin-of-its-own",
  );
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoA11yViolations(page, `the shared-origin notice (${scheme})`);
  }

  await notice.getByRole("button", { name: "Dismiss" }).click();
  await expect(notice).toBeHidden();
  await page.reload();
  await appShown(page);
  await expect(page.getByRole("alert").filter({ hasText: NOTICE })).toHaveCount(0);
});

test("a user site at alice.github.io/ and a custom domain show no such notice", async ({ page, context }) => {
  await serve(context, "https://alice.github.io", APP_PORT);
  await serve(context, "https://fawn.example.com", BASE_APP_PORT);
  for (const address of ["https://alice.github.io/", `https://fawn.example.com${BASE_PATH}`]) {
    await page.goto(address);
    await appShown(page);
    await expect(page.getByText("How to give Fawn an address of its own")).toHaveCount(0);
    await expect(page.getByText(/GitHub Pages project site/)).toHaveCount(0);
  }
});
