// CPU and bytes per checkpoint step for a growing agent thread, up to step 5,000: IndexedDbCheckpointSaver
// (fake-indexeddb under Node) beside LangGraph's MemorySaver (what its serde writes per put) and SqliteSaver (file
// growth) when its optional dependency is installed. Prints numbers only; nothing here is a timed assertion
// (docs/architecture.md#d10-tests).
import "fake-indexeddb/auto";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  MemorySaver,
  emptyCheckpoint,
  uuid6,
  type BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
} from "@langchain/langgraph-checkpoint";
import type { SqliteSaver as SqliteSaverType } from "@langchain/langgraph-checkpoint-sqlite";
import { deleteDB } from "idb";
import { IndexedDbCheckpointSaver } from "../src/storage/index.ts";
import { stepNode, threadMessage as message } from "./agent-thread.ts";
import { median, saveBenchResult, type BenchGoal } from "./report.ts";

/** Steps at which figures are reported; the thread grows by one message per step up to the last. */
const SAMPLES = (process.env.BENCH_CHECKPOINT_STEPS ?? "100,1000,2000,5000").split(",").map(Number);
const LAST = Math.max(...SAMPLES);
/** Fawn's figure at step N is the mean over steps N-WINDOW+1 … N (GC and the occasional longer step included). */
const WINDOW = 50;
/** Puts an anchor makes at each sample point (the checkpoints of steps N-ANCHOR_PUTS+1 … N). */
const ANCHOR_PUTS = 20;

/** The checkpoint LangGraph writes after step `i` of an agent thread, and the channel versions that step changed. */
function stepCheckpoint(i: number, messages: BaseMessage[]): { checkpoint: Checkpoint; newVersions: ChannelVersions } {
  const node = stepNode(i);
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

const metadataOf = (i: number) => ({ source: "loop" as const, step: i, parents: {} });

/** CPU time (user + system, all threads: GC included) in ms since `start`. */
function cpuMs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);

interface FawnRow {
  step: number;
  cpu: number;
  wallMedian: number;
  bytes: number;
  bytesLast: number;
  readMs: number;
}

/** One thread through IndexedDbCheckpointSaver up to step LAST, as an agent run writes it: one put per step. */
/** Steps of a throwaway thread written first, so the JIT has compiled the saver before step 1 is measured. */
const WARM_UP_STEPS = 300;

async function warmUp(): Promise<void> {
  const dbName = "bench-checkpoint-warm-up";
  const saver = new IndexedDbCheckpointSaver({ dbName });
  let config: RunnableConfig = { configurable: { thread_id: "warm-up" } };
  let messages: BaseMessage[] = [];
  for (let i = 0; i < WARM_UP_STEPS; i++) {
    messages = [...messages, message(i)];
    const { checkpoint, newVersions } = stepCheckpoint(i, messages);
    config = await saver.put(config, checkpoint, metadataOf(i), newVersions);
  }
  await saver.getTuple({ configurable: { thread_id: "warm-up" } });
  await saver.close();
  await deleteDB(dbName);
}

async function runFawn(): Promise<FawnRow[]> {
  await warmUp();
  const dbName = "bench-checkpoint";
  await deleteDB(dbName);
  let written = 0;
  const saver = new IndexedDbCheckpointSaver({ dbName, onWrite: ({ bytes }) => (written += bytes) });
  let config: RunnableConfig = { configurable: { thread_id: "bench" } };
  let messages: BaseMessage[] = [];
  const cpu: number[] = [];
  const wall: number[] = [];
  const bytes: number[] = [];
  const rows: FawnRow[] = [];
  for (let i = 0; i < LAST; i++) {
    messages = [...messages, message(i)];
    const { checkpoint, newVersions } = stepCheckpoint(i, messages);
    written = 0;
    const started = process.cpuUsage();
    const wallStart = performance.now();
    config = await saver.put(config, checkpoint, metadataOf(i), newVersions);
    wall.push(performance.now() - wallStart);
    cpu.push(cpuMs(started));
    bytes.push(written);
    const step = i + 1;
    if (!SAMPLES.includes(step)) continue;
    // Opening the thread after a reload: a new saver (nothing cached) reads the newest checkpoint; median of 3.
    const reads: number[] = [];
    for (let read = 0; read < 3; read++) {
      const reader = new IndexedDbCheckpointSaver({ dbName });
      const readStart = performance.now();
      const latest = await reader.getTuple({ configurable: { thread_id: "bench" } });
      reads.push(performance.now() - readStart);
      await reader.close();
      const back = latest?.checkpoint.channel_values.messages as BaseMessage[] | undefined;
      if (back?.length !== step || back[step - 1]?.id !== messages[step - 1]?.id) throw new Error("read-back mismatch");
    }
    const readMs = median(reads) ?? 0;
    rows.push({
      step,
      cpu: mean(cpu.slice(-WINDOW)),
      wallMedian: median(wall.slice(-WINDOW)) ?? 0,
      bytes: mean(bytes.slice(-WINDOW)),
      bytesLast: written,
      readMs,
    });
    console.log(
      `fawn step ${step}: ${rows.at(-1)?.cpu.toFixed(2)} ms CPU/step, ${rows.at(-1)?.bytes.toFixed(0)} B/step, read ${readMs.toFixed(0)} ms`,
    );
  }
  await saver.close();
  await deleteDB(dbName);
  return rows;
}

