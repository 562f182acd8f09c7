// The python worker for Node tests: python-core over Pyodide from node_modules, answering on the thread's parent port.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parentPort } from "node:worker_threads";
import { loadPyodide } from "pyodide";
import { PythonCore } from "../../src/sandbox/python/python-core.ts";
import { servePythonRequests, type PythonWorkerRequest } from "../../src/sandbox/python/python-worker-protocol.ts";

if (!parentPort) throw new Error("python-worker.node.ts runs as a worker thread (see node-python-runner.ts).");
const port = parentPort;

// Packages fetched when online are cached in the temp folder, not in node_modules.
const core = new PythonCore(() => loadPyodide({ packageCacheDir: join(tmpdir(), "fawn-pyodide-packages") }));
const handle = servePythonRequests(core, (message, transfer) => port.postMessage(message, transfer));
port.on("message", (message: PythonWorkerRequest) => handle(message));
