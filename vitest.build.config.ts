import { defineConfig } from "vitest/config";

// Checks on dist/, after `npm run build`.
export default defineConfig({
  test: { include: ["test/build/**/*.test.ts"], environment: "node" },
});
