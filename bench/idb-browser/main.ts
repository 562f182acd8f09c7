// The IndexedDB benchmark page (bench/idb-browser.ts builds, serves and drives it in Chromium): writes a growing agent
// thread step by step into the browser's real IndexedDB as a Fawn run does, and, as the anchor, the whole checkpoint
// per step into one store as a naive saver would.
import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  MemorySaver,
  emptyCheckpoint,
  uuid6,
  type ChannelVersions,
  type Checkpoint,
} from "@langchain/langgraph-checkpoint";
import { deleteDB, openDB } from "idb";
import { openFawnDb, type RunRecord } from "../../src/storage/fawn-db.ts";
import { IndexedDbCheckpointSaver } from "../../src/storage/indexeddb-checkpoint-saver.ts";
import { ThreadRepository } from "../../src/storage/thread-repository.ts";
import { stepNode, threadMessage } from "../agent-thread.ts";

export interface IdbBenchOptions {
  /** Steps at which figures are taken; the thread grows to the largest. */
  samples: number[];
  /** Figures at step N are over steps N-window+1 … N. */
  window: number;
  /** Checkpoints the naive anchor writes at each sample step (those of the steps up to it). */
  anchorPuts: number;
}

/** Timing of a window of steps, in ms. */
export interface Timing {
  median: number;
  p95: number;
}

export interface FawnSample {
  step: number;
  /** The whole step: pending writes, checkpoint, the run record's new end. */
  step_ms: Timing;
  /** The checkpoint put alone. */
  put_ms: Timing;
  /** Serialized bytes per step (mean over the window): records the saver wrote plus the run record. */
  bytes: number;
  /** Opening the thread: a new saver reads the newest checkpoint back, in ms (median of 3). */
  read_ms: number;
}

export interface NaiveSample {
  step: number;
  put_ms: Timing;
  bytes: number;
}

export interface IdbBenchResult {
  fawn: FawnSample[];
  naive: NaiveSample[];
  /** navigator.storage.estimate() usage growth over Fawn's whole thread, per step (coarse: on-disk files). */
  usage_per_step?: number;
  user_agent: string;
}

declare global {
  interface Window {
    fawnIdbBench(options: IdbBenchOptions): Promise<IdbBenchResult>;
  }
}

const THREAD = "bench";

function timing(values: number[]): Timing {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
  return { median: at(0.5), p95: at(0.95) };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);

async function usage(): Promise<number | undefined> {
  return (await navigator.storage?.estimate?.())?.usage;
}

/** One thread written step by step as a Fawn run writes it (src/gateway/run-service.ts, runs/run-recorder.ts, runs/run-executor.ts). */
async function runFawn(
  options: IdbBenchOptions,
  dbName = "fawn-bench-idb",
): Promise<{ samples: FawnSample[]; usagePerStep?: number }> {
  const last = Math.max(...options.samples);
  await deleteDB(dbName);
  const db = await openFawnDb(dbName);
  let written = 0;
  const saver = new IndexedDbCheckpointSaver({ db, onWrite: ({ bytes }) => (written += bytes) });
  const threads = new ThreadRepository(db);
  await threads.create({ threadId: THREAD, title: "Benchmark thread" });
  const run: RunRecord = {
    thread_id: THREAD,
    run_id: "run-1",
    status: "running",
    created_at: Date.now(),
    updated_at: Date.now(),
  };
  await threads.recordRun(run);
  const usageBefore = await usage();
  let config: RunnableConfig = { configurable: { thread_id: THREAD } };
  let messages: BaseMessage[] = [];
  let versions: ChannelVersions = {};
  const stepMs: number[] = [];
  const putMs: number[] = [];
  const bytes: number[] = [];
  const samples: FawnSample[] = [];
  for (let i = 0; i < last; i++) {
    const message = threadMessage(i);
    const node = stepNode(i);
    const branch = `branch:to:${node}`;
    messages = [...messages, message];
    const started = performance.now();
    written = 0;
    // The task's writes, saved against the checkpoint it ran from, as LangGraph saves them before the next checkpoint.
    if (config.configurable?.checkpoint_id !== undefined) {
      await saver.putWrites(
        config,
        [
          ["messages", [message]],
          [branch, null],
        ],
        `task-${i}`,
        `~__pregel_pull, ${node}`,
      );
    }
    const newVersions: ChannelVersions = {
      messages: saver.getNextVersion(versions.messages as number | undefined),
      [branch]: saver.getNextVersion(versions[branch] as number | undefined),
    };
    versions = { ...versions, ...newVersions };
    const checkpoint: Checkpoint = {
      ...emptyCheckpoint(),
      id: uuid6(-1),
      channel_values: { messages, [branch]: null },
      channel_versions: versions,
      versions_seen: { [node]: { messages: versions.messages as number } },
    };
    const putStarted = performance.now();
    config = await saver.put(config, checkpoint, { source: "loop", step: i, parents: {} }, newVersions);
    putMs.push(performance.now() - putStarted);
    // Each saved step moves the run's end (RunService.saveProgress).
    const end = await saver.latestCheckpointId(THREAD);
    const record: RunRecord = { ...run, updated_at: Date.now(), ...(end !== undefined && { end }) };
    await threads.recordRun(record);
    stepMs.push(performance.now() - started);
    bytes.push(written + JSON.stringify(record).length);

    const step = i + 1;
    if (!options.samples.includes(step)) continue;
    const reads: number[] = [];
    for (let read = 0; read < 3; read++) {
      const reader = new IndexedDbCheckpointSaver({ db });
      const readStarted = performance.now();
      const latest = await reader.getTuple({ configurable: { thread_id: THREAD } });
      reads.push(performance.now() - readStarted);
      if ((latest?.checkpoint.channel_values.messages as unknown[] | undefined)?.length !== step) {
        throw new Error(`read-back mismatch at step ${step}`);
      }
    }
    const readMs = timing(reads).median;
    samples.push({
      step,
      step_ms: timing(stepMs.slice(-options.window)),
      put_ms: timing(putMs.slice(-options.window)),
      bytes: mean(bytes.slice(-options.window)),
      read_ms: readMs,
    });
    console.log(
      `fawn step ${step}: ${samples.at(-1)?.step_ms.median.toFixed(2)} ms/step (median), read ${readMs.toFixed(0)} ms`,
    );
  }
  const usageAfter = await usage();
  db.close();
  await deleteDB(dbName);
  return {
    samples,
    ...(usageBefore !== undefined && usageAfter !== undefined && { usagePerStep: (usageAfter - usageBefore) / last }),
  };
}

