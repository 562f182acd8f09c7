// Makes the interpreter snapshot the build ships (scripts/vite-plugin-pyodide.ts runs this in a child process, with
// tsx): Pyodide from node_modules, loaded and set up exactly as the browser's python worker does it
// (src/sandbox/python/python-snapshot.ts, PythonCore), its memory taken before any program ran, gzipped to `outFile`.
// A first visit's first python3 starts from it instead of initialising Python. Usage: <pyodide folder> <out file>.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { PythonCore, type PyodideRuntime } from "../src/sandbox/python/python-core.ts";
import { pyodidePackageBaseUrl } from "../src/sandbox/python/python-frame-protocol.ts";
import { PYODIDE_ENV } from "../src/sandbox/python/python-snapshot.ts";

interface SnapshotRuntime extends PyodideRuntime {
  makeMemorySnapshot(): Uint8Array;
}

const [dir, outFile] = process.argv.slice(2);
if (!dir || !outFile) throw new Error("usage: python-snapshot.ts <pyodide folder> <out file>");
const { loadPyodide, version } = (await import(join(dir, "pyodide.mjs"))) as {
  loadPyodide(options: object): Promise<SnapshotRuntime>;
  version: string;
};
let snapshot: Uint8Array | undefined;
const core = new PythonCore(
  () =>
    loadPyodide({
      indexURL: `${dir}/`,
      packageBaseUrl: pyodidePackageBaseUrl(version),
      lockFileContents: readFileSync(join(dir, "pyodide-lock.json"), "utf8"),
      env: { ...PYODIDE_ENV },
      // Nothing of the build's terminal reaches the interpreter.
      stdin: () => null,
      stdout: () => undefined,
      stderr: () => undefined,
      _makeSnapshot: true,
    }),
  (runtime) => (snapshot = (runtime as SnapshotRuntime).makeMemorySnapshot()),
);
// `--version` sets the interpreter up (and so takes the snapshot) and runs no program.
const { result } = await core.run({ argv: ["--version"], cwd: "/", files: {}, timeoutMs: 60_000 });
if (!snapshot || result.exitCode !== 0) throw new Error(`Python did not start: ${result.stderr}`);
writeFileSync(outFile, gzipSync(snapshot, { level: 9 }));
