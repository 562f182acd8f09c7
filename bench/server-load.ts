// One load level of `npm run bench:server`: N threads, then N streamed runs started at once through
// `@langchain/langgraph-sdk`'s Client (`client.runs.stream`), each timed from its request to its first SSE event
// (`metadata`), to the first event after it, and to the first message token; the server's resident memory sampled
// while the streams are open. Failures are counted (an error event, a refused request, a stream cut short), never
// thrown: a server that cannot take 200 streams shows it as a number.
import { Client } from "@langchain/langgraph-sdk";
import { setTimeout as sleep } from "node:timers/promises";
import { treeCpuMs, treeRss, type Target } from "./server-targets.ts";

/** The graph both servers serve (langgraph.json); each takes its id as an assistant id. */
export const ASSISTANT = "lead_agent";
/** What each run asks: none of the mock model's triggers, so it echoes "You said: …" word by word, 20 ms apart. */
export const PROMPT = "Say something short for the benchmark.";
/** A run still streaming after this is stopped and counted as failed. */
const RUN_TIMEOUT_MS = 180_000;
/** Threads are created this many at a time before the runs start (not timed). */
const THREAD_CONCURRENCY = 10;
const RSS_SAMPLE_MS = 50;

export interface StreamTiming {
  ok: boolean;
  /** Request → the `metadata` event (the run was accepted and its stream opened). */
  metadataMs?: number;
  /** Request → the first event after `metadata`. */
  firstEventMs?: number;
  /** Request → the first `messages` event (a token of the reply). */
  firstTokenMs?: number;
  /** Request → the stream's end. */
  totalMs?: number;
  events: number;
  error?: string;
}

export interface LevelResult {
  concurrency: number;
  streams: StreamTiming[];
  /** First request → last stream's end. */
  wallMs: number;
  /** The server's resident memory (whole process tree) just before the level, bytes. */
  idleRss: number;
  /** The highest sample while at least one stream was open, bytes. */
  peakRss: number;
  /** The most streams open at one sample. */
  peakOpen: number;
  /** CPU time (user + system) the server's process tree used from the first request to the last stream's end, ms. */
  serverCpuMs: number;
  /** Threads that could not be created (their runs count as failed). */
  threadFailures: number;
  /** Requests the mock model answered for the level's runs (replies, and titles or memory updates); set by the caller. */
  modelCalls: number;
}

/** An SDK client that neither queues requests (its default allows 4 at once) nor retries a refused one. */
export function clientFor(target: Target, concurrency: number): Client {
  return new Client({
    apiUrl: target.apiUrl,
    apiKey: target.apiKey,
    callerOptions: { maxConcurrency: concurrency + 8, maxRetries: 0 },
  });
}

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error);
  return text.replace(/\s+/g, " ").slice(0, 160);
}

/** One streamed run on `threadId`, timed; never throws. */
async function timedRun(client: Client, threadId: string, open: { count: number }): Promise<StreamTiming> {
  const timing: StreamTiming = { ok: false, events: 0 };
  const started = performance.now();
  const since = () => Math.round((performance.now() - started) * 10) / 10;
  open.count++;
  try {
    const stream = client.runs.stream(threadId, ASSISTANT, {
      input: { messages: [{ role: "user", content: PROMPT }] },
      streamMode: ["values", "messages-tuple"],
      signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
    });
    for await (const part of stream) {
      timing.events++;
      if (part.event === "metadata") {
        timing.metadataMs ??= since();
        continue;
      }
      timing.firstEventMs ??= since();
      if (part.event.startsWith("messages")) timing.firstTokenMs ??= since();
      if (part.event === "error") timing.error = describe(part.data);
      // Fawn's server closes a stream with `end` and the run's status; LangGraph's dev server just closes it.
      const status = part.event === "end" ? (part.data as { status?: unknown } | null)?.status : undefined;
      if (typeof status === "string" && status !== "success") timing.error ??= `the run ended ${status}`;
    }
    timing.totalMs = since();
    if (timing.error === undefined && timing.firstEventMs === undefined) timing.error = "the stream ended empty";
    timing.ok = timing.error === undefined;
  } catch (error) {
    timing.error = describe(error);
  } finally {
    open.count--;
  }
  return timing;
}

/** Runs `work` over `items`, `limit` at a time. */
async function inBatches<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let at = 0; at < items.length; at += limit) {
    results.push(...(await Promise.all(items.slice(at, at + limit).map(work))));
  }
  return results;
}

/** The server's resident memory at rest: the median of a few samples a moment apart. */
export async function idleRss(pids: number[]): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    samples.push(treeRss(pids));
    await sleep(100);
  }
  return samples.sort((a, b) => a - b)[2]!;
}

/** One warm-up run, so the graph is loaded and compiled before anything is timed. */
export async function warmUp(target: Target): Promise<StreamTiming> {
  const client = clientFor(target, 1);
  const thread = await client.threads.create();
  return timedRun(client, thread.thread_id, { count: 0 });
}

/** `concurrency` streamed runs at once, each on a thread of its own. */
export async function runLevel(target: Target, concurrency: number): Promise<LevelResult> {
  const client = clientFor(target, concurrency);
  const created = await inBatches(
    Array.from({ length: concurrency }, (_, i) => i),
    THREAD_CONCURRENCY,
    async (i) =>
      client.threads.create({ metadata: { bench: "server", index: i } }).then(
        (thread) => thread.thread_id,
        (error: unknown) => ({ error: describe(error) }),
      ),
  );
  const threadIds = created.filter((id): id is string => typeof id === "string");
  const threadFailures = created.length - threadIds.length;
  const before = await idleRss(target.pids);

  const open = { count: 0 };
  let peakRss = before;
  let peakOpen = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      if (open.count > 0) {
        peakRss = Math.max(peakRss, treeRss(target.pids));
        peakOpen = Math.max(peakOpen, open.count);
      }
      await sleep(RSS_SAMPLE_MS);
    }
  })();

  const cpuBefore = treeCpuMs(target.pids);
  const started = performance.now();
  const streams = await Promise.all(threadIds.map((threadId) => timedRun(client, threadId, open)));
  const wallMs = performance.now() - started;
  const serverCpuMs = treeCpuMs(target.pids) - cpuBefore;
  sampling = false;
  await sampler;
  const failedThreads = created
    .filter((id): id is { error: string } => typeof id !== "string")
    .map((failure): StreamTiming => ({ ok: false, events: 0, error: `thread not created: ${failure.error}` }));
  return {
    concurrency,
    streams: [...streams, ...failedThreads],
    wallMs,
    idleRss: before,
    peakRss,
    peakOpen,
    serverCpuMs,
    threadFailures,
    modelCalls: 0,
  };
}
