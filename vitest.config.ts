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
  },
});
