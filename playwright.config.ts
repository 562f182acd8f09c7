import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

// End-to-end tests: the built app (vite preview) and the scripted mock model, in Debian's Chromium.
// Never downloads a browser: CHROME_PATH, or /usr/bin/chromium.
const chromePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromePath)) {
  throw new Error(
    `No Chromium at ${chromePath}. Install it (Debian: apt-get install -y chromium) or set CHROME_PATH to a Chrome/Chromium binary.`,
  );
}

const APP_PORT = Number(process.env.E2E_APP_PORT ?? 4173);
export const MOCK_PORT = Number(process.env.E2E_MOCK_PORT ?? 11436);
/** The app built for another base path (`vite build --base=/fawn/`), as a site serving it under a folder would. */
export const BASE_PATH = "/fawn/";
export const BASE_APP_PORT = Number(process.env.E2E_BASE_APP_PORT ?? 4175);
// Where the two builds are served from: several checkouts' (or helpers') runs side by side each use their own.
const APP_DIST = process.env.E2E_DIST ?? "dist";
const BASE_DIST = process.env.E2E_BASE_DIST ?? "dist-base";

export default defineConfig({
  testDir: "test/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  // Under CI one retry: two browsers, the servers and the mock on 2 cores make rare timing failures, and one sinks a
  // landing. A test that passes only on its retry is reported as flaky by name (scripts/test-summary.ts), to be fixed.
  retries: process.env.CI ? 1 : 0,
  // A CI machine runs two browsers, the app server and the mock on 2 cores: a run that takes 3 s here can take 12 s
  // there, so waits are longer under CI. A passing test never waits for a timeout, so this costs nothing.
  timeout: process.env.CI ? 90_000 : 45_000,
  expect: { timeout: process.env.CI ? 25_000 : 10_000 },
  reporter: [["list"], ["json", { outputFile: "reports/e2e.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${APP_PORT}`,
    browserName: "chromium",
    // No service worker unless a test is about it. Installing one fetches and stores the whole precache in every new
    // context, which costs about a third of a short test's time on 2 cores. The specs about offline use, updates, the
    // share target, a folder base path and what the worker may fetch turn it back on (test.use serviceWorkers: "allow").
    serviceWorkers: "block",
    // A trace on the retry of a failed test only: recording one (its screencast above all) takes about half again as
    // much CPU as the test itself, and every test paid that for the rare one that failed.
    trace: "on-first-retry",
    launchOptions: {
      executablePath: chromePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: [
    {
      command: `npx vite preview --outDir ${APP_DIST} --host 127.0.0.1 --port ${APP_PORT} --strictPort`,
      url: `http://127.0.0.1:${APP_PORT}`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
    {
      // Its own build (dist-base/), made here so `npm test`'s one `vite build` stays the app as served at /.
      command:
        `npx vite build --base=${BASE_PATH} --outDir ${BASE_DIST} --emptyOutDir --logLevel warn && ` +
        `npx vite preview --base ${BASE_PATH} --outDir ${BASE_DIST} --host 127.0.0.1 --port ${BASE_APP_PORT} --strictPort`,
      url: `http://127.0.0.1:${BASE_APP_PORT}${BASE_PATH}`,
      reuseExistingServer: !process.env.CI,
      timeout: 240_000,
    },
    {
      command: "npx tsx test/mock-llm/cli.ts",
      url: `http://127.0.0.1:${MOCK_PORT}/v1/models`,
      env: { MOCK_LLM_PORT: String(MOCK_PORT), MOCK_LLM_HOST: "127.0.0.1" },
      reuseExistingServer: !process.env.CI,
      timeout: 30_000,
    },
  ],
});
