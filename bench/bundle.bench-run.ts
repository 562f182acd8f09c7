// Thread actions → Export as a `.fawn` and its import, for a large thread: 1,000 messages (question, tool call, tool
// result, answer, repeated) and 100 files of 200 KB (20 MB), through the Gateway over fake-indexeddb under Node.
// Prints numbers only; nothing here is a timed assertion (docs/architecture.md#d10-tests). It runs under vitest
// (`npm run bench:bundle`, vitest.bench.config.ts) because the Gateway's shipped skills come through Vite's
// import.meta.glob, which plain Node cannot read.
import "fake-indexeddb/auto";
import { performance } from "node:perf_hooks";
import { it } from "vitest";
import { openGateway } from "../src/gateway/index.ts";
import { formatBytes } from "../src/shared/text.ts";
import { saveBenchResult } from "./report.ts";

const MESSAGES = 1_000;
const FILES = 100;
const FILE_BYTES = 200 * 1024;
const RUNS = 3;

/** DeerFlow's thread.json for the thread: the fastest way in that writes a real checkpoint history. */
function deerFlowThread(): unknown {
  const messages: unknown[] = [];
  for (let i = 0; messages.length < MESSAGES; i++) {
    messages.push({ type: "human", id: `h${i}`, content: `Turn ${i}: list the workspace and summarise it.` });
    messages.push({
      type: "ai",
      id: `c${i}`,
      content: "",
      tool_calls: [{ id: `t${i}`, name: "bash", args: { description: "list", command: "ls -la" }, type: "tool_call" }],
    });
    messages.push({
      type: "tool",
      id: `r${i}`,
      tool_call_id: `t${i}`,
      name: "bash",
      content: "a.txt\nb.txt\n".repeat(20),
    });
    messages.push({ type: "ai", id: `a${i}`, content: `The workspace holds two files, turn ${i}. `.repeat(8) });
  }
  return { values: { title: "A long thread", messages } };
}

function files(): { path: string; bytes: Uint8Array }[] {
  return Array.from({ length: FILES }, (_, i) => {
    const bytes = new Uint8Array(FILE_BYTES);
    // Half text (compresses), half random bytes (does not), as real outputs are.
    if (i % 2)
      for (let at = 0; at < bytes.length; at += 65_536) crypto.getRandomValues(bytes.subarray(at, at + 65_536));
    else for (let j = 0; j < bytes.length; j++) bytes[j] = 97 + (j % 26);
    return { path: `user-data/outputs/file-${i}.${i % 2 ? "bin" : "txt"}`, bytes };
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

it("prints export and import figures for a thread of 1,000 messages and 100 files", async () => {
  const gateway = await openGateway("bench-bundle");
  const thread = await gateway.threads.importDeerFlow({ thread: deerFlowThread(), files: files() });
  const exports: number[] = [];
  const imports: number[] = [];
  let bytes = 0;
  for (let run = 0; run < RUNS; run++) {
    let started = performance.now();
    const bundle = await gateway.bundles.export(thread.thread_id, "fawn");
    exports.push(performance.now() - started);
    bytes = bundle.blob.size;
    started = performance.now();
    const copy = await gateway.bundles.import(bundle.blob);
    imports.push(performance.now() - started);
    await gateway.threads.delete(copy.thread_id);
  }
  const detail = await gateway.threads.get(thread.thread_id);
  saveBenchResult({
    name: "bundle",
    title: "Thread bundles (.fawn)",
    command: "npm run bench:bundle",
    about:
      `Thread actions → Export as a \`.fawn\` and its import, for a thread of ${detail?.entries.length} messages ` +
      `(question, tool call, tool result, answer) and ${FILES} files of ${formatBytes(FILE_BYTES)}, half text and ` +
      `half random bytes, through the Gateway over fake-indexeddb under Node (vitest), ${RUNS} runs. Import checks ` +
      "each member's CRC-32 and loads the thread's whole checkpoint history before it writes, in one transaction.",
    goals: [],
    tables: [
      {
        title: `Export and import (median of ${RUNS})`,
        columns: ["operation", "median ms"],
        rows: [
          ["export as .fawn", median(exports).toFixed(0)],
          ["import the .fawn (checked whole, one transaction)", median(imports).toFixed(0)],
          [".fawn size", formatBytes(bytes)],
        ],
      },
    ],
  });
}, 600_000);
