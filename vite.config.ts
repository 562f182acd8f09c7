import { defineConfig } from "vite";
import solid from "vite-plugin-solid";

// The page (SolidJS UI) and the agent worker are separate bundles; the worker is an ES module so it can split.
export default defineConfig({
  plugins: [solid()],
  worker: { format: "es" },
  build: {
    target: "es2022",
    sourcemap: true,
    chunkSizeWarningLimit: 4096,
  },
  server: { host: "127.0.0.1", port: 5173 },
  preview: { host: "127.0.0.1", port: 4173 },
});
