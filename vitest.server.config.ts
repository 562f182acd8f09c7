import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// The server's integration tests (test/server): real HTTP against `npm run server`'s code or its processes, an
// embedded Postgres (PGlite) or Debian's Postgres, LangGraph's own SDK as the client, only the model scripted.
export default defineConfig({
  test: {
    include: ["test/server/**/*.test.ts"],
    environment: "node",
    // Vitest runs one file at a time on 2 cores (cores - 1); its files wait on timers, sockets and child processes
    // often enough that two at a time finish the suite in about two thirds of the time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
