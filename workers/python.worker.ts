// Python worker entry point. It runs from a `data:` URL started by the Python frame (src/sandbox/python/page/python-frame.ts),
// so its origin is opaque and its Content-Security-Policy is the frame's: it cannot open Fawn's IndexedDB, caches or
// cookies, and cannot reach the network except Pyodide's package host. It cannot fetch Pyodide either, so the page
// hands over Pyodide's files as bytes (which also makes it work offline), served here to Pyodide through `fetch`.
// Requests come over the one MessagePort of the start message, straight from the sandbox worker. Python starts from the
// memory snapshot in the start message when there is one (the build's, or one a worker of this build made: a fraction
// of a second instead of initialising Python); otherwise this worker sends one back, taken before any program ran in it.
import { PythonCore, type PyodideRuntime } from "../src/sandbox/python/python-core.ts";
import type { PythonFrameStart } from "../src/sandbox/python/python-frame-protocol.ts";
import { isGzippedSnapshot, PYODIDE_ENV } from "../src/sandbox/python/python-snapshot.ts";
import {
  servePythonRequests,
  type PythonSnapshotMessage,
  type PythonWorkerRequest,
} from "../src/sandbox/python/python-worker-protocol.ts";

declare const self: DedicatedWorkerGlobalScope;

/** What `pyodide.mjs` exports, as far as this worker uses it. */
interface PyodideModule {
  loadPyodide(options: {
    indexURL: string;
    packageBaseUrl: string;
    lockFileContents: string;
    createPyodideModule: unknown;
    env: Record<string, string>;
    _makeSnapshot?: boolean;
    _loadSnapshot?: Promise<ArrayBuffer>;
  }): Promise<PyodideRuntime>;
}

/** What a runtime loaded with `_makeSnapshot` adds. */
interface SnapshotMaker {
  makeMemorySnapshot(): Uint8Array;
}

/** A snapshot as Pyodide made it: the shipped one is gzipped (see isGzippedSnapshot). */
async function inflated(bytes: ArrayBuffer): Promise<ArrayBuffer> {
  if (!isGzippedSnapshot(bytes)) return bytes;
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
}

/** The sentence a program gets for any attempt at the network, storage or other scripts. */
const REFUSED = "Python programs in Fawn have no network or browser storage access";

/**
 * Removes what a program could reach through `import js` / `pyodide_js` besides Pyodide's own needs: the page's
 * policy already blocks these (the real walls are the opaque origin and the CSP); this turns a silent CSP failure
 * into a clear error, and leaves no handle on the frame (`postMessage`) or on other scripts.
 */
function lockDown(scope: DedicatedWorkerGlobalScope, fetchFile: typeof fetch): void {
  const refuse = () => {
    throw new TypeError(REFUSED);
  };
  const names = [
    "XMLHttpRequest",
    "WebSocket",
    "WebSocketStream",
    "EventSource",
    "WebTransport",
    "importScripts",
    "Worker",
    "SharedWorker",
    "BroadcastChannel",
    "indexedDB",
    "caches",
    "cookieStore",
    "FontFace",
    "fonts",
    "postMessage",
    "close",
  ];
  for (
    let target: object | null = scope;
    target && target !== Object.prototype;
    target = Object.getPrototypeOf(target)
  ) {
    for (const name of names) {
      if (Object.prototype.hasOwnProperty.call(target, name)) define(target, name, { get: refuse });
    }
    if (Object.prototype.hasOwnProperty.call(target, "fetch")) define(target, "fetch", { value: fetchFile });
  }
}

/** Redefines a property for good; one the browser does not let us change stays behind the policy's walls. */
function define(target: object, name: string, descriptor: PropertyDescriptor): void {
  try {
    Object.defineProperty(target, name, { ...descriptor, configurable: false });
  } catch {
    // Not configurable here: the Content-Security-Policy and the opaque origin still refuse it.
  }
}

/**
 * `pyodide_js.loadPackage(url)` takes any wheel URL; one outside Pyodide's package host is refused at the call (the
 * policy would block its request anyway, but only inside a promise the program cannot wait for).
 */
