import { defineConfig } from "vitest/config";

// Benchmarks that need Vite's transforms (import.meta.glob) run under vitest; they print numbers and assert nothing.
export default defineConfig({
  test: {
    include: ["bench/**/*.bench-run.ts"],
    environment: "node",
    testTimeout: 600_000,
  },
});
