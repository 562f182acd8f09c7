// The page's side of python3 (docs/architecture.md#where-code-runs): Python runs in a worker that only a page can start walled off, in a
// frame document with its own Content-Security-Policy (frames/python.html), from a `data:` URL, so its origin is
// opaque. The sandbox worker asks for one such worker per thread through a PythonFrames broker, which the page hands
// to the agent worker (PythonFrameHost.connect) and the agent worker passes on to each sandbox worker it starts.
// Removing a frame ends its worker: that is how a runaway program is stopped. Workers start from a memory snapshot of a
// fresh interpreter, so they skip initialising Python: the one the build ships under pyodide/ (fetched on first use,
// gzipped), which this page keeps, inflated, in Fawn's Cache Storage (never reachable from Python) for every later
// worker, in this page and the next ones. Without it (offline before first use, `vite dev`, or one Pyodide refused),
// the first worker initialises Python and sends back a snapshot of its own, which is kept instead.
import * as Comlink from "comlink";
import pythonWorkerUrl from "../../../../workers/python.worker.ts?worker&url";
import {
  PYODIDE_CORE_FILES,
  pyodidePackageBaseUrl,
  type PythonFrameConnector,
  type PythonFrameReport,
  type PythonFrames,
  type PythonFrameStart,
} from "../python-frame-protocol.ts";
import { isGzippedSnapshot } from "../python-snapshot.ts";

/** How long a new frame may take to load and say it is listening. */
const FRAME_READY_TIMEOUT_MS = 30_000;
/** The Cache Storage cache that holds the interpreter snapshot (one entry: the current build's). */
export const PYTHON_SNAPSHOT_CACHE = "fawn-python-snapshot";
/** How long after it came a snapshot is kept: after the first worker's start, which storing it would slow down. */
const KEEP_SNAPSHOT_DELAY_MS = 10_000;
/** Then the longest wait for an idle moment. */
const KEEP_SNAPSHOT_IDLE_TIMEOUT_MS = 5_000;
/** A snapshot is the interpreter's memory (about 30 MB); anything far larger is not one. */
const MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;
/**
 * The snapshot the build ships, relative to the base URL ("" when it ships none: `vite dev`). Gzipped, or inflated
 * by the browser if the host sends it so: the python worker tells them apart.
 */
const SHIPPED_SNAPSHOT: string = import.meta.env.FAWN_PYTHON_SNAPSHOT ?? "";

/** What a walled-off worker needs, read once per page from Fawn's own origin (the service worker's precache offline). */
interface PythonAssets {
  workerSource: string;
  files: Record<string, ArrayBuffer>;
  indexURL: string;
  packageBaseUrl: string;
  /** Where this build's snapshot is kept in PYTHON_SNAPSHOT_CACHE: it names the worker's and Pyodide's versions. */
  snapshotKey: string;
}

/** The page's Python frames, one MessagePort per sandbox worker (see the module comment). */
export class PythonFrameHost implements PythonFrameConnector {
  private assets: Promise<PythonAssets> | undefined;
  private readonly connections = new Map<number, FrameBroker>();
  private nextConnection = 1;
  private readonly frameUrl: string;
  /** A snapshot read ahead by `warm`, for the next worker. */
  private warmed: Promise<ArrayBuffer | undefined> | undefined;

  /** @param base The app's base URL (Vite's BASE_URL), which frames/ and pyodide/ are relative to. */
  constructor(private readonly base: string = import.meta.env.BASE_URL) {
    this.frameUrl = new URL(`${base}frames/python.html`, location.href).href;
  }

  /** A new broker for one sandbox worker; pass the port on to it (transferred). */
  connect(): { id: number; port: MessagePort } {
    const id = this.nextConnection++;
    const { port1, port2 } = new MessageChannel();
    const broker = new FrameBroker(() => this.loadAssets(), this.frameUrl, {
      read: () => this.takeSnapshot(),
      keep: (bytes) => this.keepSnapshot(bytes),
      has: () => this.hasSnapshot(),
    });
    this.connections.set(id, broker);
    Comlink.expose(broker, port1);
    return Comlink.transfer({ id, port: port2 }, [port2]);
  }

  /** Ends every worker started through connection `id` (its sandbox worker was terminated). */
  disconnect(id: number): void {
    this.connections.get(id)?.dispose();
    this.connections.delete(id);
  }

  /**
   * A python3 is on its way: reads Pyodide's files and a snapshot now, beside the sandbox worker's start (about 1 s
   * on a 2-core machine), instead of after it. Nothing when a Python worker is up (or starting) in this page: that one
   * (or the spare after it) runs the program.
   */
  warm(): void {
    if ([...this.connections.values()].some((broker) => broker.running())) return;
    this.loadAssets().catch(() => undefined);
    this.warmed ??= this.readSnapshot();
  }

