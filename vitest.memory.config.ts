import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// The Gateway integration tests over the in-memory store (src/storage/memory/), in a Node with no IndexedDB at all
// (FAWN_TEST_STORAGE=memory: test/integration/harness.ts loads no fake-indexeddb): the Gateway's services, the agent
// and MCP over any implementation of storage/contracts.ts. The same files run over IndexedDB in vitest.config.ts. A
// file that opens the database itself (openFawnDb, fake-indexeddb) is not listed here.
export default defineConfig({
  test: {
    include: [
      "test/integration/agent-modes.test.ts",
      "test/integration/composer-extras.test.ts",
      "test/integration/foreign-thread.test.ts",
      "test/integration/gateway-routes.test.ts",
      "test/integration/gateway-sandbox.test.ts",
      "test/integration/lead-agent-chain.test.ts",
      "test/integration/mcp-oauth.test.ts",
      "test/integration/mcp-tool-names.test.ts",
      "test/integration/mcp-tools.test.ts",
      "test/integration/memory-skills-subagents.test.ts",
      "test/integration/model-retry.test.ts",
      "test/integration/thread-bundle.test.ts",
      "test/integration/thread-delete-lock.test.ts",
      "test/integration/thread-share-link.test.ts",
    ],
    environment: "node",
    // Vitest runs one file at a time on 2 cores (cores - 1); its files wait on timers, sockets and child processes
    // often enough that two at a time finish the suite in about two thirds of the time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globals: true,
    testTimeout: 20_000,
    env: { FAWN_TEST_STORAGE: "memory" },
  },
});
