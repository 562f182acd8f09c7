import { defineConfig } from "vitest/config";

// The server's integration tests (test/server): real HTTP against `npm run server`'s code or its processes, an
// embedded Postgres (PGlite) or Debian's Postgres, LangGraph's own SDK as the client, only the model scripted.
export default defineConfig({
  test: {
    include: ["test/server/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