  /** The snapshot `warm` read ahead, else one read now. */
  private takeSnapshot(): Promise<ArrayBuffer | undefined> {
    const warmed = this.warmed;
    this.warmed = undefined;
    return warmed ?? this.readSnapshot();
  }

  /**
   * This build's snapshot: the kept one, else the shipped one (read anew for each worker, which takes it over: the page
   * holds no copy). On a first use nothing is kept, and the download starts at once, beside reading Pyodide's files.
   */
  private async readSnapshot(): Promise<ArrayBuffer | undefined> {
    let shipped = (await this.hasSnapshot()) ? undefined : this.fetchShipped();
    try {
      const { snapshotKey } = await this.loadAssets();
      const response = await (await caches.open(PYTHON_SNAPSHOT_CACHE)).match(snapshotKey);
      if (response) {
        void shipped?.catch(() => undefined);
        return await response.arrayBuffer();
      }
    } catch {
      // No Cache Storage (a private window may refuse it): the shipped one, or Python starts the long way.
    }
    shipped ??= this.fetchShipped();
    return shipped.catch(() => undefined);
  }

  /**
   * The snapshot the build ships, kept for the next workers (inflated, later: see keepSnapshot); rejects when there is
   * none or it fails.
   */
  private async fetchShipped(): Promise<ArrayBuffer> {
    if (!SHIPPED_SNAPSHOT) throw new Error("this build ships no snapshot");
    const response = await fetch(new URL(`${this.base}${SHIPPED_SNAPSHOT}`, location.href));
    if (!response.ok) throw new Error(`the snapshot answered ${response.status}`);
    const bytes = await response.arrayBuffer();
    // A copy: the worker takes `bytes` over.
    void this.keepSnapshot(bytes.slice(0));
    return bytes;
  }

  /** Whether any snapshot is kept (an older build's counts: Python was used here), without reading Pyodide's files. */
  private async hasSnapshot(): Promise<boolean> {
    try {
      return (
        (await caches.has(PYTHON_SNAPSHOT_CACHE)) &&
        (await (await caches.open(PYTHON_SNAPSHOT_CACHE)).keys()).length > 0
      );
    } catch {
      return false;
    }
  }

  /**
   * Keeps `bytes` (the shipped snapshot, or one a worker made) as this build's, replacing any other build's. Kept
   * inflated, so later workers skip inflating it (0.3 to 0.6 s on a 2-core machine). Not at once: storing about 30 MB
   * holds the page's main thread for a while, and the first worker is starting. The body is streamed: from an
   * ArrayBuffer, Chromium copied 30 MB in one task of 0.4 to 0.8 s here; streamed, its longest task was about 0.16 s.
   */
  private async keepSnapshot(bytes: ArrayBuffer): Promise<void> {
    if (bytes.byteLength === 0 || bytes.byteLength > MAX_SNAPSHOT_BYTES) return;
    await laterWhenIdle();
    try {
      const { snapshotKey } = await this.loadAssets();
      const cache = await caches.open(PYTHON_SNAPSHOT_CACHE);
      for (const request of await cache.keys()) if (request.url !== snapshotKey) await cache.delete(request);
      const stored = new Blob([bytes]).stream();
      const body = isGzippedSnapshot(bytes)
        ? stored.pipeThrough(new DecompressionStream("gzip")).pipeThrough(atMost(MAX_SNAPSHOT_BYTES))
        : stored;
      await cache.put(snapshotKey, new Response(body, { headers: { "Content-Type": "application/octet-stream" } }));
    } catch {
      // Storage full or refused, or a shipped snapshot that does not inflate: the next worker fetches the shipped one
      // again (or starts Python the long way).
    }
  }

  private loadAssets(): Promise<PythonAssets> {
    this.assets ??= readAssets(this.base).catch((error: unknown) => {
      this.assets = undefined;
      throw error;
    });
    return this.assets;
  }
}

/** After KEEP_SNAPSHOT_DELAY_MS, at an idle moment of the page. */
function laterWhenIdle(): Promise<void> {
  return new Promise((resolve) =>
    setTimeout(() => {
      if (typeof requestIdleCallback === "function") {
        requestIdleCallback(() => resolve(), { timeout: KEEP_SNAPSHOT_IDLE_TIMEOUT_MS });
      } else resolve();
    }, KEEP_SNAPSHOT_DELAY_MS),
  );
}

/** Passes at most `limit` bytes on, and fails the stream past that. */
function atMost(limit: number): TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>> {
  let size = 0;
  return new TransformStream({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > limit) controller.error(new Error("the snapshot inflates to more than a snapshot can be"));
      else controller.enqueue(chunk);
    },
  });
}

/**
 * Reads Pyodide's files and the python worker's source. The worker must be one self-contained module (it runs from a
 * `data:` URL): the build makes it so, and in `vite dev` scripts/vite-plugin-pyodide.ts bundles it on request.
 */
