// The messages that start a walled-off Python worker: the page (python-frame-host.ts) → the Python frame
// (python-frame.ts, in frames/python.html) → the `data:` worker (workers/python.worker.ts). Plain data and one
// MessagePort, which the worker keeps: from then on the sandbox worker and Python talk over it directly
// (python-worker-protocol.ts), and nothing of the page or the frame is in between.

/** Where Pyodide's optional packages (numpy, pandas, matplotlib…) come from: the official CDN, for this version. */
export function pyodidePackageBaseUrl(version: string): string {
  return `https://cdn.jsdelivr.net/pyodide/v${version}/full/`;
}

/** The files under `<base>pyodide/` that Pyodide needs to start, handed over as bytes (the worker cannot fetch). */
export const PYODIDE_CORE_FILES = [
  "pyodide.mjs",
  "pyodide.asm.mjs",
  "pyodide.asm.wasm",
  "python_stdlib.zip",
  "pyodide-lock.json",
] as const;

/** Page → frame (with the port in `event.ports[0]`), and frame → worker (the same message, the port moved on). */
export interface PythonFrameStart {
  type: "fawn-python-start";
  /** The python worker's bundled module source, started as a `data:` URL so its origin is opaque. */
  workerSource: string;
  /** Pyodide's core files by name (PYODIDE_CORE_FILES). */
  files: Record<string, ArrayBuffer>;
  /** The app's `<base>pyodide/` URL: Pyodide resolves its files against it, and the worker serves them from `files`. */
  indexURL: string;
  /** Where packages such as numpy come from when online; the frame's policy allows this prefix and nothing else. */
  packageBaseUrl: string;
  /**
   * A memory snapshot of a fresh interpreter of this very build to start from: the one the build ships, or one a
   * worker made (PythonSnapshotMessage). Without one the worker initialises Python and sends one back.
   */
  snapshot?: ArrayBuffer;
}

/** Frame → page: the frame is listening (`ready`), or the worker could not start (`failed`). */
export type PythonFrameReport = { type: "fawn-python-ready" } | { type: "fawn-python-failed"; reason: string };

/** One sandbox worker's handle on the page's Python frames (page/python-frame-host.ts; exposed with comlink). */
export interface PythonFrames {
  /** Starts a walled-off Python worker; `port` speaks python-worker-protocol.ts to it directly. */
  spawn(): Promise<{ id: number; port: MessagePort }>;
  /** Resolves with the reason when the worker `id` could not start (never, if it did). */
  failure(id: number): Promise<string>;
  /** Ends the worker `id` (its frame is removed); unknown ids are ignored. */
  terminate(id: number): void;
  /**
   * Keeps a fresh interpreter's memory snapshot (PythonSnapshotMessage) for the workers spawned after, in this page and
   * the next ones; opaque bytes to the page, which only ever hands them to python workers.
   */
  keepSnapshot(bytes: ArrayBuffer): Promise<void>;
  /** Whether a snapshot is kept, i.e. Python has been used in this browser and a new interpreter starts quickly. */
  hasSnapshot(): Promise<boolean>;
}

/** The page's side as the agent worker sees it: a broker port per sandbox worker it starts. */
export interface PythonFrameConnector {
  /** A new broker (exposing PythonFrames) for one sandbox worker; pass the port on to it. */
  connect(): { id: number; port: MessagePort };
  /** Ends every worker started through connection `id` (its sandbox worker was terminated). */
  disconnect(id: number): void;
  /**
   * A python3 is on its way (a command names it): starts reading what its worker needs (Pyodide's files, the
   * snapshot) while the sandbox worker starts, unless a Python worker is up in this page already.
   */
  warm(): void;
}
