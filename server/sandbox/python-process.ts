// The child process that runs python3 for the server's sandboxes (node-python-runner.ts starts it): python-core over
// Pyodide from node_modules, answering on the IPC channel. It starts under Node's permission model with an empty
// environment, so a program that reaches JavaScript (`import js`) still finds no secrets, no host files beyond
// Pyodide's own, no shell and no child processes; and before Pyodide loads, python-lockdown.ts closes the network but
// for Pyodide's package CDN, which the permission model leaves open.
import { constants } from "node:fs";
import { loadPyodide, version } from "pyodide";
import { lockDownModules, lockDownNetwork } from "./python-lockdown.ts";
import { PythonCore } from "../../src/sandbox/python/python-core.ts";
import { servePythonRequests, type PythonWorkerRequest } from "../../src/sandbox/python/python-worker-protocol.ts";

const send = process.send?.bind(process);
if (!send) throw new Error("python-process.ts runs as a child with an IPC channel (see node-python-runner.ts).");
const packageCacheDir = process.argv[2];
/** Where Pyodide downloads packages missing from node_modules: its default CDN, named so it is the one allowed. */
const PACKAGE_CDN = `https://cdn.jsdelivr.net/pyodide/v${version}/full/`;

// Emscripten's NODEFS reads fs constants through process.binding, which the permission model refuses; it needs only
// the open flags, which node:fs gives.
const legacy = process as unknown as { binding(name: string): unknown };
const binding = legacy.binding.bind(process);
legacy.binding = (name) => (name === "constants" ? { fs: constants } : binding(name));

// Requests are answered from the start (a message with no listener would be lost); Pyodide loads once the wall is up.
const walled = lockDownNetwork(PACKAGE_CDN);
const core = new PythonCore(async () => {
  await walled;
  const pyodide = await loadPyodide({ cdnUrl: PACKAGE_CDN, ...(packageCacheDir && { packageCacheDir }) });
  // Pyodide's own start-up imports (node:vm, node:child_process, ws…) are done; no program has run yet.
  lockDownModules();
  return pyodide;
});
const handle = servePythonRequests(core, (message) => send(message));
process.on("message", (message: PythonWorkerRequest) => handle(message));
process.on("disconnect", () => process.exit(0));