async function readAssets(base: string): Promise<PythonAssets> {
  const indexURL = new URL(`${base}pyodide/`, location.href).href;
  const read = async (url: string) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return response;
  };
  const [workerSource, ...bytes] = await Promise.all([
    read(new URL(import.meta.env.DEV ? `${base}@fawn/python.worker.js` : pythonWorkerUrl, location.href).href).then(
      (response) => response.text(),
    ),
    ...PYODIDE_CORE_FILES.map((name) => read(`${indexURL}${name}`).then((response) => response.arrayBuffer())),
  ]);
  const files = Object.fromEntries(PYODIDE_CORE_FILES.map((name, i) => [name, bytes[i]!]));
  // The package host is the one of the Pyodide served here (its lock file names its version).
  const lock = JSON.parse(new TextDecoder().decode(files["pyodide-lock.json"])) as { info: { version: string } };
  // A snapshot holds what the worker's code set up in Python: a new worker (or Pyodide) means a new one.
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(`${lock.info.version}\n${workerSource}`),
  );
  const build = [...new Uint8Array(digest).slice(0, 16)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return {
    workerSource,
    files,
    indexURL,
    packageBaseUrl: pyodidePackageBaseUrl(lock.info.version),
    snapshotKey: `${indexURL}interpreter-snapshot?build=${build}`,
  };
}

/** Where a broker's workers get their snapshot from and hand a new one to. */
interface SnapshotStore {
  read(): Promise<ArrayBuffer | undefined>;
  keep(bytes: ArrayBuffer): Promise<void>;
  has(): Promise<boolean>;
}

interface LiveFrame {
  /** Removes the frame, which ends its worker. */
  remove(): void;
  failed: Promise<string>;
}

class FrameBroker implements PythonFrames {
  private readonly frames = new Map<number, LiveFrame>();
  private nextId = 1;

  constructor(
    private readonly assets: () => Promise<PythonAssets>,
    private readonly frameUrl: string,
    private readonly snapshots: SnapshotStore,
  ) {}

  async spawn(): Promise<{ id: number; port: MessagePort }> {
    const id = this.nextId++;
    // Read while Pyodide's files are read and the frame loads.
    const snapshot = this.snapshots.read();
    const reading = this.assets();
    const element = document.createElement("iframe");
    element.src = this.frameUrl;
    element.title = "Python";
    element.hidden = true;
    element.setAttribute("aria-hidden", "true");
    element.tabIndex = -1;
    let onReport: (report: PythonFrameReport) => void = () => undefined;
    const listener = (event: MessageEvent<PythonFrameReport>) => {
      if (event.source === element.contentWindow && event.origin === location.origin) onReport(event.data);
    };
    window.addEventListener("message", listener);
    let fail: (reason: string) => void = () => undefined;
    const failed = new Promise<string>((resolve) => (fail = resolve));
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the Python frame did not load")), FRAME_READY_TIMEOUT_MS);
      onReport = (report) => {
        if (report.type === "fawn-python-ready") {
          clearTimeout(timer);
          resolve();
        } else if (report.type === "fawn-python-failed") {
          clearTimeout(timer);
          reject(new Error(report.reason));
          fail(report.reason);
        }
      };
    });
    const remove = () => {
      window.removeEventListener("message", listener);
      element.remove();
    };
    this.frames.set(id, { remove, failed });
    document.body.append(element);
    let assets: PythonAssets;
    try {
      [assets] = await Promise.all([reading, ready]);
    } catch (error) {
      remove();
      this.frames.delete(id);
      throw error;
    }
    const { port1, port2 } = new MessageChannel();
    const start: PythonFrameStart = {
      type: "fawn-python-start",
      workerSource: assets.workerSource,
      // Copied, not moved: the page keeps its copy for the next frame.
      files: assets.files,
      indexURL: assets.indexURL,
      packageBaseUrl: assets.packageBaseUrl,
    };
    const bytes = await snapshot;
    if (bytes) start.snapshot = bytes;
    element.contentWindow?.postMessage(start, location.origin, bytes ? [port1, bytes] : [port1]);
    return Comlink.transfer({ id, port: port2 }, [port2]);
  }

  /** Whether a Python worker of this broker is up or starting. */
  running(): boolean {
    return this.frames.size > 0;
  }

  failure(id: number): Promise<string> {
    return this.frames.get(id)?.failed ?? Promise.resolve("");
  }

  terminate(id: number): void {
    const frame = this.frames.get(id);
    this.frames.delete(id);
    frame?.remove();
  }

  keepSnapshot(bytes: ArrayBuffer): Promise<void> {
    return this.snapshots.keep(bytes);
  }

  hasSnapshot(): Promise<boolean> {
    return this.snapshots.has();
  }

  dispose(): void {
    for (const id of [...this.frames.keys()]) this.terminate(id);
  }
}
