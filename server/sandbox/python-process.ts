// The child process that runs python3 for the server's sandboxes (node-python-runner.ts starts it): python-core over
// Pyodide from node_modules, answering on the IPC channel. It starts under Node's permission model with an empty
// environment, so a program that reaches JavaScript (`import js`) still finds no secrets, no host files beyond
// Pyodide's own, no shell and no child processes.
import { constants } from "node:fs";
import { loadPyodide } from "pyodide";
import { PythonCore } from "../../src/sandbox/python/python-core.ts";
import { servePythonRequests, type PythonWorkerRequest } from "../../src/sandbox/python/python-worker-protocol.ts";

const send = process.send?.bind(process);
if (!send) throw new Error("python-process.ts runs as a child with an IPC channel (see node-python-runner.ts).");
const packageCacheDir = process.argv[2];

// Emscripten's NODEFS reads fs constants through process.binding, which the permission model refuses; it needs only
// the open flags, which node:fs gives.
const legacy = process as unknown as { binding(name: string): unknown };
const binding = legacy.binding.bind(process);
legacy.binding = (name) => (name === "constants" ? { fs: constants } : binding(name));

const core = new PythonCore(() => loadPyodide(packageCacheDir ? { packageCacheDir } : {}));
const handle = servePythonRequests(core, (message) => send(message));
process.on("message", (message: PythonWorkerRequest) => handle(message));
process.on("disconnect", () => process.exit(0));
