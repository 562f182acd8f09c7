import { describe, expect, it } from "vitest";
import { DEFAULT_MEMORY_SETTINGS } from "../protocol/index.ts";
import { memorySettingsProblem, readMemorySettings } from "./memory-service.ts";

describe("memory settings", () => {
  it("read stored values within their ranges, and defaults for what is missing or malformed", () => {
    expect(readMemorySettings(undefined)).toEqual(DEFAULT_MEMORY_SETTINGS);
    expect(
      readMemorySettings({ enabled: false, debounceSeconds: 99_999, maxFacts: 2.6, factConfidenceThreshold: "x" }),
    ).toEqual({ ...DEFAULT_MEMORY_SETTINGS, enabled: false, debounceSeconds: 3600, maxFacts: 3 });
  });

  it("name every problem of submitted settings, and accept the defaults", () => {
    expect(memorySettingsProblem(DEFAULT_MEMORY_SETTINGS)).toBeUndefined();
    expect(
      memorySettingsProblem({ ...DEFAULT_MEMORY_SETTINGS, enabled: "yes", debounceSeconds: -1, maxInjectionTokens: 5 }),
    ).toBe(
      "enabled must be true or false. The update delay is 0 to 3600 seconds. The memory budget is 100 to 20000 tokens.",
    );
  });
});
