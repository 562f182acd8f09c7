// Runs one PythonRunRequest in a warm Pyodide, like CPython's command line: the thread's files are mirrored into
// Pyodide's memory file system at their virtual paths, wiped before the next run, and what the program changed under
// /mnt/user-data is handed back. Runtime-neutral: the caller supplies the loader (browser worker or Node thread).
import { joinPath, SKILLS_ROOT, USER_DATA_DIRS, USER_DATA_ROOT } from "../sandbox.ts";
import type { PythonRunRequest, PythonRunResult } from "./python-runner.ts";

/** The part of Emscripten's FS that the core uses. */
export interface PyodideFileSystem {
  analyzePath(path: string): { exists: boolean };
  lstat(path: string): { mode: number };
  isDir(mode: number): boolean;
  isFile(mode: number): boolean;
  readdir(path: string): string[];
  readFile(path: string): Uint8Array;
  writeFile(path: string, data: Uint8Array): void;
  mkdirTree(path: string): void;
  unlink(path: string): void;
  rmdir(path: string): void;
}

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

/** Wiped before every run, so one thread's files never reach another's program. */
const SCRATCH_ROOTS = [USER_DATA_ROOT, SKILLS_ROOT, "/tmp"];
const DRIVER_FILENAME = "<fawn>";
const USAGE = "usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...";
/** Short options CPython accepts that change nothing here. */
const IGNORED_FLAGS = new Set("bBdEIOPqsSu");
/** A program's sibling modules are scanned for package imports too, up to this many. */
const MAX_SCANNED_MODULES = 50;

/** What a `python3` command line asks for. */
export type PythonInvocation =
  | { kind: "code"; source: string; argv: string[] }
  | { kind: "stdin"; argv: string[] }
  | { kind: "file"; path: string; argv: string[] }
  | { kind: "module"; name: string; argv: string[] }
  | { kind: "version" }
  | { kind: "help" }
  | { kind: "usage"; message: string };

/** Reads `python3`'s arguments the way CPython does (options first, then the program and its arguments). */
export function parsePythonArgs(args: string[]): PythonInvocation {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const rest = args.slice(index + 1);
    if (arg === "--version") return { kind: "version" };
    if (arg === "--help") return { kind: "help" };
    if (arg === "--") return rest.length === 0 ? { kind: "stdin", argv: [""] } : fileInvocation(rest);
    if (arg === "-") return { kind: "stdin", argv: ["-", ...rest] };
    if (!arg.startsWith("-")) return fileInvocation(args.slice(index));
    if (arg.startsWith("--")) return { kind: "usage", message: `unknown option ${arg}` };
    for (let at = 1; at < arg.length; at++) {
      const flag = arg[at]!;
      if (IGNORED_FLAGS.has(flag)) continue;
      if (flag === "V") return { kind: "version" };
      if (flag === "h" || flag === "?") return { kind: "help" };
      if (flag === "c" || flag === "m" || flag === "W" || flag === "X") {
        const attached = arg.slice(at + 1);
        const value = attached !== "" ? attached : rest.shift();
        if (value === undefined) return { kind: "usage", message: `Argument expected for the -${flag} option` };
        if (flag === "c") return { kind: "code", source: value, argv: ["-c", ...rest] };
        if (flag === "m") return { kind: "module", name: value, argv: ["-m", ...rest] };
        if (attached === "") index++;
        break;
      }
      return { kind: "usage", message: `Unknown option: -${flag}` };
    }
  }
  return { kind: "stdin", argv: [""] };
}

function fileInvocation(args: string[]): PythonInvocation {
  return { kind: "file", path: args[0]!, argv: args };
}

/** What the Python driver needs for one run (sent as JSON). */
interface DriverParams {
  mode: "source" | "file" | "module";
  /** The program text (source), the absolute file path (file) or the module name (module). */
  target: string;
  filename: string;
  argv: string[];
  cwd: string;
  path0: string;
  env: Record<string, string>;
  /** Why a package download failed in this run, if one did. */
  packageError: string;
}

