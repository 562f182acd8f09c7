// Vite plugin: serves Pyodide's core files from our own origin at `<base>pyodide/` — copied from node_modules/pyodide
// into the build (where the service worker precaches them), and served straight from node_modules by `vite dev`.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Plugin } from "vite";

/** What workers/python.worker.ts loads (the loader, the interpreter, the standard library, the package index). */
const CONTENT_TYPES = {
  "pyodide.mjs": "text/javascript",
  "pyodide.asm.mjs": "text/javascript",
  "pyodide.asm.wasm": "application/wasm",
  "python_stdlib.zip": "application/zip",
  "pyodide-lock.json": "application/json",
} as const;

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
