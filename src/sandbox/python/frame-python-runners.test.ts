import * as Comlink from "comlink";
import { describe, expect, it } from "vitest";
import { PerThreadPythonRunners, PRESTART_DELAY_MS, spawnFramePythonWorker } from "./frame-python-runners.ts";
import type { PythonFrames } from "./python-frame-protocol.ts";
import type { PythonRunRequest, PythonRunResult } from "./python-runner.ts";
import type { PythonSnapshotMessage, PythonWorkerRequest, PythonWorkerResponse } from "./python-worker-protocol.ts";
import { WorkerPythonRunner } from "./worker-python-runner.ts";

const REQUEST: PythonRunRequest = {
  argv: ["-c", "print(1)"],
  cwd: "/mnt/user-data/workspace",
  files: {},
  timeoutMs: 5_000,
};

/**
 * A page's frames in memory: each spawned "worker" answers every run with which interpreter it is; `snapshotFirst` /
 * `snapshotAfterRun` make it send a snapshot before its first answer / after each run.
 */
class FakeFrames implements PythonFrames {
  readonly spawned: number[] = [];
  readonly terminated: number[] = [];
  readonly kept: string[] = [];
  failures = new Map<number, string>();
  snapshotFirst = false;
  snapshotAfterRun = false;
  private nextId = 1;

  async spawn(): Promise<{ id: number; port: MessagePort }> {
    const id = this.nextId++;
    this.spawned.push(id);
    const { port1, port2 } = new MessageChannel();
    const runs = { count: 0 };
    port1.onmessage = (event: MessageEvent<PythonWorkerRequest>) => {
      const { id: runId } = event.data;
      runs.count++;
      const reply = (message: PythonWorkerResponse | PythonSnapshotMessage) => port1.postMessage(message);
      const snapshot = (): PythonSnapshotMessage => ({
        type: "snapshot",
        bytes: new TextEncoder().encode(`snapshot of ${id} after ${runs.count - 1} runs`),
      });
      if (this.snapshotFirst && runs.count === 1) reply(snapshot());
      reply({ type: "started", id: runId });
      const result: PythonRunResult = {
        stdout: `interpreter ${id} run ${runs.count}\n`,
        stderr: "",
        exitCode: 0,
        written: {},
        deleted: [],
      };
      reply({ type: "result", id: runId, result, fatal: false });
      if (this.snapshotAfterRun) reply(snapshot());
    };
    return Comlink.transfer({ id, port: port2 }, [port2]);
  }

  failure(id: number): Promise<string> {
    const reason = this.failures.get(id);
    return reason === undefined ? new Promise(() => undefined) : Promise.resolve(reason);
  }

  terminate(id: number): void {
    this.terminated.push(id);
  }

  async keepSnapshot(bytes: ArrayBuffer): Promise<void> {
    this.kept.push(new TextDecoder().decode(bytes));
  }

  async hasSnapshot(): Promise<boolean> {
    return this.kept.length > 0;
  }
}

/** The frames as the sandbox worker sees them: over a MessagePort, through comlink. */
function remote(frames: FakeFrames): Promise<Comlink.Remote<PythonFrames>> {
  const { port1, port2 } = new MessageChannel();
  Comlink.expose(frames, port1);
  return Promise.resolve(Comlink.wrap<PythonFrames>(port2));
}

function runners(frames: FakeFrames, warm = 2, spareDelayMs: number | null = null) {
  const broker = remote(frames);
  return new PerThreadPythonRunners(
    () => new WorkerPythonRunner({ spawn: spawnFramePythonWorker(broker) }),
    warm,
    spareDelayMs,
  );
}

