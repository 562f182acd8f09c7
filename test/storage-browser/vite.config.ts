// Builds the storage contract page (test/storage-browser/) on its own, into a temporary folder: no build of the app,
// nothing written into the worktree.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export const OUT_DIR = join(tmpdir(), "fawn-storage-contract-browser");

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  publicDir: false,
  logLevel: "warn",
  build: { outDir: OUT_DIR, emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 4096 },
});