interface AnchorRow {
  step: number;
  cpu: number;
  bytes: number;
}

/**
 * An anchor's CPU and bytes per put at each sample step: the checkpoints of the ANCHOR_PUTS steps up to it, put into a
 * fresh saver. Their put serializes the whole checkpoint, so its cost depends on the checkpoint's size, not on the
 * checkpoints before it; this keeps the anchors' run short.
 */
async function runAnchor(
  make: () => { saver: BaseCheckpointSaver; bytes: () => Promise<number>; done: () => Promise<void> },
): Promise<AnchorRow[]> {
  const all = Array.from({ length: LAST }, (_, i) => message(i));
  const rows: AnchorRow[] = [];
  for (const step of SAMPLES) {
    const { saver, bytes, done } = make();
    let config: RunnableConfig = { configurable: { thread_id: "bench" } };
    let cpu = 0;
    const first = Math.max(step - ANCHOR_PUTS, 0);
    // The thread's earlier steps are not written: only the checkpoint put at each step is measured.
    const before = await bytes();
    for (let i = first; i < step; i++) {
      const { checkpoint } = stepCheckpoint(i, all.slice(0, i + 1));
      const started = process.cpuUsage();
      config = await saver.put(config, checkpoint, metadataOf(i), {});
      cpu += cpuMs(started);
    }
    rows.push({ step, cpu: cpu / (step - first), bytes: ((await bytes()) - before) / (step - first) });
    await done();
  }
  return rows;
}

function memorySaver() {
  const saver = new MemorySaver();
  return {
    saver,
    // What MemorySaver's serde produces per put: the checkpoint (with its channel values) and the metadata.
    bytes: () =>
      Promise.resolve(
        Object.values(saver.storage)
          .flatMap((namespaces) => Object.values(namespaces))
          .flatMap((checkpoints) => Object.values(checkpoints))
          .reduce((sum, [checkpoint, metadata]) => sum + checkpoint.byteLength + metadata.byteLength, 0),
      ),
    done: () => Promise.resolve(),
  };
}