describe("python3 over the page's Python frames", () => {
  it("gives each thread an interpreter of its own and keeps it warm", async () => {
    const frames = new FakeFrames();
    const pool = runners(frames);
    const a = pool.forThread("a");
    const b = pool.forThread("b");
    expect((await a.run(REQUEST)).stdout).toBe("interpreter 1 run 1\n");
    expect((await b.run(REQUEST)).stdout).toBe("interpreter 2 run 1\n");
    expect((await a.run(REQUEST)).stdout).toBe("interpreter 1 run 2\n");
    expect(frames.spawned).toEqual([1, 2]);
    pool.dispose();
  });

  it("ends the least recently used thread's interpreter when a further thread needs one", async () => {
    const frames = new FakeFrames();
    const pool = runners(frames, 2);
    await pool.forThread("a").run(REQUEST);
    await pool.forThread("b").run(REQUEST);
    await pool.forThread("a").run(REQUEST);
    await pool.forThread("c").run(REQUEST);
    await expect.poll(() => frames.terminated).toEqual([2]);
    // Thread b comes back to a fresh interpreter: nothing of its earlier one, or of another thread's, is left.
    expect((await pool.forThread("b").run(REQUEST)).stdout).toBe("interpreter 4 run 1\n");
    pool.dispose();
  });

  it("starts a spare interpreter ahead, which the next thread gets fresh", async () => {
    const frames = new FakeFrames();
    const pool = runners(frames, 2, 0);
    expect((await pool.forThread("a").run(REQUEST)).stdout).toBe("interpreter 1 run 1\n");
    // The spare loads and runs only the warm-up; the next thread's program is its second run, on an interpreter of
    // its own.
    await expect.poll(() => frames.spawned).toEqual([1, 2]);
    expect((await pool.forThread("b").run(REQUEST)).stdout).toBe("interpreter 2 run 2\n");
    expect((await pool.forThread("a").run(REQUEST)).stdout).toBe("interpreter 1 run 2\n");
    // A spare again, for the thread after.
    await expect.poll(() => frames.spawned).toEqual([1, 2, 3]);
    pool.dispose();
    await expect.poll(() => frames.terminated).toEqual(expect.arrayContaining([1, 2, 3]));
  });

  it("hands a fresh interpreter's snapshot to the page, never one sent after a program ran", async () => {
    const frames = new FakeFrames();
    frames.snapshotFirst = true;
    frames.snapshotAfterRun = true;
    const pool = runners(frames);
    expect((await pool.forThread("a").run(REQUEST)).stdout).toBe("interpreter 1 run 1\n");
    expect((await pool.forThread("a").run(REQUEST)).stdout).toBe("interpreter 1 run 2\n");
    await expect.poll(() => frames.kept).toEqual(["snapshot of 1 after 0 runs"]);
    pool.dispose();
  });

  it("prestarts one spare when a sandbox opens, only once Python was used in this browser", async () => {
    const frames = new FakeFrames();
    const broker = remote(frames);
    const pool = runners(frames, 2, 0);
    const worthIt = async () => (await broker).hasSnapshot();
    pool.prestart(worthIt);
    await new Promise((resolve) => setTimeout(resolve, PRESTART_DELAY_MS + 200));
    expect(frames.spawned).toEqual([]);

    await frames.keepSnapshot(new TextEncoder().encode("snapshot").buffer);
    pool.prestart(worthIt);
    pool.prestart(worthIt);
    await expect.poll(() => frames.spawned, { timeout: PRESTART_DELAY_MS + 2_000 }).toEqual([1]);
    // The thread's first program runs on the prestarted interpreter (its second run, after the warm-up).
    expect((await pool.forThread("a").run(REQUEST)).stdout).toBe("interpreter 1 run 2\n");
    pool.dispose();
  });

  it("ends a thread's interpreter when its sandbox closes", async () => {
    const frames = new FakeFrames();
    const pool = runners(frames);
    await pool.forThread("a").run(REQUEST);
    pool.release("a");
    await expect.poll(() => frames.terminated).toEqual([1]);
  });

  it("says why when the frame could not start Python, and starts afresh for the next run", async () => {
    const frames = new FakeFrames();
    frames.failures.set(1, "the python worker failed to load");
    frames.spawn = async function (this: FakeFrames) {
      const id = this.spawned.length + 1;
      this.spawned.push(id);
      // A worker that never answers: only the frame's failure report ends the wait.
      const { port2 } = new MessageChannel();
      return Comlink.transfer({ id, port: port2 }, [port2]);
    };
    const pool = runners(frames);
    const result = await pool.forThread("a").run(REQUEST);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("Python stopped unexpectedly: the python worker failed to load");
    pool.dispose();
  });

  it("waits for the page to hand the frames over", async () => {
    const frames = new FakeFrames();
    let attach: (frames: Comlink.Remote<PythonFrames>) => void = () => undefined;
    const broker = new Promise<Comlink.Remote<PythonFrames>>((resolve) => (attach = resolve));
    const runner = new WorkerPythonRunner({ spawn: spawnFramePythonWorker(broker) });
    const result = runner.run(REQUEST);
    attach(await remote(frames));
    expect((await result).stdout).toBe("interpreter 1 run 1\n");
    runner.dispose();
  });
});