function refusePackageUrls(runtime: PyodideRuntime, packageBaseUrl: string): void {
  const api = runtime as unknown as { loadPackage?: (names: unknown, ...rest: unknown[]) => unknown };
  const loadPackage = api.loadPackage?.bind(runtime);
  if (!loadPackage) return;
  api.loadPackage = (names, ...rest) => {
    const list: unknown[] = Array.isArray(names) ? names : [names];
    for (const name of list) {
      if (typeof name === "string" && name.includes("/") && !name.startsWith(packageBaseUrl)) {
        throw new TypeError(`${REFUSED} (${name.slice(0, 200)})`);
      }
    }
    return loadPackage(names, ...rest);
  };
}

function start(message: PythonFrameStart, port: MessagePort): void {
  const { files, indexURL, packageBaseUrl } = message;
  const realFetch = self.fetch.bind(self);
  const fetchFile: typeof fetch = (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const name = url.startsWith(indexURL) ? url.slice(indexURL.length) : "";
    const bytes = files[name];
    if (bytes) {
      const type = name.endsWith(".wasm") ? "application/wasm" : "application/octet-stream";
      // A Response copies the bytes it is made from, so the same file can be served again.
      return Promise.resolve(new Response(bytes, { headers: { "Content-Type": type } }));
    }
    // Packages such as numpy when online: the frame's policy allows this prefix and nothing else.
    if (url.startsWith(packageBaseUrl)) return realFetch(input, init);
    // Thrown, not a rejected promise, so a program sees the refusal at the call.
    throw new TypeError(`${REFUSED} (${url.slice(0, 200)})`);
  };
  lockDown(self, fetchFile);

  const moduleUrl = (name: string) =>
    URL.createObjectURL(new Blob([files[name] ?? new ArrayBuffer(0)], { type: "text/javascript" }));
  // Used for the first load only: a later load (after a fatal run) follows programs, whose effects must never reach a
  // snapshot, nor need one. Inflated at once, while Pyodide's modules load.
  let snapshot = message.snapshot && inflated(message.snapshot);
  let makeSnapshot = !snapshot;
  // A snapshot that does not inflate is refused where it is awaited, like one Pyodide refuses.
  snapshot?.catch(() => undefined);
  const core = new PythonCore(
    async () => {
      const pyodide = (await import(/* @vite-ignore */ moduleUrl("pyodide.mjs"))) as PyodideModule;
      const asm = (await import(/* @vite-ignore */ moduleUrl("pyodide.asm.mjs"))) as { default: unknown };
      const options = {
        indexURL,
        packageBaseUrl,
        lockFileContents: new TextDecoder().decode(files["pyodide-lock.json"]),
        createPyodideModule: asm.default,
        env: { ...PYODIDE_ENV },
      };
      const from = snapshot;
      snapshot = undefined;
      let runtime: PyodideRuntime | undefined;
      if (from) {
        try {
          runtime = await pyodide.loadPyodide({ ...options, _loadSnapshot: from });
        } catch {
          // A snapshot this build cannot use (Pyodide checks its build id): start as without one, and send a new one.
          makeSnapshot = true;
        }
      }
      runtime ??= await pyodide.loadPyodide({ ...options, _makeSnapshot: makeSnapshot });
      refusePackageUrls(runtime, packageBaseUrl);
      return runtime;
    },
    (runtime) => {
      if (!makeSnapshot) return;
      makeSnapshot = false;
      // Before the first program: its `started` (and anything the program could cause) comes after this on the port.
      const bytes = (runtime as unknown as SnapshotMaker).makeMemorySnapshot();
      const reply: PythonSnapshotMessage = { type: "snapshot", bytes };
      port.postMessage(reply, [bytes.buffer]);
    },
  );
  const handle = servePythonRequests(core, (reply, transfer) => port.postMessage(reply, transfer));
  port.addEventListener("message", (event: MessageEvent<PythonWorkerRequest>) => handle(event.data));
  port.start();
}

self.addEventListener(
  "message",
  (event: MessageEvent<PythonFrameStart>) => {
    const port = event.ports[0];
    if (event.data?.type === "fawn-python-start" && port) start(event.data, port);
  },
  { once: true },
);
