// The runner's "Baseline is stale" is read, not ignored: every scenario it names comes back, colours and all.
import { describe, expect, it } from "vitest";
import { staleEntries } from "./mcp-conformance-log.ts";

const RED = "\x1B[31m";
const RESET = "\x1B[0m";

describe("staleEntries", () => {
  it("names each scenario the runner lists as a stale baseline entry", () => {
    const log = [
      "✓ auth/pre-registration: 12 passed, 0 failed",
      "",
      `${RED}Stale baseline entries (now passing - remove from baseline):${RESET}`,
      "  ✓ auth/pre-registration",
      "  ✓ auth/scope-step-up",
      "",
      `${RED}Baseline is stale: update your expected-failures file to remove passing scenarios.${RESET}`,
    ].join("\n");
    expect(staleEntries(log)).toEqual(["auth/pre-registration", "auth/scope-step-up"]);
  });

  it("finds none in a log whose baseline check passed", () => {
    expect(staleEntries("\x1B[32m\nBaseline check passed: all failures are expected.\x1B[0m")).toEqual([]);
  });

  it("still fails the run when the runner says stale but its list cannot be read", () => {
    expect(staleEntries("Baseline is stale: update your expected-failures file")).toHaveLength(1);
  });
});
