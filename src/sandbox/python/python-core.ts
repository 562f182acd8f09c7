// Runs one PythonRunRequest in a warm Pyodide, like CPython's command line: the thread's files are mirrored into
// Pyodide's memory file system at their virtual paths, wiped before the next run, and what the program changed under
// /mnt/user-data is handed back. Runtime-neutral: the caller supplies the loader (browser worker or Node thread).
// Its parts: the command line (python-args.ts), the Python driver (python-driver.ts), the files (python-file-system.ts).
import { joinPath, USER_DATA_ROOT } from "../sandbox.ts";
import { parsePythonArgs, USAGE, type PythonInvocation } from "./python-args.ts";
import { DRIVER, DRIVER_FILENAME, type DriverParams } from "./python-driver.ts";
import { clearScratch, diff, entries, prepareFileSystem, walk, type PyodideFileSystem } from "./python-file-system.ts";
import type { PythonRunRequest, PythonRunResult } from "./python-runner.ts";

interface PyodideWriter {
  write(buffer: Uint8Array): number;
}

/** The part of Pyodide's API that the core uses (`loadPyodide()` resolves to a superset). */
export interface PyodideRuntime {
  FS: PyodideFileSystem;
  /** The packages Pyodide can load, with the names they are imported by. */
  lockfile: { packages: Record<string, { imports: string[] }> };
  runPython(code: string, options?: { filename?: string }): unknown;
  setStdin(options: { read(buffer: Uint8Array): number }): void;
  setStdout(options: PyodideWriter): void;
  setStderr(options: PyodideWriter): void;
  loadPackagesFromImports(
    code: string,
    options?: { messageCallback?: (message: string) => void; errorCallback?: (message: string) => void },
  ): Promise<unknown>;
}

/** Called while a run is under way. */
export interface PythonRunHooks {
  /** The interpreter is loaded and the files are in place: the program's own time starts now. */
  onStarted?(): void;
  /** Output as the program writes it (already counted against the output limit). */
  onOutput?(stream: "stdout" | "stderr", bytes: Uint8Array): void;
}

/** A run's result, and whether the interpreter died with it (the host should then start a fresh one). */
export interface PythonCoreResult {
  result: PythonRunResult;
  fatal: boolean;
}

/** Output kept per stream; a program printing in an endless loop must not exhaust the worker's memory. */
export const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;

/** A program's sibling modules are scanned for package imports too, up to this many. */
const MAX_SCANNED_MODULES = 50;

class OutputCollector {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;
  private truncated = false;

  constructor(
    private readonly stream: "stdout" | "stderr",
    private readonly hooks: PythonRunHooks,
  ) {}

  /** A Pyodide writer: `buffer` is only valid during the call, so it is copied. */
  readonly writer: PyodideWriter = {
    write: (buffer) => {
      const room = MAX_OUTPUT_BYTES - this.size;
      if (buffer.length > room) this.truncated = true;
      if (room > 0) {
        const kept = buffer.slice(0, Math.min(room, buffer.length));
        this.chunks.push(kept);
        this.size += kept.length;
        this.hooks.onOutput?.(this.stream, kept);
      }
      return buffer.length;
    },
  };

  text(): string {
    const text = decodeChunks(this.chunks);
    return this.truncated ? `${text}\n[python3: ${this.stream} truncated after ${MAX_OUTPUT_BYTES} bytes]\n` : text;
  }
}

/** Decodes UTF-8 output chunks (a character may span two chunks). */
export function decodeChunks(chunks: Uint8Array[]): string {
  const decoder = new TextDecoder();
  return chunks.map((chunk) => decoder.decode(chunk, { stream: true })).join("") + decoder.decode();
}

interface Interpreter {
  runtime: PyodideRuntime;
  run: (paramsJson: string) => number;
  version: string;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** One warm Pyodide interpreter, running one request at a time. */
export class PythonCore {
  private interpreter: Promise<Interpreter> | undefined;