// Defines `_fawn_run(params_json) -> exit code` in Pyodide's __main__; loaded once per interpreter. Each run gets a
// fresh __main__ module and fresh stdio objects; argv, sys.path, the environment, the working directory, warning
// filters and logging handlers are restored after it, and modules imported from the thread's files are forgotten.
// A plain template (String.raw would be a call, which keeps this text in every bundle importing the module), so the
// Python code has no backslashes.
const DRIVER = `
import builtins, gc, importlib, json, os, sys, traceback, types, warnings

sys.dont_write_bytecode = True
os.environ.setdefault("MPLBACKEND", "Agg")
os.environ.setdefault("MPLCONFIGDIR", "/home/pyodide/.config/matplotlib")
os.environ.pop("PYTHONINSPECT", None)
_fawn_env = dict(os.environ)
_fawn_path = list(sys.path)
_fawn_warning_filters = list(warnings.filters)
_FAWN_USER_ROOTS = ("/mnt/", "/tmp/")
_FAWN_SKIPPED_FILES = {"${DRIVER_FILENAME}", "<frozen runpy>"}


def _fawn_exit_code(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        print(code, file=sys.stderr)
    except Exception:
        pass
    return 1


def _fawn_print_exception(error, package_error):
    import runpy
    tb = error.__traceback__
    while tb is not None and (
        tb.tb_frame.f_code.co_filename in _FAWN_SKIPPED_FILES or tb.tb_frame.f_code.co_filename == runpy.__file__
    ):
        tb = tb.tb_next
    name = (getattr(error, "name", None) or "").split(".")[0]
    if isinstance(error, ModuleNotFoundError) and name in _fawn_packages:
        if package_error:
            reason = f"it is one of Pyodide's packages ({_fawn_packages[name]}), downloaded on first use, and the download failed ({package_error}). It needs a network connection; the Python standard library works offline."
        else:
            reason = f"it is one of Pyodide's packages ({_fawn_packages[name]}), loaded only when the program has 'import {name}' in its main script or in a module beside it."
        error = ModuleNotFoundError(f"No module named '{name}': {reason}", name=error.name)
    traceback.print_exception(type(error), error, tb)


def _fawn_reset_state(saved_main):
    sys.modules["__main__"] = saved_main
    for name, module in list(sys.modules.items()):
        if (getattr(module, "__file__", None) or "").startswith(_FAWN_USER_ROOTS):
            del sys.modules[name]
    for key in [key for key in sys.path_importer_cache if key.startswith(_FAWN_USER_ROOTS)]:
        del sys.path_importer_cache[key]
    sys.argv = [""]
    sys.path[:] = _fawn_path
    os.environ.clear()
    os.environ.update(_fawn_env)
    os.chdir("/")
    warnings.filters[:] = _fawn_warning_filters
    if "logging" in sys.modules:
        import logging
        for handler in list(logging.root.handlers):
            logging.root.removeHandler(handler)
        logging.root.setLevel(logging.WARNING)
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
    if "matplotlib" in sys.modules:
        sys.modules["matplotlib"].rcdefaults()
    gc.collect()


def _fawn_run(params_json):
    params = json.loads(params_json)
    stdin = open(0, "r", encoding="utf-8", errors="surrogateescape", closefd=False)
    stdout = open(1, "w", encoding="utf-8", errors="surrogateescape", closefd=False)
    stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False, buffering=1)
    sys.stdin, sys.stdout, sys.stderr = stdin, stdout, stderr
    os.environ.update(params["env"])
    os.chdir(params["cwd"])
    sys.argv = params["argv"]
    sys.path[:] = [params["path0"], *_fawn_path]
    importlib.invalidate_caches()
    saved_main = sys.modules["__main__"]
    main = types.ModuleType("__main__")
    main.__builtins__ = builtins
    code = 0
    try:
        if params["mode"] == "module":
            import runpy
            runpy.run_module(params["target"], run_name="__main__", alter_sys=True)
        else:
            if params["mode"] == "file":
                main.__file__ = params["target"]
                with open(params["target"], "rb") as file:
                    source = file.read()
            else:
                source = params["target"]
            sys.modules["__main__"] = main
            exec(compile(source, params["filename"], "exec"), main.__dict__)
    except SystemExit as error:
        code = _fawn_exit_code(error.code)
    except BaseException as error:
        _fawn_print_exception(error, params["packageError"])
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr, stdout, stderr):
            try:
                stream.flush()
            except Exception:
                pass
        sys.stdin, sys.stdout, sys.stderr = sys.__stdin__, sys.__stdout__, sys.__stderr__
        del main
        try:
            _fawn_reset_state(saved_main)
        except Exception:
            traceback.print_exc(file=sys.__stderr__)
    return code
`;

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