/**
 * The anchor: a saver that writes the whole checkpoint (channel values included, serialized by MemorySaver's serde)
 * and its metadata as one record per step. Its cost depends on the checkpoint's size only, so at each sample step it
 * writes the checkpoints of the `anchorPuts` steps up to it.
 */
async function runNaive(options: IdbBenchOptions): Promise<NaiveSample[]> {
  const dbName = "fawn-bench-idb-naive";
  await deleteDB(dbName);
  const db = await openDB(dbName, 1, {
    upgrade(database) {
      database.createObjectStore("checkpoints", { keyPath: ["thread_id", "checkpoint_id"] });
    },
  });
  const { serde } = new MemorySaver();
  const all = Array.from({ length: Math.max(...options.samples) }, (_, i) => threadMessage(i));
  const samples: NaiveSample[] = [];
  for (const step of options.samples) {
    await db.clear("checkpoints");
    const putMs: number[] = [];
    const bytes: number[] = [];
    for (let i = Math.max(step - options.anchorPuts, 0); i < step; i++) {
      const node = stepNode(i);
      const checkpoint: Checkpoint = {
        ...emptyCheckpoint(),
        id: uuid6(-1),
        channel_values: { messages: all.slice(0, i + 1), [`branch:to:${node}`]: null },
        channel_versions: { messages: i + 1, [`branch:to:${node}`]: i + 1 },
        versions_seen: { [node]: { messages: i } },
      };
      const started = performance.now();
      const [[type, checkpointBytes], [metadataType, metadataBytes]] = await Promise.all([
        serde.dumpsTyped(checkpoint),
        serde.dumpsTyped({ source: "loop", step: i, parents: {} }),
      ]);
      await db.put("checkpoints", {
        thread_id: THREAD,
        checkpoint_id: checkpoint.id,
        type,
        checkpoint: checkpointBytes,
        metadata_type: metadataType,
        metadata: metadataBytes,
      });
      putMs.push(performance.now() - started);
      bytes.push(checkpointBytes.byteLength + metadataBytes.byteLength);
    }
    samples.push({ step, put_ms: timing(putMs), bytes: mean(bytes) });
    console.log(`naive step ${step}: ${samples.at(-1)?.put_ms.median.toFixed(2)} ms/put (median)`);
  }
  db.close();
  await deleteDB(dbName);
  return samples;
}

/** Steps of a throwaway thread written first, so the JIT has compiled the saver before step 1 is measured. */
const WARM_UP_STEPS = 300;

window.fawnIdbBench = async (options) => {
  await runFawn({ ...options, samples: [WARM_UP_STEPS] }, "fawn-bench-idb-warm-up");
  const fawn = await runFawn(options);
  const naive = await runNaive(options);
  return {
    fawn: fawn.samples,
    naive,
    ...(fawn.usagePerStep !== undefined && { usage_per_step: fawn.usagePerStep }),
    user_agent: navigator.userAgent,
  };
};
