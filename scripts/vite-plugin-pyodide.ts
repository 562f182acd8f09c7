// Vite plugin: serves Pyodide's core files from our own origin at `<base>pyodide/` — copied from node_modules/pyodide
// into the build (where the service worker precaches them), and served straight from node_modules by `vite dev`.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
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

/** Copies PYODIDE_FILES to `<outDir>/pyodide/` at build time and serves them under `<base>pyodide/` in dev. */
export function pyodide(): Plugin {
  let dir = "";
  return {
    name: "fawn:pyodide",
    configResolved(config) {
      dir = pyodideDir(config.root);
    },
    generateBundle() {
      for (const name of PYODIDE_FILES) {
        this.emitFile({ type: "asset", fileName: `pyodide/${name}`, source: readFileSync(join(dir, name)) });
      }
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
