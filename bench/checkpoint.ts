// Bytes and time per checkpoint step for a growing agent thread: IndexedDbCheckpointSaver (fake-indexeddb under
// Node) beside what MemorySaver's serde writes per put (the whole checkpoint incl. channel values, plus metadata),
// and LangGraph's SqliteSaver (file growth) when its optional dependency is installed.
// Prints numbers only; nothing here is a timed assertion (docs/architecture.md#d10-tests).
import "fake-indexeddb/auto";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  MemorySaver,
  emptyCheckpoint,
  uuid6,
  type ChannelVersions,
  type Checkpoint,
} from "@langchain/langgraph-checkpoint";
import { deleteDB } from "idb";
import { IndexedDbCheckpointSaver } from "../src/storage/index.ts";
import type { SqliteSaver as SqliteSaverType } from "@langchain/langgraph-checkpoint-sqlite";

type SqliteSaverClass = typeof SqliteSaverType;

const TOOL_OUTPUT = Array.from(
  { length: 8 },
  (_, i) => `drwxr-xr-x  2 user user 4096 Jan ${i + 1} 12:00 dir-${i}`,
).join("\n");

/** The i-th message of a realistic agent thread: question, tool call, tool result, answer, repeated. */
function message(i: number): BaseMessage {
  const turn = Math.floor(i / 4);
  switch (i % 4) {
    case 0:
      return new HumanMessage({
        content: `Turn ${turn}: list the workspace and summarise what is there.`,
        id: `h${turn}`,
      });
    case 1:
      return new AIMessage({
        content: "",
        id: `a${turn}`,
        tool_calls: [
          { id: `call_${turn}`, name: "bash", args: { cmd: "ls -la /mnt/user-data/workspace" }, type: "tool_call" },
        ],
        usage_metadata: { input_tokens: 1200 + i, output_tokens: 24, total_tokens: 1224 + i },
      });
    case 2:
      return new ToolMessage({ content: TOOL_OUTPUT, tool_call_id: `call_${turn}`, name: "bash", id: `t${turn}` });
    default:
      return new AIMessage({
        content: `The workspace holds eight directories (dir-0 … dir-7), each empty and created on consecutive days.`,
        id: `r${turn}`,
        usage_metadata: { input_tokens: 1400 + i, output_tokens: 30, total_tokens: 1430 + i },
      });
  }
}

interface Row {
  steps: number;
  idbAvg: number;
  idbLast: number;
  idbMs: number;
  memAvg: number;
  memLast: number;
  memMs: number;
}

/** The checkpoint LangGraph writes after step `i` of an agent thread, and the channel versions that step changed. */
function stepCheckpoint(i: number, messages: BaseMessage[]): { checkpoint: Checkpoint; newVersions: ChannelVersions } {
  const node = i % 4 === 2 ? "tools" : "model_request";
  const newVersions = { messages: i + 1, [`branch:to:${node}`]: i + 1 };
  const checkpoint: Checkpoint = {
    ...emptyCheckpoint(),
    id: uuid6(-1),
    channel_values: { messages, [`branch:to:${node}`]: null },
    channel_versions: newVersions,
    versions_seen: { [node]: { messages: i } },
  };
  return { checkpoint, newVersions };
}

async function run(steps: number): Promise<Row> {
  const dbName = `bench-checkpoint-${steps}`;
  let written = 0;
  const saver = new IndexedDbCheckpointSaver({ dbName, onWrite: ({ bytes }) => (written += bytes) });
  const memory = new MemorySaver();
  let idbConfig: RunnableConfig = { configurable: { thread_id: "bench" } };
  let memConfig: RunnableConfig = { configurable: { thread_id: "bench" } };
  let messages: BaseMessage[] = [];
  let idbBytes = 0;
  let idbLast = 0;
  let idbMs = 0;
  let memBytes = 0;
  let memLast = 0;
  let memMs = 0;
  for (let i = 0; i < steps; i++) {
    messages = [...messages, message(i)];
    const { checkpoint, newVersions } = stepCheckpoint(i, messages);
    const metadata = { source: "loop" as const, step: i, parents: {} };

    written = 0;
    let start = performance.now();
    idbConfig = await saver.put(idbConfig, checkpoint, metadata, newVersions);
    idbMs += performance.now() - start;
    idbBytes += written;
    idbLast = written;

    start = performance.now();
    memConfig = await memory.put(memConfig, checkpoint, metadata);
    memMs += performance.now() - start;
    const [[, checkpointBytes], [, metadataBytes]] = await Promise.all([
      memory.serde.dumpsTyped(checkpoint),
      memory.serde.dumpsTyped(metadata),
    ]);
    memLast = checkpointBytes.byteLength + metadataBytes.byteLength;
    memBytes += memLast;
  }
  const latest = await saver.getTuple({ configurable: { thread_id: "bench" } });
  if ((latest?.checkpoint.channel_values.messages as unknown[]).length !== steps) throw new Error("read-back mismatch");
  await saver.close();
  await deleteDB(dbName);
  return {
    steps,
    idbAvg: idbBytes / steps,
    idbLast,
    idbMs: idbMs / steps,
    memAvg: memBytes / steps,
    memLast,
    memMs: memMs / steps,
  };
}

