// Runs the storage contract (src/storage/storage-contract.ts) against Chromium's real IndexedDB: builds the page in
// this folder, serves it on STORAGE_CONTRACT_PORT, runs every check in /usr/bin/chromium and prints one line per
// check, and its counts to reports/storage-browser.json; exits 1 when one fails. `npx tsx test/storage-browser/run.ts`
// (part of `npm run test:storage`).
import { chromium } from "@playwright/test";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build, preview } from "vite";
import type { ContractResult } from "./main.ts";

const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
// Its own port, apart from the benchmarks and the e2e tests.
const PORT = Number(process.env.STORAGE_CONTRACT_PORT ?? 4186);
const configFile = fileURLToPath(new URL("vite.config.ts", import.meta.url));

await build({ configFile });
const server = await preview({ configFile, preview: { host: "127.0.0.1", port: PORT, strictPort: true } });
let results: ContractResult[];
try {
  const browser = await chromium.launch({ executablePath: CHROME });
  try {
    const page = await browser.newPage();
    page.on("console", (message) => console.log(`  page: ${message.text()}`));
    await page.goto(`http://127.0.0.1:${PORT}/`);
    await page.waitForFunction(() => typeof window.fawnStorageContract === "function");
    results = await page.evaluate(() => window.fawnStorageContract());
  } finally {
    await browser.close();
  }
} finally {
  await server.close();
}

for (const result of results)
  console.log(`${result.error ? "✗" : "✓"} ${result.name}${result.error ? `\n    ${result.error}` : ""}`);
const failed = results.filter((result) => result.error).length;
console.log(`Storage contract in Chromium's IndexedDB: ${results.length - failed} passed, ${failed} failed.`);
// For `npm test`'s closing line (scripts/test-summary.ts).
mkdirSync("reports", { recursive: true });
writeFileSync("reports/storage-browser.json", JSON.stringify({ passed: results.length - failed, failed }));
if (failed > 0 || results.length === 0) process.exitCode = 1;