/** Empties the scratch roots. */
function clearScratch(FS: PyodideFileSystem): void {
  for (const root of SCRATCH_ROOTS) {
    if (FS.analyzePath(root).exists) for (const name of entries(FS, root)) remove(FS, `${root}/${name}`);
  }
}

/** Empties the scratch roots, then writes the request's directories and files at their virtual paths. */
function prepareFileSystem(FS: PyodideFileSystem, request: PythonRunRequest): void {
  clearScratch(FS);
  for (const dir of [...USER_DATA_DIRS, SKILLS_ROOT, "/tmp", ...(request.directories ?? []).filter(isMirrored)]) {
    FS.mkdirTree(dir);
  }
  for (const [path, bytes] of Object.entries(request.files)) {
    if (!isMirrored(path)) continue;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")) || "/");
    FS.writeFile(path, bytes);
  }
  FS.mkdirTree(request.cwd);
}

/** Only the sandbox's virtual areas are mirrored: a request can never overwrite the interpreter's own files. */
function isMirrored(path: string): boolean {
  return path.startsWith(`${USER_DATA_ROOT}/`) || path.startsWith(`${SKILLS_ROOT}/`);
}

function entries(FS: PyodideFileSystem, dir: string): string[] {
  return FS.readdir(dir).filter((name) => name !== "." && name !== "..");
}

function remove(FS: PyodideFileSystem, path: string): void {
  if (FS.isDir(FS.lstat(path).mode)) {
    for (const name of entries(FS, path)) remove(FS, `${path}/${name}`);
    FS.rmdir(path);
  } else {
    FS.unlink(path);
  }
}

interface Tree {
  files: Set<string>;
  dirs: Set<string>;
}

/** Every regular file and directory under `root`; symbolic links are skipped. */
function walk(FS: PyodideFileSystem, root: string): Tree {
  const tree: Tree = { files: new Set(), dirs: new Set() };
  const visit = (dir: string) => {
    for (const name of entries(FS, dir)) {
      const path = `${dir}/${name}`;
      const { mode } = FS.lstat(path);
      if (FS.isDir(mode)) {
        tree.dirs.add(path);
        visit(path);
      } else if (FS.isFile(mode)) {
        tree.files.add(path);
      }
    }
  };
  visit(root);
  return tree;
}

/** What the program changed under /mnt/user-data: files by content, directories by existence. */
function diff(
  FS: PyodideFileSystem,
  request: PythonRunRequest,
  before: Tree,
  after: Tree,
): Pick<PythonRunResult, "written" | "deleted" | "createdDirectories" | "deletedDirectories"> {
  const written: Record<string, Uint8Array> = {};
  for (const path of after.files) {
    const bytes = FS.readFile(path);
    const original = request.files[path];
    if (original === undefined || !sameBytes(original, bytes)) written[path] = bytes;
  }
  return {
    written,
    deleted: [...before.files].filter((path) => !after.files.has(path)),
    createdDirectories: [...after.dirs].filter((dir) => !before.dirs.has(dir)),
    deletedDirectories: [...before.dirs].filter((dir) => !after.dirs.has(dir)),
  };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
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
