// Vite plugin: serves Pyodide's core files from our own origin at `<base>pyodide/` — copied from node_modules/pyodide
// into the build (where the service worker precaches them), and served straight from node_modules by `vite dev`. The
// build also ships an interpreter snapshot there (scripts/python-snapshot.ts), which a first python3 starts from.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { build, type Plugin, type Rollup } from "vite";

/** What workers/python.worker.ts loads (the loader, the interpreter, the standard library, the package index). */
const CONTENT_TYPES = {
  "pyodide.mjs": "text/javascript",
  "pyodide.asm.mjs": "text/javascript",
  "pyodide.asm.wasm": "application/wasm",
  "python_stdlib.zip": "application/zip",
  "pyodide-lock.json": "application/json",
} as const;

/**
 * Where `vite dev` serves the python worker as one bundled module (src/sandbox/python/page/python-frame-host.ts asks
 * for it in dev): the worker runs from a `data:` URL, where the dev server's unbundled imports cannot resolve.
 */
export const DEV_PYTHON_WORKER = "@fawn/python.worker.js";

/** The python worker (workers/python.worker.ts) bundled into one ES module, as the production build makes it. */
async function bundlePythonWorker(root: string): Promise<string> {
  const result = (await build({
    configFile: false,
    root,
    logLevel: "silent",
    build: {
      write: false,
      minify: false,
      lib: { entry: join(root, "workers/python.worker.ts"), formats: ["es"], fileName: "python.worker" },
    },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const outputs = Array.isArray(result) ? result : [result];
  const chunk = outputs.flatMap((output) => output.output).find((item) => item.type === "chunk" && item.isEntry);
  if (!chunk || chunk.type !== "chunk") throw new Error("bundling workers/python.worker.ts produced no entry chunk");
  return chunk.code;
}

/** The files served under `<base>pyodide/`. */
export const PYODIDE_FILES = Object.keys(CONTENT_TYPES) as (keyof typeof CONTENT_TYPES)[];

/** The folder of the installed `pyodide` package, as seen from `root`. */
function pyodideDir(root: string): string {
  return dirname(createRequire(join(root, "package.json")).resolve("pyodide/package.json"));
}

/**
 * The build-time constant that tells the page where the shipped snapshot is (relative to the base URL), or "" when
 * there is none (`vite dev`: the browser makes its own, as when a shipped one cannot be used).
 */
export const SNAPSHOT_CONSTANT = "import.meta.env.FAWN_PYTHON_SNAPSHOT";

/** What a snapshot is made of besides Pyodide: the setup code (a change to any of these makes a new snapshot). */
const SNAPSHOT_SOURCES = [
  "scripts/python-snapshot.ts",
  "src/sandbox/python/python-snapshot.ts",
  "src/sandbox/python/python-core.ts",
  "src/sandbox/python/python-driver.ts",
];

/**
 * The shipped snapshot's path: named by what it is made of, so a host or cache never serves one of another build
 * under the same name, and a build that changes none of it keeps the name.
 */
function snapshotPath(root: string, dir: string): string {
  const hash = createHash("sha256");
  for (const name of PYODIDE_FILES) hash.update(readFileSync(join(dir, name)));
  for (const name of SNAPSHOT_SOURCES) hash.update(readFileSync(join(root, name)));
  return `pyodide/interpreter-${hash.digest("hex").slice(0, 16)}.snapshot`;
}

/** Runs scripts/python-snapshot.ts in a child process (its Pyodide never shares the build's memory); the gzip bytes. */
function makeSnapshot(root: string, dir: string): Promise<Buffer> {
  const folder = mkdtempSync(join(tmpdir(), "fawn-snapshot-"));
  const out = join(folder, "snapshot.gz");
  return new Promise<Buffer>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(root, "scripts/python-snapshot.ts"), dir, out], {
      cwd: root,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0) resolve(readFileSync(out));
      else reject(new Error(`making the Python snapshot failed (exit ${code}): ${stderr}`));
    });
  }).finally(() => rmSync(folder, { recursive: true, force: true }));
}

/**
 * Copies PYODIDE_FILES to `<outDir>/pyodide/` at build time, with the interpreter snapshot made then (in parallel with
 * the rest of the build), and serves the files under `<base>pyodide/` in dev.
 */
export function pyodide(): Plugin {
  let root = "";
  let dir = "";
  let snapshotFile = "";
  let snapshot: Promise<Buffer> | undefined;
  return {
    name: "fawn:pyodide",
    config(config, { command }) {
      const from = config.root ?? process.cwd();
      snapshotFile = command === "build" ? snapshotPath(from, pyodideDir(from)) : "";
      return { define: { [SNAPSHOT_CONSTANT]: JSON.stringify(snapshotFile) } };
    },
    configResolved(config) {
      root = config.root;
      dir = pyodideDir(root);
    },
    buildStart() {
      if (!snapshotFile || snapshot) return;
      snapshot = makeSnapshot(root, dir);
      // Awaited in generateBundle; a build that fails before that must not also die of an unhandled rejection.
      snapshot.catch(() => undefined);
    },
    async generateBundle() {
      for (const name of PYODIDE_FILES) {
        this.emitFile({ type: "asset", fileName: `pyodide/${name}`, source: readFileSync(join(dir, name)) });
      }
      if (snapshot) this.emitFile({ type: "asset", fileName: snapshotFile, source: await snapshot });
    },
    configureServer(server) {
      const prefix = `${server.config.base}pyodide/`;
      server.middlewares.use((request, response, next) => {
        const path = request.url?.split("?")[0];
        if (path === `${server.config.base}${DEV_PYTHON_WORKER}`) {
          bundlePythonWorker(server.config.root).then(
            (code) => {
              response.setHeader("Content-Type", "text/javascript");
              response.end(code);
            },
            (error: unknown) => next(error),
          );
          return;
        }
        const name = PYODIDE_FILES.find((file) => path === `${prefix}${file}`);
        if (name === undefined) return next();
        // This middleware answers before Vite's own, which would add `server.headers` (cross-origin isolation).
        for (const [header, value] of Object.entries(server.config.server.headers ?? {})) {
          if (value !== undefined) response.setHeader(header, value);
        }
        response.setHeader("Content-Type", CONTENT_TYPES[name]);
        response.end(readFileSync(join(dir, name)));
      });
    },
  };
}