  /**
   * @param load Loads a fresh Pyodide (called once, and again after a failed load or a fatal run).
   * @param afterSetup Called with each interpreter once it is set up, before any program runs in it (the browser's
   * python worker takes its memory snapshot there).
   */
  constructor(
    private readonly load: () => Promise<PyodideRuntime>,
    private readonly afterSetup?: (runtime: PyodideRuntime) => void,
  ) {}

  /**
   * Runs `request` (its `timeoutMs` is the host's business) and returns what the program printed, its exit code and
   * what it changed under /mnt/user-data. Never rejects: a failure to start Python is exit code 1 with the reason.
   */
  async run(request: PythonRunRequest, hooks: PythonRunHooks = {}): Promise<PythonCoreResult> {
    const invocation = parsePythonArgs(request.argv);
    if (invocation.kind === "usage") {
      return done({ stderr: `${invocation.message}\n${USAGE}\nTry \`python -h' for more information.\n`, exitCode: 2 });
    }
    if (invocation.kind === "help") return done({ stdout: `${USAGE}\n`, exitCode: 0 });
    let interpreter: Interpreter;
    try {
      interpreter = await this.ready();
    } catch (error) {
      return done({ stderr: `python3: could not start Python: ${errorText(error)}\n`, exitCode: 1 });
    }
    if (invocation.kind === "version") return done({ stdout: `Python ${interpreter.version}\n`, exitCode: 0 });
    const { runtime } = interpreter;
    const FS = runtime.FS;
    try {
      prepareFileSystem(FS, request);
      const before = walk(FS, USER_DATA_ROOT);
      hooks.onStarted?.();
      const program = locateProgram(FS, invocation, request);
      if ("error" in program) return done({ stderr: program.error, exitCode: 2 });
      const packageErrors = await loadImportedPackages(runtime, program.scanned);
      const stdout = new OutputCollector("stdout", hooks);
      const stderr = new OutputCollector("stderr", hooks);
      runtime.setStdin({ read: byteReader(program.stdin) });
      runtime.setStdout(stdout.writer);
      runtime.setStderr(stderr.writer);
      const params: DriverParams = {
        ...program.params,
        cwd: request.cwd,
        env: request.env ?? {},
        packageError: packageErrors.join(" ").replace(/The following error occurred while loading (\S+?):/g, "$1:"),
      };
      try {
        const exitCode = interpreter.run(JSON.stringify(params));
        const changes = diff(FS, request, before, walk(FS, USER_DATA_ROOT));
        return { fatal: false, result: { stdout: stdout.text(), stderr: stderr.text(), exitCode, ...changes } };
      } catch (error) {
        // os._exit() and Wasm traps end the interpreter itself (Emscripten's ExitStatus carries os._exit's code).
        this.interpreter = undefined;
        const status = (error as { status?: unknown }).status;
        if (typeof status !== "number")
          stderr.writer.write(encoder.encode(`python3: Python crashed: ${errorText(error)}\n`));
        const exitCode = typeof status === "number" ? status : 1;
        const changes = tryOr(() => diff(FS, request, before, walk(FS, USER_DATA_ROOT)), { written: {}, deleted: [] });
        return { fatal: true, result: { stdout: stdout.text(), stderr: stderr.text(), exitCode, ...changes } };
      }
    } catch (error) {
      return done({ stderr: `python3: ${errorText(error)}\n`, exitCode: 1 });
    } finally {
      // The thread's files leave memory with the run; the next run wipes again in case this fails.
      tryOr(() => clearScratch(FS), undefined);
    }
  }

  private ready(): Promise<Interpreter> {
    this.interpreter ??= this.start().catch((error: unknown) => {
      this.interpreter = undefined;
      throw error;
    });
    return this.interpreter;
  }

