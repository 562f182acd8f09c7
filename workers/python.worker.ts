// Python worker entry point: Pyodide served from Fawn's own origin (`<base>pyodide/`, precached by the service worker
// so the standard library works offline), started by WorkerPythonRunner, which terminates it to stop a program.
import { PythonCore, pyodidePackageBaseUrl, type PyodideRuntime } from "../src/sandbox/python/python-core.ts";
import { servePythonRequests, type PythonWorkerRequest } from "../src/sandbox/python/python-worker-protocol.ts";

declare const self: DedicatedWorkerGlobalScope;

/** What `pyodide.mjs` exports, as far as this worker uses it. */
interface PyodideModule {
  version: string;
  loadPyodide(options: { indexURL: string; packageBaseUrl: string }): Promise<PyodideRuntime>;
}

const indexURL = new URL(`${import.meta.env.BASE_URL}pyodide/`, self.location.href).href;

const core = new PythonCore(async () => {
  // Loaded at run time from our origin, not bundled: pyodide.mjs must sit beside pyodide.asm.* of the same version.
  const pyodide = (await import(/* @vite-ignore */ `${indexURL}pyodide.mjs`)) as PyodideModule;
  return pyodide.loadPyodide({ indexURL, packageBaseUrl: pyodidePackageBaseUrl(pyodide.version) });
});

const handle = servePythonRequests(core, (message, transfer) => self.postMessage(message, transfer));
self.addEventListener("message", (event: MessageEvent<PythonWorkerRequest>) => handle(event.data));