/** The same thread through LangGraph's SqliteSaver (an optional dependency), measured by the file's growth. */
async function runSqlite(steps: number): Promise<SqliteRow | undefined> {
  let SqliteSaver: SqliteSaverClass;
  try {
    ({ SqliteSaver } = await import("@langchain/langgraph-checkpoint-sqlite"));
  } catch {
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), "fawn-bench-sqlite-"));
  const file = join(dir, "checkpoints.db");
  const saver = SqliteSaver.fromConnString(file);
  let config: RunnableConfig = { configurable: { thread_id: "bench" } };
  let messages: BaseMessage[] = [];
  let ms = 0;
  let before = 0;
  let last = 0;
  let first = -1;
  for (let i = 0; i < steps; i++) {
    messages = [...messages, message(i)];
    const { checkpoint } = stepCheckpoint(i, messages);
    const start = performance.now();
    config = await saver.put(config, checkpoint, { source: "loop", step: i, parents: {} });
    ms += performance.now() - start;
    const size = fileSize(file) + fileSize(`${file}-wal`);
    if (first < 0) first = size;
    last = size - before;
    before = size;
  }
  rmSync(dir, { recursive: true, force: true });
  return { steps, avg: (before - first) / Math.max(steps - 1, 1), last, ms: ms / steps };
}

function fileSize(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

interface SqliteRow {
  steps: number;
  avg: number;
  last: number;
  ms: number;
}

const rows: Row[] = [];
for (const steps of [10, 100, 1000]) rows.push(await run(steps));
const sqliteRows: (SqliteRow | undefined)[] = [];
for (const steps of [10, 100, 1000]) sqliteRows.push(await runSqlite(steps));

const header = [
  "steps",
  "idb bytes/step (avg)",
  "idb bytes (last step)",
  "idb ms/step",
  "MemorySaver bytes/step (avg)",
  "MemorySaver bytes (last step)",
  "MemorySaver ms/step",
];
const table = [
  header,
  ...rows.map((row) => [
    String(row.steps),
    row.idbAvg.toFixed(0),
    String(row.idbLast),
    row.idbMs.toFixed(2),
    row.memAvg.toFixed(0),
    String(row.memLast),
    row.memMs.toFixed(2),
  ]),
];
const widths = header.map((_, col) => Math.max(...table.map((line) => (line[col] as string).length)));
console.log(
  "Checkpoint writes per step, one message appended per step (human / AI tool call / tool result / AI answer)",
);
for (const line of table) console.log(line.map((cell, col) => cell.padStart(widths[col] as number)).join("  "));

console.log(
  "\nThe same thread through LangGraph's SqliteSaver (growth of the database and its WAL file; pages of 4 KB, so one step is coarse)",
);
if (sqliteRows.some((row) => row === undefined)) {
  console.log("SqliteSaver is not installed here (optional dependency @langchain/langgraph-checkpoint-sqlite).");
} else {
  console.log("steps  sqlite bytes/step (avg)  sqlite bytes (last step)  sqlite ms/step");
  for (const row of sqliteRows as SqliteRow[]) {
    console.log(
      `${String(row.steps).padStart(5)}  ${row.avg.toFixed(0).padStart(23)}  ${String(row.last).padStart(24)}  ${row.ms.toFixed(2).padStart(14)}`,
    );
  }
}
