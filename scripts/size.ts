// `npm run size`: gzip sizes of what the page loads first and of the agent worker; fails over budget.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSize, initialFiles, workerFiles } from "./dist-graph.ts";

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
if (failed) {
  console.error("\nA size budget is exceeded (size-budgets.json). Lazy-load the new code, or move it into the worker.");
  process.exit(1);
}
