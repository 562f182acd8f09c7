// PythonRunner for Node tests and benchmarks: WorkerPythonRunner (queue, time limit, terminate, restart) over a
// node:worker_threads thread running python-core with Pyodide from node_modules.
import { Worker } from "node:worker_threads";
import { WorkerPythonRunner, type SpawnPythonWorker } from "../../src/sandbox/python/worker-python-runner.ts";
import type { PythonRunRequest } from "../../src/sandbox/python/python-runner.ts";
import type { PythonWorkerResponse } from "../../src/sandbox/python/python-worker-protocol.ts";

/** Starts python-worker.node.mjs as a worker thread. */
const spawnNodeWorker: SpawnPythonWorker = (events) => {
  const worker = new Worker(new URL("./python-worker.node.mjs", import.meta.url));
  worker.on("message", (message: PythonWorkerResponse) => events.message(message));
  worker.on("error", (error) => events.crash(error.message));
  worker.on("exit", (code) => events.crash(`the worker exited with code ${code}`));
  return { send: (message) => worker.postMessage(message), terminate: () => void worker.terminate() };
};

/** The browser's runner logic with a Node worker thread in place of the module worker. */
export class NodePythonRunner extends WorkerPythonRunner {
  constructor(options: { startupTimeoutMs?: number } = {}) {
    super({ ...options, spawn: spawnNodeWorker });
  }
}

/** Milliseconds to the first `print(1)` on a new runner (cold: Pyodide loads) and to a second one (warm). */
export async function measurePythonStartup(
  runner = new NodePythonRunner(),
): Promise<{ coldMs: number; warmMs: number }> {
  const request: PythonRunRequest = {
    argv: ["-c", "print(1)"],
    cwd: "/mnt/user-data/workspace",
    files: {},
    timeoutMs: 60_000,
  };
  const time = async () => {
    const started = performance.now();
    const result = await runner.run(request);
    if (result.stdout !== "1\n") throw new Error(`print(1) printed ${JSON.stringify(result.stdout + result.stderr)}`);
    return performance.now() - started;
  };
  try {
    return { coldMs: await time(), warmMs: await time() };
  } finally {
    runner.dispose();
  }
}
