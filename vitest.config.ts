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
    // @langchain/langgraph-checkpoint-validation's spec files use the global describe/it/expect.
    globals: true,
    testTimeout: 20_000,
    // Files share a worker's module cache instead of each importing LangChain, zod and the app afresh: the suite's
    // CPU time drops by about a third. So a test leaves the globals it changes as it found them (vi.unstubAllGlobals,
    // a deleted global put back), and module state is never a test's precondition.
    isolate: false,
  },
});