  private async start(): Promise<Interpreter> {
    const runtime = await this.load();
    runtime.runPython(DRIVER, { filename: DRIVER_FILENAME });
    const packages = Object.entries(runtime.lockfile.packages).flatMap(([name, { imports }]) =>
      imports.map((module) => [module, name]),
    );
    runtime.runPython(`_fawn_packages = json.loads(${JSON.stringify(JSON.stringify(Object.fromEntries(packages)))})`);
    const run = runtime.runPython("_fawn_run") as (paramsJson: string) => number;
    const version = String(runtime.runPython("import platform; platform.python_version()"));
    this.afterSetup?.(runtime);
    return { runtime, run, version };
  }
}

function done(partial: { stdout?: string; stderr?: string; exitCode: number }): PythonCoreResult {
  return { fatal: false, result: { stdout: "", stderr: "", written: {}, deleted: [], ...partial } };
}

function tryOr<T>(action: () => T, fallback: T): T {
  try {
    return action();
  } catch {
    return fallback;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

type Program =
  | { error: string }
  | { params: Pick<DriverParams, "mode" | "target" | "filename" | "argv" | "path0">; stdin: string; scanned: string[] };

/** Finds the program to run: its source or file, its sys.path[0], its stdin, and the code to scan for imports. */
function locateProgram(
  FS: PyodideFileSystem,
  invocation: Extract<PythonInvocation, { kind: "code" | "stdin" | "file" | "module" }>,
  request: PythonRunRequest,
): Program {
  const stdin = request.stdin ?? "";
  const siblings = (dir: string, except?: string) => siblingModules(FS, dir, except);
  switch (invocation.kind) {
    case "code":
      return {
        params: {
          mode: "source",
          target: invocation.source,
          filename: "<string>",
          argv: invocation.argv,
          path0: request.cwd,
        },
        stdin,
        scanned: [invocation.source, ...siblings(request.cwd)],
      };
    case "stdin":
      return {
        params: { mode: "source", target: stdin, filename: "<stdin>", argv: invocation.argv, path0: request.cwd },
        stdin: "",
        scanned: [stdin, ...siblings(request.cwd)],
      };
    case "module":
      return {
        params: { mode: "module", target: invocation.name, filename: "", argv: invocation.argv, path0: request.cwd },
        stdin,
        scanned: [`import ${invocation.name}`, ...siblings(request.cwd)],
      };
    case "file": {
      let path = joinPath(request.cwd, invocation.path);
      const found = FS.analyzePath(path).exists ? FS.lstat(path).mode : undefined;
      if (found === undefined) {
        return { error: `python3: can't open file '${path}': [Errno 2] No such file or directory\n` };
      }
      let dir = path.slice(0, path.lastIndexOf("/")) || "/";
      if (FS.isDir(found)) {
        if (!FS.analyzePath(`${path}/__main__.py`).exists)
          return { error: `python3: can't find '__main__' module in '${path}'\n` };
        dir = path;
        path = `${path}/__main__.py`;
      }
      const source = decoder.decode(FS.readFile(path));
      return {
        params: { mode: "file", target: path, filename: path, argv: invocation.argv, path0: dir },
        stdin,
        scanned: [source, ...siblings(dir, path)],
      };
    }
  }
}

/** The sources of the .py files directly in `dir` (modules the program may import). */
function siblingModules(FS: PyodideFileSystem, dir: string, except?: string): string[] {
  if (!FS.analyzePath(dir).exists) return [];
  return entries(FS, dir)
    .filter((name) => name.endsWith(".py") && `${dir}/${name}` !== except)
    .slice(0, MAX_SCANNED_MODULES)
    .flatMap((name) => {
      const path = `${dir}/${name}`;
      return FS.isFile(FS.lstat(path).mode) ? [decoder.decode(FS.readFile(path))] : [];
    });
}

/** Loads the Pyodide packages the sources import; returns the download errors (offline, every one fails). */
async function loadImportedPackages(runtime: PyodideRuntime, sources: string[]): Promise<string[]> {
  const errors: string[] = [];
  for (const source of sources) {
    try {
      await runtime.loadPackagesFromImports(source, {
        messageCallback: () => undefined,
        errorCallback: (message) => errors.push(message.trim()),
      });
    } catch (error) {
      errors.push(errorText(error));
    }
  }
  return errors;
}

/** A Pyodide stdin reader over `text`, then end of file. */
function byteReader(text: string): (buffer: Uint8Array) => number {
  const bytes = encoder.encode(text);
  let offset = 0;
  return (buffer) => {
    const count = Math.min(buffer.length, bytes.length - offset);
    buffer.set(bytes.subarray(offset, offset + count));
    offset += count;
    return count;
  };
}
