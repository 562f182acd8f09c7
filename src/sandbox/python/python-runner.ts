// How the browser sandbox runs python3: a runner that executes one program over a snapshot of the thread's
// files and hands back what changed. The browser runner hosts Pyodide in its own worker so a runaway script can be
// terminated; tests use the same core in a Node worker thread.

export interface PythonRunRequest {
  /** Arguments after `python3`, e.g. ["-c", "print(1)"], ["script.py", "a"], [] (program read from stdin). */
  argv: string[];
  stdin?: string;
  /** Absolute virtual working directory (under /mnt/user-data or /mnt/skills). */
  cwd: string;
  /** Every file the program may see, by absolute virtual path (/mnt/user-data/**, /mnt/skills/**). */
  files: Record<string, Uint8Array>;
  /** Directories to create as well (empty ones would otherwise be missing), by absolute virtual path. */
  directories?: string[];
  env?: Record<string, string>;
  timeoutMs: number;
}

export interface PythonRunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Files under /mnt/user-data that the program created or changed, by absolute virtual path. */
  written: Record<string, Uint8Array>;
  /** Files under /mnt/user-data that the program deleted. */
  deleted: string[];
  /** Directories under /mnt/user-data that the program created (parents of `written` files included). */
  createdDirectories?: string[];
  /** Directories under /mnt/user-data that the program removed. */
  deletedDirectories?: string[];
  /** Set when the runner ended the program (its worker is then replaced). */
  stopped?: "timeout" | "cancelled";
}

export interface PythonRunner {
  run(request: PythonRunRequest, signal?: AbortSignal): Promise<PythonRunResult>;
  /** Ends the runner's worker, if one is running. */
  dispose(): void;
}
