import { describe, expect, it } from "vitest";
import { deviceThreads } from "./device-threads.ts";

describe("deviceThreads", () => {
  it("uses both cores of a 2-core machine, leaves two on larger ones, and stops at 8", () => {
    expect([1, 2, 4, 6, 8, 16, 64].map(deviceThreads)).toEqual([1, 2, 2, 4, 6, 8, 8]);
  });
});
