import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Unit tests: next to the code, in Node. Build checks (dist/) have their own config, e2e runs in Playwright.
export default defineConfig({
  test: {
    include: [
      "src/**/*.test.ts",
      "src/**/*.test.tsx",
      "workers/**/*.test.ts",
      "proxy/**/*.test.ts",
      "server/**/*.test.ts",
      "test/mock-llm/**/*.test.ts",
      "test/integration/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
    environment: "node",
    // Vitest runs one file at a time on 2 cores (cores - 1); its files wait on timers, sockets and child processes
    // often enough that two at a time finish the suite in about two thirds of the time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // @langchain/langgraph-checkpoint-validation's spec files use the global describe/it/expect.
    globals: true,
    testTimeout: 20_000,
  },
});
