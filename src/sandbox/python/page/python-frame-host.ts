// The page's side of python3 (docs/architecture.md#where-code-runs): Python runs in a worker that only a page can start walled off, in a
// frame document with its own Content-Security-Policy (frames/python.html), from a `data:` URL, so its origin is
// opaque. The sandbox worker asks for one such worker per thread through a PythonFrames broker, which the page hands
// to the agent worker (PythonFrameHost.connect) and the agent worker passes on to each sandbox worker it starts.
// Removing a frame ends its worker: that is how a runaway program is stopped.
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

/** How long a new frame may take to load and say it is listening. */
const FRAME_READY_TIMEOUT_MS = 30_000;

/** What a walled-off worker needs, read once per page from Fawn's own origin (the service worker's precache offline). */
interface PythonAssets {
  workerSource: string;
  files: Record<string, ArrayBuffer>;
  indexURL: string;
  packageBaseUrl: string;
}

/** The page's Python frames, one MessagePort per sandbox worker (see the module comment). */
export class PythonFrameHost implements PythonFrameConnector {
  private assets: Promise<PythonAssets> | undefined;
  private readonly connections = new Map<number, FrameBroker>();
  private nextConnection = 1;
  private readonly frameUrl: string;

  /** @param base The app's base URL (Vite's BASE_URL), which frames/ and pyodide/ are relative to. */
  constructor(private readonly base: string = import.meta.env.BASE_URL) {
    this.frameUrl = new URL(`${base}frames/python.html`, location.href).href;
  }

  /** A new broker for one sandbox worker; pass the port on to it (transferred). */
  connect(): { id: number; port: MessagePort } {
    const id = this.nextConnection++;
    const { port1, port2 } = new MessageChannel();
    const broker = new FrameBroker(() => this.loadAssets(), this.frameUrl);
    this.connections.set(id, broker);
    Comlink.expose(broker, port1);
    return Comlink.transfer({ id, port: port2 }, [port2]);
  }

  /** Ends every worker started through connection `id` (its sandbox worker was terminated). */
  disconnect(id: number): void {
    this.connections.get(id)?.dispose();
    this.connections.delete(id);
  }

  private loadAssets(): Promise<PythonAssets> {
    this.assets ??= readAssets(this.base).catch((error: unknown) => {
      this.assets = undefined;
      throw error;
    });
    return this.assets;
  }
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
  return { workerSource, files, indexURL, packageBaseUrl: pyodidePackageBaseUrl(lock.info.version) };
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
  ) {}

  async spawn(): Promise<{ id: number; port: MessagePort }> {
    const id = this.nextId++;
    const assets = await this.assets();
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
    try {
      await ready;
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
    element.contentWindow?.postMessage(start, location.origin, [port1]);
    return Comlink.transfer({ id, port: port2 }, [port2]);
  }

  failure(id: number): Promise<string> {
    return this.frames.get(id)?.failed ?? Promise.resolve("");
  }

  terminate(id: number): void {
    const frame = this.frames.get(id);
    this.frames.delete(id);
    frame?.remove();
  }

  dispose(): void {
    for (const id of [...this.frames.keys()]) this.terminate(id);
  }
}
