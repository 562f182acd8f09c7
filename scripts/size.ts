// `npm run size`: gzip sizes of what the page loads first, of the workers, and of the service worker's install download
// (its precache); fails over budget.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DIST, gzipSize, initialFiles, workerFiles } from "./dist-graph.ts";
import { injectedManifest } from "./precache-groups.ts";

interface Budget {
  name: string;
  files: string[];
  maxGzipBytes: number;
}

const budgets = JSON.parse(readFileSync(join(process.cwd(), "size-budgets.json"), "utf8")) as Record<string, number>;

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

const groups: Budget[] = [
  {
    name: "initial (index.html and what it loads before the worker)",
    files: ["index.html", ...initialFiles()],
    maxGzipBytes: budgets.initial ?? 0,
  },
  { name: "agent worker", files: workerFiles(), maxGzipBytes: budgets.worker ?? 0 },
  // just-bash and the sandbox service; Pyodide itself (dist/pyodide/, ~13 MB) loads only when python3 first runs.
  { name: "sandbox worker", files: workerFiles("sandbox"), maxGzipBytes: budgets.sandboxWorker ?? 0 },
  { name: "python worker (without Pyodide)", files: workerFiles("python"), maxGzipBytes: budgets.pythonWorker ?? 0 },
];

// The install download: what the service worker precaches, its manifest's entries without the lazy groups (diagrams,
// PDF reading, Python), which are cached on first use or in idle time after a visit (scripts/precache-groups.ts).
const manifest = injectedManifest(readFileSync(join(DIST, "service-worker.js"), "utf8"));
const precached = manifest.filter((entry) => entry.lazy === undefined).map((entry) => entry.url);
const lazy = manifest.filter((entry) => entry.lazy !== undefined);

let failed = false;
for (const group of groups) {
  console.log(`\n${group.name}`);
  let total = 0;
  for (const file of group.files) {
    const size = gzipSize(file);
    total += size;
    console.log(`  ${file.padEnd(48)} ${kb(size).padStart(10)} gzip`);
  }
  const over = total > group.maxGzipBytes;
  failed ||= over;
  console.log(
    `  ${"total".padEnd(48)} ${kb(total).padStart(10)} gzip   budget ${kb(group.maxGzipBytes)}  ${over ? "OVER BUDGET" : "ok"}`,
  );
}

// Files one by one would be 150 lines: the total, the largest files, and what the lazy groups hold.
const precacheSizes = precached.map((file) => ({ file, size: gzipSize(file) })).sort((a, b) => b.size - a.size);
const precacheTotal = precacheSizes.reduce((sum, entry) => sum + entry.size, 0);
const precacheBudget = budgets.precache ?? 0;
console.log(`\nservice worker precache (the install download), ${precached.length} files; the largest:`);
for (const { file, size } of precacheSizes.slice(0, 8))
  console.log(`  ${file.padEnd(48)} ${kb(size).padStart(10)} gzip`);
const precacheOver = precacheTotal > precacheBudget;
failed ||= precacheOver;
console.log(
  `  ${"total".padEnd(48)} ${kb(precacheTotal).padStart(10)} gzip   budget ${kb(precacheBudget)}  ${precacheOver ? "OVER BUDGET" : "ok"}`,
);
console.log("\nlazy groups (cached on first use or in idle time, not budgeted)");
for (const name of new Set(lazy.map((entry) => entry.lazy))) {
  const files = lazy.filter((entry) => entry.lazy === name).map((entry) => entry.url.split("?")[0]!);
  const total = files.reduce((sum, file) => sum + gzipSize(file), 0);
  console.log(`  ${`${name} (${files.length} files)`.padEnd(48)} ${kb(total).padStart(10)} gzip`);
}

if (failed) {
  console.error(
    "\nA size budget is exceeded (size-budgets.json). Lazy-load the new code, move it into the worker, or (the precache)" +
      " into a lazy group (scripts/precache-groups.ts).",
  );
  process.exit(1);
}
