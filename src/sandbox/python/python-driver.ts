// The Python half of a run: the driver PythonCore loads once into each Pyodide interpreter, and the parameters it
// takes for each run.

/** The file name the driver's own frames carry in tracebacks. */
export const DRIVER_FILENAME = "<fawn>";

/** What the Python driver needs for one run (sent as JSON). */
export interface DriverParams {
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
export const DRIVER = `
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
    # Every run is a new python3 process: its random numbers are new too, also when the interpreter started from a
    # snapshot that had already seeded them (every snapshot's interpreter would otherwise draw the same ones).
    if "random" in sys.modules:
        sys.modules["random"].seed()
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
