// Builds the IndexedDB benchmark page (bench/idb-browser/) on its own, into a temporary folder: the benchmark needs
// no build of the app and writes nothing into the worktree.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/** Where the page is built; bench/idb-browser.ts serves it from there. */
export const OUT_DIR = join(tmpdir(), "fawn-bench-idb-browser");

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  publicDir: false,
  logLevel: "warn",
  build: { outDir: OUT_DIR, emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 4096 },
  // Cross-origin isolated, as the app is: performance.now() then has its fine resolution (5 µs, not 100 µs).
  preview: {
    headers: { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" },
  },
});