/** LangGraph's SqliteSaver (an optional dependency), measured by the growth of its database and WAL files. */
async function sqliteFactory() {
  let SqliteSaver: typeof SqliteSaverType;
  try {
    ({ SqliteSaver } = await import("@langchain/langgraph-checkpoint-sqlite"));
  } catch {
    return undefined;
  }
  return () => {
    const dir = mkdtempSync(join(tmpdir(), "fawn-bench-sqlite-"));
    const file = join(dir, "checkpoints.db");
    const saver = SqliteSaver.fromConnString(file);
    return {
      saver,
      bytes: () => Promise.resolve(fileSize(file) + fileSize(`${file}-wal`)),
      done: () => {
        rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  };
}

function fileSize(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

const fawn = await runFawn();
const memory = await runAnchor(memorySaver);
const sqliteMake = await sqliteFactory();
const sqlite = sqliteMake ? await runAnchor(sqliteMake) : undefined;

const ms = (value: number) => `${value.toFixed(2)} ms`;
const bytesText = (value: number) => `${Math.round(value).toLocaleString("en-US")} bytes`;
const at = <T extends { step: number }>(rows: T[] | undefined, step: number) => rows?.find((row) => row.step === step);
const first = fawn[0] as FawnRow;
const last = fawn.at(-1) as FawnRow;
const memFirst = at(memory, first.step) as AnchorRow;
const memLast = at(memory, last.step) as AnchorRow;
const sqlLast = at(sqlite, last.step);
const stepText = last.step.toLocaleString("en-US");
const anchorText = (mem: string, sql: string | undefined) =>
  `${mem} (MemorySaver)${sql === undefined ? "; SqliteSaver not installed" : `, ${sql} (SqliteSaver)`}`;
const growth = last.cpu / first.cpu;
const bytesGrowth = last.bytes / first.bytes;

const goals: BenchGoal[] = [
  {
    measure: `CPU per checkpoint step at step ${stepText} in Node`,
    goal: "≤ 2 ms",
    figure: ms(last.cpu),
    met: last.cpu <= 2,
    anchor: anchorText(ms(memLast.cpu), sqlLast && ms(sqlLast.cpu)),
  },
  {
    measure: `CPU per step growth, step ${first.step} → ${stepText}`,
    goal: "flat (≤ 1.5×)",
    figure: `${growth.toFixed(2)}×`,
    met: growth <= 1.5,
    anchor: anchorText(
      `${(memLast.cpu / memFirst.cpu).toFixed(1)}×`,
      sqlite && `${((sqlLast as AnchorRow).cpu / (at(sqlite, first.step) as AnchorRow).cpu).toFixed(1)}×`,
    ),
  },
  {
    measure: `Bytes written per step at step ${stepText}`,
    goal: `flat (≤ 1.5× step ${first.step})`,
    figure: `${bytesText(last.bytes)} (${bytesGrowth.toFixed(2)}× step ${first.step})`,
    met: bytesGrowth <= 1.5,
    anchor: anchorText(bytesText(memLast.bytes), sqlLast && bytesText(sqlLast.bytes)),
  },
];

saveBenchResult({
  name: "checkpoint",
  title: "Checkpoint writes per agent step",
  command: "npm run bench:checkpoint",
  about: [
    `One agent thread grows by one message per step (a question, a tool call, the tool's result, an answer, repeated) up`,
    `to step ${stepText}; after each step LangGraph puts a checkpoint holding the whole message list. Fawn's`,
    `\`IndexedDbCheckpointSaver\` runs in Node over fake-indexeddb (an in-memory IndexedDB written in JavaScript, so its`,
    `own work counts in the CPU figure), after a throwaway thread of ${WARM_UP_STEPS} steps has warmed the JIT up; its figure at step N is the mean over steps N-${WINDOW - 1} … N of the process's`,
    `CPU time (user + system, GC included) per put, and the bytes are the serialized payloads of the records it wrote.`,
    `"Read" is opening the thread after a reload: a new saver reads the newest checkpoint back (every message), median of 3.`,
    `Anchors, in the same run: LangGraph's \`MemorySaver\` (bytes: what its serde writes per put, the whole checkpoint)`,
    `and \`SqliteSaver\` (bytes: growth of its database and WAL files) when \`@langchain/langgraph-checkpoint-sqlite\` is`,
    `installed. Both serialize the whole checkpoint at every put, so their cost depends on the checkpoint's size only;`,
    `each anchor figure is the mean of ${ANCHOR_PUTS} puts of the checkpoints up to step N into a fresh saver.`,
    `Real IndexedDB in Chromium: see the "idb-browser" benchmark.`,
  ].join(" "),
  goals,
  tables: [
    {
      title: "Fawn's IndexedDbCheckpointSaver (Node, fake-indexeddb)",
      columns: [
        "step",
        `CPU ms/step (mean of ${WINDOW})`,
        `wall ms/step (median of ${WINDOW})`,
        `bytes/step (mean of ${WINDOW})`,
        "bytes (this step)",
        "read newest checkpoint (ms)",
      ],
      rows: fawn.map((row) => [
        row.step,
        row.cpu.toFixed(2),
        row.wallMedian.toFixed(2),
        Math.round(row.bytes),
        row.bytesLast,
        row.readMs.toFixed(0),
      ]),
    },
    {
      title: `Anchors: LangGraph's savers, mean of ${ANCHOR_PUTS} puts at each step`,
      columns: [
        "step",
        "MemorySaver CPU ms/put",
        "MemorySaver bytes/put",
        "SqliteSaver CPU ms/put",
        "SqliteSaver bytes/put",
      ],
      rows: memory.map((row) => {
        const sql = at(sqlite, row.step);
        return [
          row.step,
          row.cpu.toFixed(2),
          Math.round(row.bytes),
          sql ? sql.cpu.toFixed(2) : "not installed",
          sql ? Math.round(sql.bytes) : "not installed",
        ];
      }),
    },
  ],
  notes: [
    "A step serializes only the messages it appended: each message's serialized form and hash are kept beside the message object (a message whose id, content or tool calls were replaced is serialized again), and the list records of the newest versions are kept in memory, so a put no longer re-serializes, re-hashes and re-reads the whole list.",
    "Bytes per step stay flat: one record per new message plus a list record of about log2(step)/2 references (message-delta.ts).",
    "SqliteSaver's file grows in 4 KB pages, so its bytes per put are coarse.",
    `Figures are noisy on a shared machine; load average (1/5/15 min) at the end of this run: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")}.`,
  ],
});
